import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { AuthSession } from '../../generated/AuthSession';
import type { AuthUser } from '../../generated/AuthUser';
import type { SignInRequest } from '../../generated/SignInRequest';
import type { SignUpRequest } from '../../generated/SignUpRequest';
import type { UserData } from '../../generated/UserData';
import { ApiError, getJson, postJson } from '../../lib/api';
import { reportError } from '../../lib/report-error';
import { track } from '../../lib/tracking';

// §4 Auth context, over the built-in accounts of decision 008. The session
// lives in an httpOnly cookie, so the browser only ever sees its answer.

const SESSION_PATH = '/api/auth/session';
const SIGN_IN_PATH = '/api/auth/sign-in';
const SIGN_UP_PATH = '/api/auth/sign-up';
const SIGN_OUT_PATH = '/api/auth/sign-out';
const UNREACHABLE = 'We could not reach the server. Please check your connection and try again.';

interface SessionState {
  /** The session has not been answered yet: always so in the server's render. */
  loading: boolean;
  user: AuthUser | null;
  /** The identity token's claims, with the Hasura-style claims object. */
  claims: Record<string, unknown> | null;
  userData: UserData | null;
}

/** §8: a failed sign-in returns false; the server's message says why. */
export type SignInResult = { signedIn: true } | { signedIn: false; message: string };

interface Auth extends SessionState {
  signIn: (email: string, password: string) => Promise<SignInResult>;
  /** Creates the account and signs it in; a refusal is thrown as the server's `ApiError`. */
  signUp: (details: SignUpRequest) => Promise<void>;
  /** Ends the session and goes to the home page; false when the server could not be told. */
  signOut: () => Promise<boolean>;
}

const LOADING: SessionState = { loading: true, user: null, claims: null, userData: null };
const SIGNED_OUT: SessionState = { ...LOADING, loading: false };

const AuthContext = createContext<Auth | null>(null);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside AuthProvider');
  return auth;
}

/** §7 On identify: who is using the site, for the marketing and analytics tools. */
function identify(user: AuthUser | null) {
  if (user) track('identify', { user_id: user.sub, email: user.email });
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [session, setSession] = useState<SessionState>(LOADING);
  // Only the latest request may set the session: a slow first answer must
  // not undo a sign-in, nor a sign-out.
  const latest = useRef(0);

  const refresh = useCallback(async (): Promise<AuthSession> => {
    const request = ++latest.current;
    const answer = await getJson<AuthSession>(SESSION_PATH);
    if (request === latest.current) {
      setSession({ loading: false, user: answer.user, claims: answer.claims, userData: answer.userData });
    }
    return answer;
  }, []);

  // After hydration: the server's render (and so the first one here) knows no one.
  useEffect(() => {
    refresh().catch((error: unknown) => {
      reportError(error, { action: 'load the session' });
      setSession((current) => ({ ...current, loading: false }));
    });
  }, [refresh]);

  const signIn = useCallback(
    async (email: string, password: string): Promise<SignInResult> => {
      try {
        await postJson<AuthSession>(SIGN_IN_PATH, { username: email, password } satisfies SignInRequest);
        identify((await refresh()).user);
        return { signedIn: true };
      } catch (error) {
        reportError(error, { action: 'sign in' });
        return { signedIn: false, message: error instanceof ApiError ? error.message : UNREACHABLE };
      }
    },
    [refresh],
  );

  // The server signs the new account in: that is §7's automatic sign-in.
  const signUp = useCallback(
    async (details: SignUpRequest) => {
      try {
        await postJson<AuthSession>(SIGN_UP_PATH, details);
        identify((await refresh()).user);
      } catch (error) {
        reportError(error, { action: 'sign up' });
        throw error instanceof ApiError ? error : new Error(UNREACHABLE);
      }
    },
    [refresh],
  );

  const signOut = useCallback(async () => {
    try {
      await postJson<AuthSession>(SIGN_OUT_PATH, {});
    } catch (error) {
      reportError(error, { action: 'sign out' });
      return false;
    }
    latest.current++;
    setSession(SIGNED_OUT);
    void navigate('/');
    return true;
  }, [navigate]);

  const value = useMemo(() => ({ ...session, signIn, signUp, signOut }), [session, signIn, signUp, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
