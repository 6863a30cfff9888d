import { lazy, Suspense, useState } from 'react';
import type { Navigation } from '../../generated/Navigation';
import type { SiteData } from '../../generated/SiteData';
import { AccountIcon, MenuIcon, PhoneIcon, SearchIcon } from '../../components/ui/icons';
import { toInternational } from '../../lib/phone';
import { useAuth } from '../../lib/auth';
import { BasketButton } from './basket-button';
import { MenuDisclosure } from './menu-disclosure';
import { ACADEMY_LINKS, TRAINING_LINKS } from './links';

// The search and the small-screen menu load the first time they open (decision 012).
const SearchOverlay = lazy(() => import('../../features/search/search-overlay').then(({ SearchOverlay }) => ({ default: SearchOverlay })));
const MobileMenu = lazy(() => import('./mobile-menu').then(({ MobileMenu }) => ({ default: MobileMenu })));

export function SiteHeader({ site, nav }: { site: SiteData; nav: Navigation }) {
  const [searchOpen, setSearchOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  // Signed out until the session is known after hydration, as the server rendered it.
  const { user } = useAuth();

  return (
    <header className="site-header">
      <div className="header-bar container">
        {/* Low priority: the page's own picture comes first, and React hoists no preload of the logo into the page (decision 042). */}
        <a href="/" className="brand">
          <img src={site.logo.url} alt={site.title} width={site.logo.width} height={site.logo.height} className="brand-logo" fetchPriority="low" />
        </a>
        <nav aria-label="Main" className="main-nav">
          <ul className="menu">
            <MenuDisclosure label="Courses" wide link={<a href="/courses/" className="menu-link">Courses</a>}>
              <ul className="mega-sections">
                {nav.sections.map((section) => (
                  <li key={section.slug}>
                    <a href={section.url} className="mega-heading">{section.title}</a>
                    <ul>
                      {section.courses.slice(0, 6).map((course) => (
                        <li key={course.link}><a href={course.link}>{course.text}</a></li>
                      ))}
                      {section.courses.length > 6 && (
                        <li><a href={section.url} className="mega-more">{`All ${section.courses.length} in ${section.title}`}</a></li>
                      )}
                    </ul>
                  </li>
                ))}
              </ul>
            </MenuDisclosure>
            <MenuDisclosure label="Training" link={<a href="/training-course-calendar/" className="menu-link">Training</a>}>
              <ul>{TRAINING_LINKS.map((l) => <li key={l.link}><a href={l.link}>{l.text}</a></li>)}</ul>
            </MenuDisclosure>
            <MenuDisclosure label="Academy" link={<a href="/about/" className="menu-link">Academy</a>}>
              <ul>{ACADEMY_LINKS.map((l) => <li key={l.link}><a href={l.link}>{l.text}</a></li>)}</ul>
            </MenuDisclosure>
            <li className="menu-item"><a href="/contact/" className="menu-link">Contact</a></li>
          </ul>
        </nav>
        <div className="header-actions">
          <a href={`tel:${toInternational(site.phoneNumber)}`} className="header-phone">
            <PhoneIcon />
            <span className="phone-number">{site.phoneNumber}</span>
          </a>
          <a href="/request-a-callback/" className="callback-link">Request a callback</a>
          <button type="button" className="icon-button" onClick={() => setSearchOpen(true)} aria-haspopup="dialog">
            <SearchIcon />
            <span className="visually-hidden">Search courses and articles</span>
          </button>
          <a href={user ? '/account/' : '/sign-in/'} className="icon-button">
            <AccountIcon />
            <span className="visually-hidden">Your account</span>
          </a>
          <BasketButton />
          <button type="button" className="icon-button menu-button" onClick={() => setMenuOpen(true)} aria-haspopup="dialog" aria-expanded={menuOpen}>
            <MenuIcon />
            <span className="visually-hidden">Menu</span>
          </button>
        </div>
      </div>
      {searchOpen && (
        <Suspense fallback={null}>
          <SearchOverlay onClose={() => setSearchOpen(false)} />
        </Suspense>
      )}
      {menuOpen && (
        <Suspense fallback={null}>
          <MobileMenu onClose={() => setMenuOpen(false)} site={site} nav={nav} />
        </Suspense>
      )}
    </header>
  );
}
