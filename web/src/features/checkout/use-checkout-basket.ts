import { useCallback, useEffect, useState } from 'react';
import type { BasketRequest } from '../../generated/BasketRequest';
import type { BasketResponse } from '../../generated/BasketResponse';
import { postJson } from '../../lib/api';
import { reportError } from '../../lib/report-error';
import { readText } from '../../lib/storage';
import { useBasket } from '../../lib/basket';
import type { SelectedCourse } from '../../lib/basket-items';
import { applyCatalogue, chosenCourses, type Catalogue } from './checkout-lines';
import { ORDER_ID_KEY } from './place-order';

const BASKET_PATH = '/api/checkout/basket';

interface CheckoutBasket {
  status: 'loading' | 'ready' | 'failed';
  catalogue: Catalogue;
  /** What changed since the courses were chosen (a full date, a course no longer sold). */
  notices: string[];
}

/**
 * The selected courses as the catalogue sells them now: asked once when the
 * page opens, and again by `refresh` (after a session filled up, or a price
 * changed). The basket is brought up to date with the answer.
 */
export function useCheckoutBasket() {
  const { selectedCourses, replaceCourses } = useBasket();
  const [state, setState] = useState<CheckoutBasket>({ status: 'loading', catalogue: new Map(), notices: [] });

  const load = useCallback(
    (courses: SelectedCourse[], signal?: AbortSignal) => {
      setState((current) => ({ ...current, status: 'loading' }));
      // The pending order this browser made: the seats it holds are still its own to choose.
      const request: BasketRequest = { courses: chosenCourses(courses), orderId: readText('local', ORDER_ID_KEY) ?? undefined };
      postJson<BasketResponse>(BASKET_PATH, request, { signal })
        .then((answer) => {
          const { courses: current, catalogue, notices } = applyCatalogue(courses, answer);
          replaceCourses(current);
          setState({ status: 'ready', catalogue, notices });
        })
        .catch((error: unknown) => {
          if (signal?.aborted) return;
          reportError(error, { action: 'refresh the checkout basket' });
          setState((current) => ({ ...current, status: 'failed' }));
        });
    },
    [replaceCourses],
  );

  // The basket as it was when the page opened.
  const [opened] = useState(selectedCourses);
  useEffect(() => {
    const controller = new AbortController();
    load(opened, controller.signal);
    return () => controller.abort();
  }, [load, opened]);

  return { ...state, refresh: () => load(selectedCourses) };
}
