import { afterEach, describe, expect, it } from 'vitest';
import { trackAddedCourse } from './track-added-course';

describe('trackAddedCourse', () => {
  afterEach(() => {
    delete window.dataLayer;
  });

  it('sends Added Course, add_to_cart and AddToCart in pounds sterling', () => {
    window.dataLayer = [];
    trackAddedCourse({ id: 'c1', title: 'Microneedling Course', url: '/courses/aesthetics/microneedling/', price: 89000 });
    expect(window.dataLayer).toEqual([
      { event: 'Added Course', currency: 'GBP', value: 890, course_id: 'c1', course_name: 'Microneedling Course', url: '/courses/aesthetics/microneedling/' },
      { event: 'add_to_cart', currency: 'GBP', value: 890, items: [{ item_id: 'c1', item_name: 'Microneedling Course', price: 890, quantity: 1 }] },
      { event: 'AddToCart', currency: 'GBP', value: 890, content_ids: ['c1'], content_name: 'Microneedling Course', content_type: 'product' },
    ]);
  });
});
