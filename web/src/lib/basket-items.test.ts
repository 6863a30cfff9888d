import { describe, expect, it } from 'vitest';
import { addedUpsells, isOnlineCourse, onlineBasketTotal, type OnlineCourse } from './basket-items';

const upsell = {
  title: 'Mesotoxin Online Course', description: 'Micro-dose toxin techniques.', cta: 'Add for £69.99',
  price_data: { currency: 'gbp', product: 'prod_mesotoxin_online', unit_amount: 6999 },
};
const course: OnlineCourse = {
  courseId: 'c1', title: 'Skin Boosters Online Course', url: '/courses/elearning/skin-boosters-online/',
  image: { url: '/media/x.svg', alt: '', width: 10, height: 10 }, pricingId: 'price_boosters', unitAmount: 24900,
  wasPrice: null, upsell, upsellAdded: false,
};
const other: OnlineCourse = { ...course, url: '/courses/elearning/other/', unitAmount: 9900, upsell: null };

describe('online basket rules', () => {
  it('totals the courses and only the added upsells', () => {
    expect(onlineBasketTotal([])).toBe(0);
    expect(onlineBasketTotal([course, other])).toBe(34800);
    expect(onlineBasketTotal([{ ...course, upsellAdded: true }, other])).toBe(41799);
    expect(addedUpsells([course, other])).toEqual([]);
    expect(addedUpsells([{ ...course, upsellAdded: true }, other])).toEqual([upsell.price_data]);
  });

  it('accepts stored courses of the current shape only', () => {
    expect(isOnlineCourse(course)).toBe(true);
    expect(isOnlineCourse({ ...course, upsellAdded: true })).toBe(true);
    expect(isOnlineCourse(other)).toBe(true);
    const { upsell: _upsell, upsellAdded: _added, ...olderShape } = course;
    expect(isOnlineCourse(olderShape)).toBe(false);
    expect(isOnlineCourse({ ...other, upsellAdded: true })).toBe(false);
    expect(isOnlineCourse({ ...course, upsellAdded: 'yes' })).toBe(false);
    expect(isOnlineCourse({ ...course, upsell: { ...upsell, cta: 5 } })).toBe(false);
    expect(isOnlineCourse({ ...course, upsell: { ...upsell, price_data: { ...upsell.price_data, currency: 'usd' } } })).toBe(false);
    expect(isOnlineCourse({ ...course, upsell: { ...upsell, price_data: { ...upsell.price_data, unit_amount: -1 } } })).toBe(false);
    expect(isOnlineCourse(null)).toBe(false);
  });
});
