import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import { goToAccountSaying } from './account-notice';
import { useAuth } from './auth-context';
import { useLinkToken } from './use-link-token';

const INCOMPLETE = 'This link is not complete. Please open the link in your email again, or sign in and we will send you a new one.';

/**
 * /verify-email/?token=…, the link of the sign-up mail (decision 009): the
 * token is sent once, as the page opens; it proves the email and signs the
 * browser in (§4: sign-up is followed by sign-in), and the account says so.
 * A link that expired or was used says how to get a new one: signing in.
 */
export function VerifyEmailPage({ page }: { page: AccountFormPage }) {
  const token = useLinkToken();
  const { verifyEmail } = useAuth();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  // A used token is refused: it goes once, also when React runs effects twice.
  const sent = useRef(false);

  useEffect(() => {
    if (token === undefined || sent.current) return;
    sent.current = true;
    if (token === null) {
      setProblem(INCOMPLETE);
      return;
    }
    verifyEmail(token).then(
      () => goToAccountSaying(navigate, 'Your email address is confirmed, and you are signed in.'),
      (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)),
    );
  }, [token, verifyEmail, navigate]);

  return (
    <div className="container account-form">
      <h1>{page.heading}</h1>
      <noscript>
        <p>Confirming your email address needs JavaScript. Please turn it on, or call us and we will help you.</p>
      </noscript>
      {problem === null ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" />
          Confirming your email address...
        </p>
      ) : (
        <>
          <p role="alert" className="form-error">{problem}</p>
          <p className="account-form-switch">
            <Link to="/sign-in/" className="button">Sign in</Link>
          </p>
        </>
      )}
    </div>
  );
}
