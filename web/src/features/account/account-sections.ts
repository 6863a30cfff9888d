// The account area's parts (docs/product.md#account-area), each at its own address under /account/,
// in the order the account menu lists them.

export interface AccountSection {
  path: string;
  label: string;
}

export const ACCOUNT_SECTIONS = [
  { path: '/account/', label: 'Overview' },
  { path: '/account/bookings/', label: 'Bookings' },
  { path: '/account/online-courses/', label: 'Online courses' },
  { path: '/account/payments/', label: 'Payments' },
  { path: '/account/certificates/', label: 'Certificates' },
  { path: '/account/forms/', label: 'Forms' },
  { path: '/account/documents/', label: 'Documents' },
  { path: '/account/intake-call/', label: 'Intake call' },
  { path: '/account/profile/', label: 'Profile' },
] as const satisfies readonly AccountSection[];

export type AccountSectionPath = (typeof ACCOUNT_SECTIONS)[number]['path'];

/**
 * The part of the account a path shows, and what follows it (a form's id,
 * say); null for a path under /account/ that is none of them.
 */
export function sectionOf(pathname: string): { section: AccountSectionPath; rest: string } | null {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  if (path === '/account/') return { section: '/account/', rest: '' };
  const section = ACCOUNT_SECTIONS.find((s) => s.path !== '/account/' && path.startsWith(s.path));
  return section ? { section: section.path, rest: path.slice(section.path.length).replace(/\/$/, '') } : null;
}
