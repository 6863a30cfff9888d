import type { PriceData } from '../../generated/PriceData';
import { postJson } from '../../lib/api';
import { penceToPounds as pounds } from '../../lib/money';
import { track, type TrackingParams } from '../../lib/tracking';
import { addedUpsells, onlineBasketTotal, type OnlineCourse } from '../../lib/basket-items';

export const CREATE_CHECKOUT_PATH = '/api/e-learning/create-checkout';

/** §7: the server prices the basket itself from these ids. */
export interface CreateCheckoutRequest {
  priceIds: string[];
  additional: PriceData[];
}

export interface CreateCheckoutResponse {
  url: string;
}

export function createCheckoutRequest(courses: OnlineCourse[]): CreateCheckoutRequest {
  return { priceIds: courses.map((course) => course.pricingId), additional: addedUpsells(courses) };
}

/** The analytics `begin_checkout` event: GBP, amounts in pounds. */
export function beginCheckoutParams(courses: OnlineCourse[]): TrackingParams {
  const items = courses.flatMap((course) => [
    { item_id: course.pricingId, item_name: course.title, price: pounds(course.unitAmount) },
    ...(course.upsellAdded && course.upsell
      ? [{ item_id: course.upsell.price_data.product, item_name: course.upsell.title, price: pounds(course.upsell.price_data.unit_amount) }]
      : []),
  ]);
  return { currency: 'GBP', value: pounds(onlineBasketTotal(courses)), items };
}

/**
 * Fires `begin_checkout`, then asks the server for a payment page for the
 * online basket and returns its address.
 */
export async function createCheckout(courses: OnlineCourse[]): Promise<string> {
  track('begin_checkout', beginCheckoutParams(courses));
  const answer = await postJson<Partial<CreateCheckoutResponse> | null>(CREATE_CHECKOUT_PATH, createCheckoutRequest(courses));
  if (typeof answer?.url !== 'string' || answer.url === '') throw new Error('The checkout answer has no payment page address');
  return answer.url;
}
