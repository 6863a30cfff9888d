import type { Access } from '../generated/Access';
import { formatLongDate } from './dates';

// Decision 025: a student's access to an online course runs from payment to
// a last London day, unless the college withdraws it. The course player and
// the account say where it stands in the same words.

/** Where access stands, in a line: 'Access until Wednesday 10 March 2027'. */
export function accessLine(access: Access): string {
  switch (access.state) {
    case 'active':
      return `Access until ${formatLongDate(access.until)}`;
    case 'expired':
      return `Access ended on ${formatLongDate(access.ended)}`;
    case 'revoked':
      return 'No longer available';
    case 'notStarted':
      return `Opens on ${formatLongDate(access.opens)}`;
  }
}
