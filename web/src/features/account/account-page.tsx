import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, useLocation } from '../../lib/router';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import type { AuthUser } from '../../generated/AuthUser';
import { useAccountNotice } from '../../lib/account-notice';
import { useAuth } from '../../lib/auth';
import { useBasket } from '../../lib/basket';
import { signInPathFor } from '../../lib/paths';
import { ACCOUNT_SECTIONS, sectionOf, type AccountSectionPath } from './account-sections';
import { Loaded } from './loaded';
import { UnconfirmedEmail } from './unconfirmed-email';
import { useAccountData } from './use-account-data';

// Each part loads when first shown: the account's first load stays small.
const Bookings = lazy(() => import('./sections/bookings').then((m) => ({ default: m.Bookings })));
const Certificates = lazy(() => import('./sections/certificates').then((m) => ({ default: m.Certificates })));
const Documents = lazy(() => import('./sections/documents').then((m) => ({ default: m.Documents })));
const Forms = lazy(() => import('./sections/forms').then((m) => ({ default: m.Forms })));
const IntakeCallSection = lazy(() => import('./sections/intake-call').then((m) => ({ default: m.IntakeCallSection })));
const OnlineCourses = lazy(() => import('./sections/online-courses').then((m) => ({ default: m.OnlineCourses })));
const Overview = lazy(() => import('./sections/overview').then((m) => ({ default: m.Overview })));
const Payments = lazy(() => import('./sections/payments').then((m) => ({ default: m.Payments })));
const Profile = lazy(() => import('./sections/profile').then((m) => ({ default: m.Profile })));

function SignedOut() {
  const { pathname } = useLocation();
  return (
    <>
      <p>Sign in to see your bookings, payments and online courses.</p>
      <p className="account-actions">
        <Link to={signInPathFor(pathname)} className="button">Sign in</Link>
        <Link to="/sign-up/">Create an account</Link>
      </p>
    </>
  );
}

/**
 * The account menu: every part, the current one marked. On a phone it is
 * one row that scrolls sideways, so the part chosen stays in view above
 * the fold; the current part is brought into the row.
 */
function AccountMenu({ current }: { current: AccountSectionPath | null }) {
  const row = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const list = row.current;
    const link = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (list && link && list.scrollWidth > list.clientWidth) list.scrollLeft = link.offsetLeft - (list.clientWidth - link.offsetWidth) / 2;
  }, [current]);
  return (
    <nav aria-label="Your account" className="account-menu">
      <ul ref={row}>
        {ACCOUNT_SECTIONS.map((section) => (
          <li key={section.path}>
            <Link to={section.path} aria-current={section.path === current ? 'page' : undefined}>{section.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The part of the account the address names. */
function Section({ user, venue, today }: { user: AuthUser; venue: string; today: string }) {
  const { pathname } = useLocation();
  const found = sectionOf(pathname);
  const account = useAccountData();
  const id = useId();
  if (account.status === 'done' && account.data === null) return <SignedOut />;
  const label = ACCOUNT_SECTIONS.find((s) => s.path === found?.section)?.label;
  const body = () => {
    switch (found?.section) {
      case '/account/bookings/':
        return <Loaded request={account} what="your bookings">{(data) => data && <Bookings data={data} onChanged={account.retry} today={today} />}</Loaded>;
      case '/account/online-courses/':
        return <Loaded request={account} what="your online courses">{(data) => data && <OnlineCourses data={data} />}</Loaded>;
      case '/account/payments/':
        return <Loaded request={account} what="your payments">{(data) => data && <Payments data={data} />}</Loaded>;
      case '/account/certificates/':
        return <Certificates />;
      case '/account/forms/':
        return <Forms formId={found.rest} />;
      case '/account/documents/':
        return <Documents />;
      case '/account/intake-call/':
        return <IntakeCallSection />;
      case '/account/profile/':
        return <Profile user={user} />;
      case '/account/':
        return <Loaded request={account} what="your account">{(data) => data && <Overview data={data} venue={venue} today={today} />}</Loaded>;
      default:
        return <p>This part of your account does not exist. Choose one from the menu.</p>;
    }
  };
  return (
    <>
      <AccountMenu current={found?.section ?? null} />
      <section aria-labelledby={`${id}-section`} className="account-section">
        <h2 id={`${id}-section`}>{label ?? 'Not found'}</h2>
        <Suspense fallback={<p role="status">{`Loading your ${(label ?? 'account').toLowerCase()}...`}</p>}>{body()}</Suspense>
      </section>
    </>
  );
}

function SignedIn({ user, venue, today }: { user: AuthUser; venue: string; today: string }) {
  const { signOut } = useAuth();
  const { emptyBaskets } = useBasket();
  const [signingOut, setSigningOut] = useState(false);
  const [signOutFailed, setSignOutFailed] = useState(false);

  async function leave() {
    if (signingOut) return;
    // The account's parts go first, so their reads are stopped before the
    // session ends, not answered "signed out" after it.
    flushSync(() => {
      setSigningOut(true);
      setSignOutFailed(false);
    });
    if (await signOut()) {
      // Sign-out clears all state, the baskets too.
      emptyBaskets();
    } else {
      setSigningOut(false);
      setSignOutFailed(true);
    }
  }

  return (
    <>
      <div className="account-who">
        <p className="account-name">{`${user.given_name} ${user.family_name}`}</p>
        <p>{user.email}</p>
        <button type="button" className="button button-secondary" aria-disabled={signingOut} onClick={() => void leave()}>
          {signingOut ? 'Signing out...' : 'Sign out'}
        </button>
        {signOutFailed && <p role="alert" className="form-error">We could not sign you out. Please try again.</p>}
      </div>
      {!user.email_verified && <UnconfirmedEmail email={user.email} />}
      {!signingOut && <Section user={user} venue={venue} today={today} />}
    </>
  );
}

/**
 * The account area (any path under /account/), one part per address.
 * The server's HTML is the same for everyone; who is signed in is known
 * only after hydration. A mailed link that signed the browser in leaves a
 * notice saying so. `venue` is the academy's address, where sessions on
 * site take place.
 */
/** `today`: the London day, which says whether a balance is due now. */
export function AccountPage({ page, venue = '', today }: { page: AccountFormPage; venue?: string; today: string }) {
  const { loading, user } = useAuth();
  const notice = useAccountNotice();
  return (
    <div className="container account-page">
      <h1>{page.heading}</h1>
      {notice && <p role="status" className="account-notice">{notice}</p>}
      {loading ? (
        <p role="status">Checking whether you are signed in...</p>
      ) : user ? (
        <SignedIn key={user.sub} user={user} venue={venue} today={today} />
      ) : (
        <SignedOut />
      )}
    </div>
  );
}
