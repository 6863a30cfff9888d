import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from './router';
import type { AuthSession } from '../generated/AuthSession';
import type { AuthUser } from '../generated/AuthUser';
import type { SignInRequest } from '../generated/SignInRequest';
import type { SignUpRequest } from '../generated/SignUpRequest';
import type { UserData } from '../generated/UserData';
import { ApiError, getJson, postJson } from './api';
import { hasNoOrigin } from './preview-frame';
import { reportError } from './report-error';
import { track } from './tracking';
import { useRequest } from './use-request';

// The auth context (docs/product.md#accounts), over the built-in accounts
// of decision 008. The session lives in an httpOnly cookie, so the browser
// only ever sees its answer.
// Sign-up signs in at once and mails a link that proves the email
// (decision 009); a password reset mails a link too (decision 008), and
// choosing the new password signs in.

const SESSION_PATH = '/api/auth/session';
const SIGN_IN_PATH = '/api/auth/sign-in';
const SIGN_UP_PATH = '/api/auth/sign-up';
const VERIFY_PATH = '/api/auth/verify';
const RESET_PATH = '/api/auth/password-reset';
const RESET_CONFIRM_PATH = '/api/auth/password-reset/confirm';
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

/** A failed sign-in returns false; the server's message says why. */
export type SignInResult = { signedIn: true } | { signedIn: false; message: string };

/** A sign-up made a new account and signed it in, or found the email had one and mailed its owner a link. */
export type SignUpResult = 'signedIn' | 'mailed';

/**
 * The calls below that answer with a promise of nothing throw a refusal as
 * the server's `ApiError` (its message, and `fields` to put beside them),
 * and anything else as an `Error` saying the server could not be reached.
 */
interface Auth extends SessionState {
  signIn: (email: string, password: string) => Promise<SignInResult>;
  /** Creates the account, signed in with its email unconfirmed, and mails the link that confirms it. */
  signUp: (details: SignUpRequest) => Promise<SignUpResult>;
  /** Confirms the email with the mailed link's `token` and the password chosen at sign-up, and signs in. */
  verifyEmail: (token: string, password: string) => Promise<void>;
  /** Mails a link to choose a new password, if the email has an account; the same answer either way. */
  requestPasswordReset: (email: string) => Promise<void>;
  /** Sets a new password with the mailed link's `token` and signs in. */
  resetPassword: (token: string, password: string) => Promise<void>;
  /** Ends the session and goes to the home page; false when the server could not be told. */
  signOut: () => Promise<boolean>;
  /** Reads the session and the user record again, after the account's details changed. */
  refreshSession: () => Promise<void>;
}

const SIGNED_OUT: AuthSession = { user: null, claims: null };

const AuthContext = createContext<Auth | null>(null);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside AuthProvider');
  return auth;
}

/** The identify event: who is using the site, for the marketing and analytics tools. */
function identify(user: AuthUser | null) {
  if (user) track('identify', { user_id: user.sub, email: user.email });
}

/** `POST`s an account request, hands its answer to `then`, and reports a failure and throws it as `Auth` says. */
async function sendAccountRequest(action: string, path: string, body: unknown, then: (answer: unknown) => Promise<void> = async () => {}): Promise<void> {
  try {
    await then(await postJson<unknown>(path, body));
  } catch (error) {
    reportError(error, { action });
    throw error instanceof ApiError ? error : new Error(UNREACHABLE);
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  // What the latest call that signed in or out left, once one has. Only the
  // latest call may set it: a slow answer must not undo a sign-out, nor a
  // later sign-in.
  const [changed, setChanged] = useState<AuthSession | null>(null);
  const latest = useRef(0);
  // Read after hydration: the server's render (and so the first one here)
  // knows no one. A call's answer ends it, so a slow first answer cannot
  // undo a sign-in.
  // A staff preview, sandboxed, has no session to read (decision 030).
  const readSession = (signal: AbortSignal) => (hasNoOrigin() ? Promise.resolve(SIGNED_OUT) : getJson<AuthSession>(SESSION_PATH, signal));
  const loaded = useRequest(changed ? null : SESSION_PATH, readSession, {
    reportAs: 'load the session',
  });
  const known = changed ?? (loaded.status === 'failed' ? SIGNED_OUT : loaded.data);
  // The user record is the first entry of the GraphQL user list.
  const userId = known?.user?.sub ?? null;
  // Loaded with its query only once someone is signed in.
  const userData = useRequest(userId && `user ${userId}`, (signal) => import('./account-data').then(({ fetchUserData }) => fetchUserData(userId ?? '', signal)), {
    reportAs: 'load the account',
  });
  // The record stays shown while it is read again (after a profile change), but never another user's.
  const record = userData.data && userData.data.id === userId ? userData.data : null;

  // After a call that set the session cookie: who is signed in now.
  const signedIn = useCallback(async () => {
    const call = ++latest.current;
    const answer = await getJson<AuthSession>(SESSION_PATH);
    if (call === latest.current) setChanged(answer);
    identify(answer.user);
  }, []);

  const retryUserData = userData.retry;
  const refreshSession = useCallback(async () => {
    await signedIn();
    retryUserData();
  }, [signedIn, retryUserData]);

  const signIn = useCallback(
    async (email: string, password: string): Promise<SignInResult> => {
      try {
        await sendAccountRequest('sign in', SIGN_IN_PATH, { username: email, password } satisfies SignInRequest, signedIn);
        return { signedIn: true };
      } catch (error) {
        return { signedIn: false, message: error instanceof Error ? error.message : UNREACHABLE };
      }
    },
    [signedIn],
  );

  // After sign-up the current user is refetched. An email that has an
  // account signs nobody in: its owner is mailed a link instead.
  const signUp = useCallback(
    async (details: SignUpRequest): Promise<SignUpResult> => {
      let result: SignUpResult = 'mailed';
      await sendAccountRequest('sign up', SIGN_UP_PATH, details, async (answer) => {
        if ((answer as Partial<AuthSession> | null)?.user) {
          result = 'signedIn';
          await signedIn();
        }
      });
      return result;
    },
    [signedIn],
  );

  const verifyEmail = useCallback(
    (token: string, password: string) => sendAccountRequest('confirm the email address', VERIFY_PATH, { token, password }, signedIn),
    [signedIn],
  );

  const requestPasswordReset = useCallback((email: string) => sendAccountRequest('ask for a password link', RESET_PATH, { email }), []);

  const resetPassword = useCallback(
    (token: string, password: string) => sendAccountRequest('choose a new password', RESET_CONFIRM_PATH, { token, password }, signedIn),
    [signedIn],
  );

  const signOut = useCallback(async () => {
    try {
      await postJson<AuthSession>(SIGN_OUT_PATH, {});
    } catch (error) {
      reportError(error, { action: 'sign out' });
      return false;
    }
    latest.current++;
    setChanged(SIGNED_OUT);
    navigate('/');
    return true;
  }, [navigate]);

  const value = useMemo(
    () => ({
      loading: !known || (userId !== null && record === null && userData.status === 'loading'),
      user: known?.user ?? null,
      claims: known?.claims ?? null,
      userData: record,
      signIn,
      signUp,
      verifyEmail,
      requestPasswordReset,
      resetPassword,
      signOut,
      refreshSession,
    }),
    [known, userId, record, userData.status, signIn, signUp, verifyEmail, requestPasswordReset, resetPassword, signOut, refreshSession],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
