import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Page } from '../generated/Page';
import type { PageEnvelope } from '../generated/PageEnvelope';
import { getJson } from './api';

// The payment provider tells the server by webhook, usually within seconds
// of the buyer's return; past half a minute the email will tell them instead.
export const CONFIRMATION_POLL_MS = 2000;
export const CONFIRMATION_WAIT_MS = 30000;

/**
 * The page an order's buyer returns to, as the server last saw it: while
 * `isPending(page)`, this path's page data is read again every two seconds,
 * for thirty seconds at most, or until the server moves it to another path.
 * `read` picks the page out of the answer (null when it is another kind).
 * Both must be stable functions.
 */
export function usePendingPage<P>(
  initial: P,
  isPending: (page: P) => boolean,
  read: (page: Page) => P | null,
): { page: P; gaveUp: boolean } {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [page, setPage] = useState(initial);
  const [gaveUp, setGaveUp] = useState(false);
  const pending = isPending(page);

  useEffect(() => {
    if (!pending) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let waited = 0;
    const next = () => {
      if (waited >= CONFIRMATION_WAIT_MS) setGaveUp(true);
      else timer = setTimeout(poll, CONFIRMATION_POLL_MS);
    };
    const poll = () => {
      waited += CONFIRMATION_POLL_MS;
      getJson<PageEnvelope>(`/api/page-data?path=${encodeURIComponent(pathname)}`, controller.signal)
        .then((envelope) => {
          // The server moved the page: a failed payment goes back to the checkout, say.
          if (envelope.path.split('?')[0] !== pathname) {
            void navigate(envelope.path, { replace: true });
            return;
          }
          const answer = read(envelope.page);
          // A page still pending may say more than before (a payment now on its way).
          if (answer !== null) setPage(answer);
          if (answer === null || isPending(answer)) next();
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          console.warn('Could not check the order status', error);
          next();
        });
    };
    next();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [pending, pathname, navigate, isPending, read]);

  return { page, gaveUp };
}
