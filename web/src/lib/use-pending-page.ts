import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from './router';
import type { Page } from '../generated/Page';
import { fetchPageData } from './page-data';
import { useRequest } from './use-request';

// The payment provider tells the server by webhook, usually within seconds
// of the buyer's return; past half a minute the email will tell them instead.
export const CONFIRMATION_POLL_MS = 2000;
export const CONFIRMATION_WAIT_MS = 30000;
const ROUNDS = CONFIRMATION_WAIT_MS / CONFIRMATION_POLL_MS;

/**
 * The page an order's buyer returns to, as the server last saw it: while
 * `isPending(page)`, this path's page data is read again two seconds after
 * each answer, for thirty seconds at most, or until the server moves it to
 * another path. `read` picks the page out of the answer (null when it is
 * another kind).
 */
export function usePendingPage<P>(
  initial: P,
  isPending: (page: P) => boolean,
  read: (page: Page) => P | null,
): { page: P; gaveUp: boolean } {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  // How many times the page has been asked for again.
  const [round, setRound] = useState(0);
  const poll = useRequest(round > 0 ? `${pathname} ${round}` : null, (signal) => fetchPageData(`${pathname}${search}`, signal), {
    reportAs: 'check the order status',
  });
  // The server moved the page: a failed payment goes back to the checkout, say.
  const movedTo = poll.data && poll.data.path.split('?')[0] !== pathname ? poll.data.path : null;
  // A page still pending may say more than before (a payment now on its way).
  const page = (poll.data && !movedTo && read(poll.data.page)) || initial;
  const waiting = isPending(page) && !movedTo && poll.status !== 'loading';

  useEffect(() => {
    if (movedTo) navigate(movedTo, { replace: true });
  }, [movedTo, navigate]);

  useEffect(() => {
    if (!waiting || round >= ROUNDS) return;
    const timer = setTimeout(() => setRound((n) => n + 1), CONFIRMATION_POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, round]);

  return { page, gaveUp: waiting && round >= ROUNDS };
}
