import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { AccountData } from '../../generated/AccountData';
import type { AccountEnrollment } from '../../generated/AccountEnrollment';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import type { AuthUser } from '../../generated/AuthUser';
import type { EnrollmentStatus } from '../../generated/EnrollmentStatus';
import { ApiError, getJson } from '../../lib/api';
import { formatShortDate } from '../../lib/dates';
import { useRequest } from '../../lib/use-request';
import { formatMoney } from '../../lib/money';
import { paymentMethodLabel } from '../../lib/payment-methods';
import { useAccountNotice } from '../../lib/account-notice';
import { useAuth } from '../../lib/auth';
import { signInPathFor } from '../../lib/paths';
import { BookingTable } from '../../components/booking-table';

const ACCOUNT_DATA_PATH = '/api/account';

const STATUS_WORDS: Record<EnrollmentStatus, string> = {
  pending: 'Awaiting payment',
  deposit: 'Booking fee paid',
  completed: 'Paid in full',
  failed: 'Payment failed',
};

/** `GET /api/account`; null when the session ended meanwhile, which reads as signed out. */
function useAccountData() {
  return useRequest(
    ACCOUNT_DATA_PATH,
    (signal) =>
      getJson<AccountData>(ACCOUNT_DATA_PATH, signal).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }),
    { reportAs: 'load the account' },
  );
}

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

function Bookings({ enrollments }: { enrollments: AccountEnrollment[] }) {
  if (enrollments.length === 0) {
    return (
      <p>
        You have no bookings yet. <Link to="/courses/">Browse our courses</Link>
      </p>
    );
  }
  return enrollments.map((enrollment) => (
    <BookingTable
      key={enrollment.id}
      booking={enrollment}
      caption={
        <>
          {`Booked ${formatShortDate(enrollment.createdAt)} `}
          <span className={`booking-status booking-status-${enrollment.status}`}>{STATUS_WORDS[enrollment.status]}</span>
        </>
      }
    />
  ));
}

function AccountSections({ data }: { data: AccountData }) {
  const id = useId();
  return (
    <>
      <section aria-labelledby={`${id}-bookings`}>
        <h2 id={`${id}-bookings`}>Your bookings</h2>
        <Bookings enrollments={data.enrollments} />
      </section>
      <section aria-labelledby={`${id}-payments`}>
        <h2 id={`${id}-payments`}>Your payments</h2>
        {data.payments.length === 0 ? (
          <p>You have made no payments yet.</p>
        ) : (
          <table className="order-lines">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Method</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {data.payments.map((payment) => (
                <tr key={payment.id}>
                  <td>{formatShortDate(payment.createdAt)}</td>
                  <td>{paymentMethodLabel(payment.method)}</td>
                  <td>{formatMoney(payment.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby={`${id}-online`}>
        <h2 id={`${id}-online`}>Your online courses</h2>
        {data.onlineCourses.length === 0 ? (
          <p>
            You have no online courses yet. <Link to="/courses/elearning/">See our online courses</Link>
          </p>
        ) : (
          <ul className="account-online-courses">
            {data.onlineCourses.map((course) => (
              <li key={course.courseId}>
                {course.title} <span className="tag">{course.complete ? 'Completed' : 'In progress'}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function SignedIn({ user }: { user: AuthUser }) {
  const { signOut } = useAuth();
  const account = useAccountData();
  const [signingOut, setSigningOut] = useState(false);
  const [signOutFailed, setSignOutFailed] = useState(false);

  async function leave() {
    if (signingOut) return;
    setSigningOut(true);
    setSignOutFailed(false);
    if (!(await signOut())) {
      setSigningOut(false);
      setSignOutFailed(true);
    }
  }

  if (account.status === 'done' && account.data === null) return <SignedOut />;
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
      {account.status === 'loading' && <p role="status">Loading your bookings...</p>}
      {account.status === 'failed' && (
        <>
          <p role="alert" className="form-error">We could not load your account. Please check your connection and try again.</p>
          <button type="button" className="button" onClick={account.retry}>Try again</button>
        </>
      )}
      {account.status === 'done' && account.data && <AccountSections data={account.data} />}
    </>
  );
}

/**
 * §2 the account area (any path under /account/). The server's HTML is the
 * same for everyone; who is signed in is known only after hydration. A
 * mailed link that signed the browser in leaves a notice saying so.
 */
export function AccountPage({ page }: { page: AccountFormPage }) {
  const { loading, user } = useAuth();
  const notice = useAccountNotice();
  return (
    <div className="container account-page">
      <h1>{page.heading}</h1>
      {notice && <p role="status" className="account-notice">{notice}</p>}
      {loading ? (
        <p role="status">Checking whether you are signed in...</p>
      ) : user ? (
        <SignedIn key={user.sub} user={user} />
      ) : (
        <SignedOut />
      )}
    </div>
  );
}
