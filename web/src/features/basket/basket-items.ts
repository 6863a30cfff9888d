import type { Image } from '../../generated/Image';
import type { SessionType } from '../../generated/SessionType';

/** An in-person course chosen for enrolment on the checkout page (§3). */
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

/** An e-learning course in the online basket drawer (§3 Online course). */
export interface OnlineCourse {
  courseId: string;
  title: string;
  url: string;
  image: Image;
  pricingId: string;
  unitAmount: number;
  wasPrice: number | null;
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

export function isOnlineCourse(value: unknown): value is OnlineCourse {
  return (
    isRecord(value) && typeof value.courseId === 'string' && typeof value.title === 'string' &&
    typeof value.url === 'string' && isImage(value.image) && typeof value.pricingId === 'string' &&
    isPence(value.unitAmount) && isOptionalPence(value.wasPrice)
  );
}
