import type { EnquiryKind } from '../generated/EnquiryKind';
import { readText, writeText } from './storage';
import { track } from './tracking';

// The conversions the college measures its advertising by, each
// fired by the form or page it names: contact, newsletter, signup, email,
// enrol and callback. Like every tracking event they reach a tool only
// with the visitor's consent (the consent feature forwards them).

export type ConversionLabel = 'contact' | 'newsletter' | 'signup' | 'email' | 'enrol' | 'callback';

export const CONVERSION_EVENT = 'conversion';

export function trackConversion(label: ConversionLabel, params: Record<string, unknown> = {}): void {
  track(CONVERSION_EVENT, { conversion_label: label, ...params });
}

/** The conversion an enquiry form counts as: a callback request is its own, every other form a contact. */
export function enquiryConversion(kind: EnquiryKind): ConversionLabel {
  return kind === 'callback' ? 'callback' : 'contact';
}

/** 'enrol' for a paid order, once: the page shown again (a reload, the Back button) does not count it twice. */
export function trackEnrolConversion(orderId: string, totalPence: number): void {
  const key = `enrol-conversion:${orderId}`;
  if (readText('session', key)) return;
  writeText('session', key, '1');
  trackConversion('enrol', { order_id: orderId, currency: 'GBP', value: totalPence / 100 });
}
