import { useState } from 'react';
import type { BasketRequest } from '../../generated/BasketRequest';
import type { BasketResponse } from '../../generated/BasketResponse';
import { postJson } from '../../lib/api';
import { useBasket } from '../../lib/basket';
import { readText } from '../../lib/storage';
import { useRequest } from '../../lib/use-request';
import { applyCatalogue, chosenCourses, type Catalogue } from './checkout-lines';
import { ORDER_ID_KEY } from './order-id';

const BASKET_PATH = '/api/checkout/basket';
const NOTHING_YET = { catalogue: new Map(), notices: [], maxInstalments: 0 } satisfies {
  catalogue: Catalogue;
  notices: string[];
  maxInstalments: number;
};

/**
 * The selected courses as the catalogue sells them now: asked once when the
 * page opens, and again by `refresh` (after a session filled up, or a price
 * changed). The basket is brought up to date with the answer; until the
 * next answer the last one stands.
 */
export function useCheckoutBasket() {
  const { selectedCourses, replaceCourses } = useBasket();
  // The basket as it was when the page opened, and again at each refresh.
  const [asked, setAsked] = useState(selectedCourses);
  const answer = useRequest(
    'checkout basket',
    async (signal) => {
      // The pending order this browser made: the seats it holds are still its own to choose.
      const request: BasketRequest = { courses: chosenCourses(asked), orderId: readText('local', ORDER_ID_KEY) ?? undefined };
      const answer = await postJson<BasketResponse>(BASKET_PATH, request, { signal });
      const { courses, catalogue, notices } = applyCatalogue(asked, answer);
      if (!signal.aborted) replaceCourses(courses);
      return { catalogue, notices, maxInstalments: answer.maxInstalments };
    },
    { reportAs: 'refresh the checkout basket' },
  );
  const { catalogue, notices, maxInstalments } = answer.data ?? NOTHING_YET;

  return {
    status: answer.status === 'done' ? ('ready' as const) : answer.status === 'failed' ? ('failed' as const) : ('loading' as const),
    /** What changed since the courses were chosen (a full date, a course no longer sold). */
    notices,
    catalogue,
    /** The most monthly instalments the college allows a plan. */
    maxInstalments,
    refresh: () => {
      setAsked(selectedCourses);
      answer.retry();
    },
  };
}
