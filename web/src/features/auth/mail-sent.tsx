import { useEffect, useRef, type ReactNode } from 'react';

// Decisions 008 and 009: sign-up and a forgotten password end in a mailed
// link. What the page says then is the same for every email, so it never
// tells whether the address has an account.

/**
 * In place of the form that mailed a link: where it went (`children`), where
 * to look for it, then `footer`. Focus moves here, so the change is heard.
 */
export function MailSent({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="container account-form">
      <h1 ref={heading} tabIndex={-1}>Check your email</h1>
      {children}
      <p className="form-note">It can take a few minutes to arrive. If it does not, please look in your junk or spam folder.</p>
      {footer}
    </div>
  );
}
