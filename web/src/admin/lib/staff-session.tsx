import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useRequest } from '../../lib/use-request';
import { adminGet, adminPost, whenSessionEnds } from './admin-api';
import type { Staff, StaffSession } from './api-types';

// Who is signed in to the back office (decision 017). The session lives in
// the `enrol_staff` cookie, so the browser only sees `GET /session`'s answer,
// read once, until a sign-in's, a set-up's or a sign-out's own answer takes
// its place; any 401 afterwards means the session ended (30 minutes idle,
// 12 hours in all) and signs the browser out as well.

const SESSION_PATH = '/api/admin/session';
const SIGN_OUT_PATH = '/api/admin/sign-out';

interface StaffAuth {
  /** `undefined` until the first answer; `null` when signed out. */
  staff: Staff | null | undefined;
  /** The first answer failed for another reason than a 401: `retry` asks again. */
  failed: boolean;
  retry: () => void;
  /** Takes the answer of a sign-in or a completed set-up. */
  signedIn: (session: StaffSession) => void;
  /** Ends the session on the server, then here; throws when the server could not be told. */
  signOut: () => Promise<void>;
}

const StaffAuthContext = createContext<StaffAuth | null>(null);

export function useStaffAuth(): StaffAuth {
  const auth = useContext(StaffAuthContext);
  if (!auth) throw new Error('useStaffAuth must be used inside StaffSessionProvider');
  return auth;
}

/** The signed-in staff member, for screens inside the signed-in layout. */
export function useStaff(): Staff {
  const { staff } = useStaffAuth();
  if (!staff) throw new Error('useStaff must be used where someone is signed in');
  return staff;
}

export function StaffSessionProvider({ children }: { children: ReactNode }) {
  // What the latest sign-in, set-up, sign-out or 401 left; until then, the first answer.
  const [changed, setChanged] = useState<{ staff: Staff | null } | null>(null);
  const loaded = useRequest(changed ? null : SESSION_PATH, (signal) => adminGet<StaffSession>(SESSION_PATH, signal));
  useEffect(() => whenSessionEnds(() => setChanged({ staff: null })), []);

  const signedIn = useCallback((session: StaffSession) => setChanged(session), []);
  const signOut = useCallback(async () => {
    await adminPost<null>(SIGN_OUT_PATH);
    setChanged({ staff: null });
  }, []);

  const staff = changed ? changed.staff : loaded.status === 'done' ? loaded.data?.staff : undefined;
  const failed = !changed && loaded.status === 'failed';
  const value = useMemo(() => ({ staff, failed, retry: loaded.retry, signedIn, signOut }), [staff, failed, loaded.retry, signedIn, signOut]);
  return <StaffAuthContext value={value}>{children}</StaffAuthContext>;
}
