import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, type NavigateFunction } from './router';
import { ACCOUNT_PATH } from './paths';

// Decisions 008 and 009: a mailed link that signs the browser in (a
// confirmed email, a new password) ends on the account, which says what
// happened. The words travel in the router's state, never in the address.

interface NoticeState {
  accountNotice: string;
}

/** To the account, saying `notice` there; the link's page is replaced, so Back does not send its token again. */
export function goToAccountSaying(navigate: NavigateFunction, notice: string): void {
  navigate(ACCOUNT_PATH, { replace: true, state: { accountNotice: notice } satisfies NoticeState });
}

/** The notice left for the account page, once: it is taken out of the history entry, so a reload does not repeat it. */
export function useAccountNotice(): string | null {
  const { pathname, search, state } = useLocation() as { pathname: string; search: string; state: unknown };
  const navigate = useNavigate();
  const [notice] = useState(() => {
    const left = (state as Partial<NoticeState> | null)?.accountNotice;
    return typeof left === 'string' ? left : null;
  });

  // Once, where the notice arrived: `navigate` changes with the address,
  // and this page is still shown for a moment after leaving it.
  const [here] = useState(pathname + search);
  const taken = useRef(false);
  useEffect(() => {
    if (!notice || taken.current) return;
    taken.current = true;
    navigate(here, { replace: true, state: null });
  }, [notice, navigate, here]);

  return notice;
}
