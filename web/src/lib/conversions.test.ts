import { afterEach, describe, expect, it } from 'vitest';
import { enquiryConversion, trackConversion, trackEnrolConversion } from './conversions';
import { trackedEvents as tracked } from '../test/tracked-events';

describe('conversions', () => {
  let stop = () => {};
  afterEach(() => stop());

  it('announces each label of §9 as a conversion event', () => {
    const t = tracked();
    stop = t.stop;
    for (const label of ['contact', 'newsletter', 'signup', 'email', 'enrol', 'callback'] as const) trackConversion(label);
    expect(t.events).toEqual(
      ['contact', 'newsletter', 'signup', 'email', 'enrol', 'callback'].map((label) => ({ name: 'conversion', params: { conversion_label: label } })),
    );
  });

  it('counts a callback request as a callback and every other enquiry as a contact', () => {
    expect(enquiryConversion('callback')).toBe('callback');
    expect(['contact', 'business', 'models'].map((kind) => enquiryConversion(kind as 'contact'))).toEqual(['contact', 'contact', 'contact']);
  });

  it('counts a paid order once, in pounds', () => {
    const t = tracked();
    stop = t.stop;
    trackEnrolConversion('order-1', 103000);
    trackEnrolConversion('order-1', 103000);
    trackEnrolConversion('order-2', 10000);
    expect(t.events).toEqual([
      { name: 'conversion', params: { conversion_label: 'enrol', order_id: 'order-1', currency: 'GBP', value: 1030 } },
      { name: 'conversion', params: { conversion_label: 'enrol', order_id: 'order-2', currency: 'GBP', value: 100 } },
    ]);
  });
});
