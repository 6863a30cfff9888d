import type { CheckoutLine } from '../generated/CheckoutLine';
import type { Session } from '../generated/Session';
import type { SelectedCourse } from '../lib/basket-items';

const image = { url: '/media/x.svg', alt: '', width: 10, height: 10 };

export const session = (id: string, date: string, price: number): Session => ({
  id, start: `${date}T09:30:00`, end: `${date}T16:30:00`, date, price, seat_price: price, seats: 8, registrations: 3, held: 0,
  type: 'onsite', status: 'active',
});

/** An in-person course with two dates and a kit to choose. */
export const microneedling: CheckoutLine = {
  courseId: 'c-microneedling', title: 'Microneedling Course', url: '/courses/aesthetics/microneedling/', image,
  price: 79500, wasPrice: 99500, isPackage: false,
  entryRequirements: 'A Level 2 or 3 beauty qualification, or a healthcare background.',
  kit: { name: 'Microneedling starter kit', pricePounds: 95, worthPounds: 180, note: 'A pen, cartridges and serums.' },
  includeKit: false,
  sessions: [session('mn-2', '2027-01-12', 79500), session('mn-4', '2027-03-05', 75000)],
  sessionId: 'mn-2',
  notice: null,
};

/** A package without dates whose kit is only a note. */
export const injectablesPackage: CheckoutLine = {
  courseId: 'c-package', title: 'Complete Injectables Package', url: '/courses/packages/complete-injectables-package/',
  image, price: 249500, wasPrice: null, isPackage: true, entryRequirements: null,
  kit: { name: 'Injectables kit', pricePounds: null, worthPounds: null, note: 'Your starter kit is included.' },
  includeKit: false, sessions: [], sessionId: null, notice: null,
};

/** A cheaper course with a single date. */
export const dermaplaning: CheckoutLine = {
  courseId: 'c-dermaplaning', title: 'Dermaplaning Course', url: '/courses/aesthetics/dermaplaning/', image,
  price: 45000, wasPrice: null, isPackage: false, entryRequirements: null, kit: null, includeKit: false,
  sessions: [session('dp-1', '2027-02-03', 45000)], sessionId: 'dp-1', notice: null,
};

/** The basket item the course page stores for `line` on its chosen date. */
export function selected(line: CheckoutLine): SelectedCourse {
  const chosen = line.sessions.find((s) => s.id === line.sessionId);
  return {
    courseId: line.courseId, title: line.title, url: line.url, image, price: line.price, wasPrice: line.wasPrice,
    isPackage: line.isPackage, includeKit: line.includeKit,
    selectedEvent: chosen ? { id: chosen.id, date: chosen.date, type: chosen.type, price: chosen.price } : null,
  };
}
