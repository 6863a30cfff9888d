import { paths } from '../paths';
import type { Permission, Staff } from './api-types';

// The browser only hides what the server would refuse (decision 017): the
// nav lists the sections the signed-in role's `permissions` open, and a
// screen opened without them says so instead of asking.

export function can(staff: Pick<Staff, 'permissions'>, permission: Permission): boolean {
  return staff.permissions.includes(permission);
}

export interface Section {
  label: string;
  path: string;
  /** Any one of these opens the section. */
  needs: readonly Permission[];
}

/**
 * The nav, in order, with the permission each section's API routes need
 * (`http::admin::ROUTES`). A tutor opens Sessions with `rosters` alone:
 * their own sessions and rosters.
 */
export const SECTIONS: readonly Section[] = [
  { label: 'Dashboard', path: paths.dashboard, needs: ['figures'] },
  { label: 'Sessions', path: paths.sessions, needs: ['sessions', 'rosters'] },
  { label: 'Orders', path: paths.orders, needs: ['orders'] },
  { label: 'Payment plans', path: paths.plans, needs: ['orders'] },
  { label: 'Codes', path: paths.codes, needs: ['codes'] },
  { label: 'Upsells', path: paths.upsells, needs: ['codes'] },
  { label: 'Enquiries', path: paths.enquiries, needs: ['enquiries'] },
  { label: 'Feedback', path: paths.feedback, needs: ['rosters'] },
  { label: 'Content', path: paths.content, needs: ['content'] },
  { label: 'Media', path: paths.media, needs: ['content'] },
  { label: 'Exports', path: paths.exports, needs: ['figures'] },
  { label: 'Staff', path: paths.staff, needs: ['manage_staff'] },
  { label: 'Audit log', path: paths.audit, needs: ['audit'] },
];

export function opens(staff: Pick<Staff, 'permissions'>, needs: readonly Permission[]): boolean {
  return needs.some((permission) => can(staff, permission));
}

export function sectionsFor(staff: Pick<Staff, 'permissions'>): Section[] {
  return SECTIONS.filter((section) => opens(staff, section.needs));
}
