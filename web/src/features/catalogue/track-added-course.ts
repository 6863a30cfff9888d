import { penceToPounds } from '../../lib/money';
import { track } from '../../lib/tracking';

export interface AddedCourse {
  id: string;
  title: string;
  url: string;
  /** In pence, with any kit taken. */
  price: number;
}

/** An add to basket, for the marketing, analytics and pixel tools; GBP, in pounds. */
export function trackAddedCourse(course: AddedCourse): void {
  const value = penceToPounds(course.price);
  track('Added Course', { currency: 'GBP', value, course_id: course.id, course_name: course.title, url: course.url });
  track('add_to_cart', {
    currency: 'GBP', value, items: [{ item_id: course.id, item_name: course.title, price: value, quantity: 1 }],
  });
  track('AddToCart', { currency: 'GBP', value, content_ids: [course.id], content_name: course.title, content_type: 'product' });
}
