import { describe, expect, it } from 'vitest';
import { TRACK_EVENT } from '../../lib/tracking';
import { trackAddedCourse } from './track-added-course';

describe('trackAddedCourse', () => {
  it('sends Added Course, add_to_cart and AddToCart in pounds sterling', () => {
    const events: unknown[] = [];
    const listener = (event: Event) => events.push((event as CustomEvent<Record<string, unknown>>).detail);
    window.addEventListener(TRACK_EVENT, listener);
    trackAddedCourse({ id: 'c1', title: 'Microneedling Course', url: '/courses/aesthetics/microneedling/', price: 89000 });
    window.removeEventListener(TRACK_EVENT, listener);
    expect(events).toEqual([
      { name: 'Added Course', params: { currency: 'GBP', value: 890, course_id: 'c1', course_name: 'Microneedling Course', url: '/courses/aesthetics/microneedling/' } },
      { name: 'add_to_cart', params: { currency: 'GBP', value: 890, items: [{ item_id: 'c1', item_name: 'Microneedling Course', price: 890, quantity: 1 }] } },
      { name: 'AddToCart', params: { currency: 'GBP', value: 890, content_ids: ['c1'], content_name: 'Microneedling Course', content_type: 'product' } },
    ]);
  });
});
