import type { Agreed } from '../../generated/Agreed';
import type { PriceData } from '../../generated/PriceData';
import { CONSENT_VERSION } from '../../lib/consent-texts';
import { postJson } from '../../lib/api';
import { penceToPounds as pounds } from '../../lib/money';
import { track, type TrackingParams } from '../../lib/tracking';
import { addedUpsells, onlineBasketTotal, type OnlineCourse } from '../../lib/basket-items';

export const CREATE_CHECKOUT_PATH = '/api/e-learning/create-checkout';

/** The server prices the basket itself from these ids; what the buyer agreed to goes with them (decision 020). */
export interface CreateCheckoutRequest {
  priceIds: string[];
  additional: PriceData[];
  agreed: Agreed;
}

export interface CreateCheckoutResponse {
  url: string;
}

/** The terms and the request to start at once, both agreed to in the words the server records. */
export const AGREED_ONLINE: Agreed = { version: CONSENT_VERSION, terms: true, digitalContent: true, entryRequirements: [] };

export function createCheckoutRequest(courses: OnlineCourse[]): CreateCheckoutRequest {
  return { priceIds: courses.map((course) => course.pricingId), additional: addedUpsells(courses), agreed: AGREED_ONLINE };
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
 * online basket and returns its address. Called only once the buyer has
 * ticked both boxes of the drawer.
 */
export async function createCheckout(courses: OnlineCourse[]): Promise<string> {
  track('begin_checkout', beginCheckoutParams(courses));
  const answer = await postJson<Partial<CreateCheckoutResponse> | null>(CREATE_CHECKOUT_PATH, createCheckoutRequest(courses));
  if (typeof answer?.url !== 'string' || answer.url === '') throw new Error('The checkout answer has no payment page address');
  return answer.url;
}
