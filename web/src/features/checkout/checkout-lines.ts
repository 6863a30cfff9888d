import type { BasketResponse } from '../../generated/BasketResponse';
import type { CheckoutLine } from '../../generated/CheckoutLine';
import type { ChosenCourse } from '../../generated/ChosenCourse';
import type { Session } from '../../generated/Session';
import type { SelectedCourse } from '../../lib/basket-items';
import type { LinePrice } from '../../generated/LinePrice';
import { codeReaches } from './pricing';

// The selected courses (kept in the browser) joined with the catalogue's
// answer for them: the visitor's choices live in the basket, what the college
// sells now (sessions with a free seat, kits) comes from the server.

/** The catalogue's lines by course id. */
export type Catalogue = ReadonlyMap<string, CheckoutLine>;

export interface CheckoutRow {
  course: SelectedCourse;
  line: CheckoutLine;
}

/** What the visitor chose, as the server's calls take it. */
export function chosenCourses(courses: SelectedCourse[]): ChosenCourse[] {
  return courses.map((course) => ({
    courseId: course.courseId,
    sessionId: course.selectedEvent?.id ?? null,
    includeKit: course.includeKit,
  }));
}

export function withSession(course: SelectedCourse, session: Session): SelectedCourse {
  return {
    ...course,
    price: session.price,
    selectedEvent: { id: session.id, date: session.date, type: session.type, price: session.price },
  };
}

function fromLine(line: CheckoutLine): SelectedCourse {
  const session = line.sessions.find((s) => s.id === line.sessionId);
  const course: SelectedCourse = {
    courseId: line.courseId, title: line.title, url: line.url, image: line.image, price: line.price,
    wasPrice: line.wasPrice, isPackage: line.isPackage, includeKit: line.includeKit, selectedEvent: null,
  };
  return session ? withSession(course, session) : course;
}

/**
 * The basket as the catalogue sells it now, with what changed in words. The
 * answer's lines are the courses asked about, in order, without the removed.
 */
export function applyCatalogue(
  courses: SelectedCourse[],
  answer: Pick<BasketResponse, 'lines' | 'removed'>,
): { courses: SelectedCourse[]; catalogue: Catalogue; notices: string[] } {
  const removed = new Set(answer.removed);
  const kept = courses.filter((course) => !removed.has(course.courseId));
  if (kept.length !== answer.lines.length) throw new Error('The basket answer does not match the selected courses');
  const notices = [
    ...courses
      .filter((course) => removed.has(course.courseId))
      .map((course) => `${course.title} is no longer available and has been removed from your basket.`),
    ...answer.lines.flatMap((line) => (line.notice ? [`${line.title}: ${line.notice}`] : [])),
  ];
  return {
    courses: answer.lines.map(fromLine),
    catalogue: new Map(answer.lines.map((line) => [line.courseId, line])),
    notices,
  };
}

export function checkoutRows(courses: SelectedCourse[], catalogue: Catalogue): CheckoutRow[] {
  return courses.flatMap((course) => {
    const line = catalogue.get(course.courseId);
    return line ? [{ course, line }] : [];
  });
}

/**
 * The row as pricing.ts prices it: the kit counts only when it is a priced
 * choice that was taken, and the discount only when its code, limited to
 * `codeCourses` (`null`: every course), reaches the course.
 */
export function linePrice({ course, line }: CheckoutRow, codeCourses: readonly string[] | null): LinePrice {
  const kitPounds = line.kit?.pricePounds ?? null;
  return {
    price: course.price, kit_pounds: course.includeKit ? kitPounds : null, code_applies: codeReaches(codeCourses, course.courseId),
  };
}

/** The first day of training among the chosen sessions (`YYYY-MM-DD`), if any has a date. */
export function firstTrainingDay(rows: CheckoutRow[]): string | null {
  const dates = rows.flatMap(({ course }) => (course.selectedEvent ? [course.selectedEvent.date] : []));
  return dates.length > 0 ? dates.reduce((first, date) => (date < first ? date : first)) : null;
}
