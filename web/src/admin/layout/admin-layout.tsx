import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { CommandStatus } from '../components/command-status';
import { useCommand } from '../components/use-command';
import { ROLE_LABELS } from '../lib/labels';
import { sectionsFor } from '../lib/permissions';
import { useStaffAuth } from '../lib/staff-session';
import { paths } from '../paths';

/**
 * Every signed-in screen: a skip link, the header with who is signed in and
 * Sign out, the nav of the sections the role opens, and the screen. Signed
 * out (never signed in, or a 401 since), it sends to the sign-in page, which
 * comes back here after.
 */
export function AdminLayout() {
  const { staff, failed, retry, signOut } = useStaffAuth();
  const location = useLocation();
  const signingOut = useCommand();

  if (failed) {
    return (
      <main id="main" className="admin-main">
        <p className="refusal">We could not reach the server.</p>
        <button type="button" className="button" onClick={retry}>
          Try again
        </button>
      </main>
    );
  }
  if (staff === undefined) return <p role="status" className="admin-main">Loading the back office…</p>;
  if (staff === null) return <Navigate to={paths.signIn} replace state={{ from: location }} />;

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="admin-header no-print">
        <p className="admin-brand">Enrol back office</p>
        <div className="admin-who">
          <span>
            {staff.name} <span className="muted">({ROLE_LABELS[staff.role]})</span>
          </span>
          <Link to={paths.recoveryCodes}>Recovery codes</Link>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={signingOut.busy}
            onClick={() =>
              void signingOut.run(async () => {
                await signOut();
                return '';
              })
            }
          >
            Sign out
          </button>
        </div>
        <CommandStatus command={signingOut} />
      </header>
      <nav aria-label="Back office" className="admin-nav no-print">
        <ul>
          {sectionsFor(staff).map((section) => (
            <li key={section.path}>
              <NavLink to={section.path} end={section.path === paths.dashboard}>
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} className="admin-main">
        <Outlet />
      </main>
    </>
  );
}
