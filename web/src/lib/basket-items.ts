import type { Image } from '../generated/Image';
import type { PriceData } from '../generated/PriceData';
import type { UpsellOffer } from '../generated/UpsellOffer';
import type { SessionType } from '../generated/SessionType';

/** An in-person course chosen for enrolment on the checkout page. */
export interface SelectedCourse {
  courseId: string;
  title: string;
  url: string;
  image: Image;
  price: number;
  wasPrice: number | null;
  isPackage: boolean;
  includeKit: boolean;
  selectedEvent: { id: string; date: string; type: SessionType; price: number } | null;
}

/** An e-learning course in the online basket drawer. */
export interface OnlineCourse {
  courseId: string;
  title: string;
  url: string;
  image: Image;
  pricingId: string;
  unitAmount: number;
  wasPrice: number | null;
  /** The add-on offered with this course, if any (its upsell). */
  upsell: UpsellOffer | null;
  /** The buyer has added the upsell to the order. */
  upsellAdded: boolean;
}

export const SELECTED_COURSES_KEY = 'courses';
export const ONLINE_COURSES_KEY = 'onlineCourses';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isImage = (value: unknown): value is Image =>
  isRecord(value) && typeof value.url === 'string' && typeof value.alt === 'string';
const isPence = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isOptionalPence = (value: unknown) => value === null || isPence(value);

export function isSelectedCourse(value: unknown): value is SelectedCourse {
  if (!isRecord(value)) return false;
  const event = value.selectedEvent;
  const eventOk =
    event === null ||
    (isRecord(event) && typeof event.id === 'string' && typeof event.date === 'string' && isPence(event.price) &&
      (event.type === 'onsite' || event.type === 'virtual' || event.type === 'blended'));
  return (
    typeof value.courseId === 'string' && typeof value.title === 'string' && typeof value.url === 'string' &&
    isImage(value.image) && isPence(value.price) && isOptionalPence(value.wasPrice) &&
    typeof value.isPackage === 'boolean' && typeof value.includeKit === 'boolean' && eventOk
  );
}

const isPriceData = (value: unknown): value is PriceData =>
  isRecord(value) && value.currency === 'gbp' && typeof value.product === 'string' && isPence(value.unit_amount);

const isUpsellOffer = (value: unknown): value is UpsellOffer =>
  isRecord(value) && typeof value.title === 'string' && typeof value.description === 'string' &&
  typeof value.cta === 'string' && isPriceData(value.price_data);

export function isOnlineCourse(value: unknown): value is OnlineCourse {
  return (
    isRecord(value) && typeof value.courseId === 'string' && typeof value.title === 'string' &&
    typeof value.url === 'string' && isImage(value.image) && typeof value.pricingId === 'string' &&
    isPence(value.unitAmount) && isOptionalPence(value.wasPrice) &&
    (value.upsell === null || isUpsellOffer(value.upsell)) && typeof value.upsellAdded === 'boolean' &&
    !(value.upsellAdded && value.upsell === null)
  );
}

/** The upsell prices the buyer has added, in basket order. */
export function addedUpsells(courses: OnlineCourse[]): PriceData[] {
  return courses.flatMap((course) => (course.upsellAdded && course.upsell ? [course.upsell.price_data] : []));
}

/** The online total is the courses' unit amounts plus the added upsells. */
export function onlineBasketTotal(courses: OnlineCourse[]): number {
  const coursesTotal = courses.reduce((sum, course) => sum + course.unitAmount, 0);
  return addedUpsells(courses).reduce((sum, upsell) => sum + upsell.unit_amount, coursesTotal);
}
