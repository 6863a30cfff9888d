import type { ReactNode } from 'react';

/** The sign-in and set-up pages: no nav, nobody signed in yet. */
export function SignedOutPage({ children }: { children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className="admin-main admin-narrow">
      <p className="admin-brand">Enrol back office</p>
      {children}
    </main>
  );
}
