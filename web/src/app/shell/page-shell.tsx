import type { ReactNode } from 'react';
import { yearOf } from '../../lib/dates';
import { usePageData } from '../page-data';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { SEARCH_ENGINE_LINKS } from './links';
import { ShellPart } from './shell-part';

export function PageShell({ children }: { children: ReactNode }) {
  const { envelope, loading } = usePageData();
  const { site, nav } = envelope;
  const year = yearOf(envelope.now);
  return (
    <>
      <ShellPart name="header" inputs={[site, nav]}>
        <a className="skip-link" href="#main">Skip to main content</a>
        <aside aria-label="Announcements">
          <a href="/black-friday" className="promo-banner">
            Our biggest training offers are live: <strong>Save Up To 50%</strong>
          </a>
          <a href="/pathway-to-aesthetics/" className="mobile-bar">
            New to aesthetics? Start the Pathway to Aesthetics, levels 4 to 7
          </a>
        </aside>
        {site && <SiteHeader site={site} nav={nav} />}
      </ShellPart>
      <main id="main" tabIndex={-1} aria-busy={loading}>
        {children}
      </main>
      <ShellPart name="footer" inputs={[site, year]}>
        {site && <SiteFooter site={site} year={year} />}
        <div hidden>
          {SEARCH_ENGINE_LINKS.map((l) => <a key={l.link} href={l.link}>{l.text}</a>)}
        </div>
      </ShellPart>
    </>
  );
}
