import { useState } from 'react';
import { Link } from 'react-router';
import type { Navigation } from '../../generated/Navigation';
import type { SiteData } from '../../generated/SiteData';
import { AccountIcon, MenuIcon, PhoneIcon, SearchIcon } from '../../components/ui/icons';
import { toInternational } from '../../lib/phone';
import { BasketButton } from '../../features/basket/basket-button';
import { SearchOverlay } from '../../features/search/search-overlay';
import { MenuDisclosure } from './menu-disclosure';
import { MobileMenu } from './mobile-menu';
import { ACADEMY_LINKS, TRAINING_LINKS } from './links';

export function SiteHeader({ site, nav }: { site: SiteData; nav: Navigation }) {
  const [searchOpen, setSearchOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);

  return (
    <header className="site-header">
      <div className="header-bar container">
        <Link to="/" className="brand">
          <img src={site.logo.url} alt={site.title} width={site.logo.width} height={site.logo.height} className="brand-logo" />
        </Link>
        <nav aria-label="Main" className="main-nav">
          <ul className="menu">
            <MenuDisclosure label="Courses" wide link={<Link to="/courses/" className="menu-link">Courses</Link>}>
              <ul className="mega-sections">
                {nav.sections.map((section) => (
                  <li key={section.slug}>
                    <Link to={section.url} className="mega-heading">{section.title}</Link>
                    <ul>
                      {section.courses.slice(0, 6).map((course) => (
                        <li key={course.link}><Link to={course.link}>{course.text}</Link></li>
                      ))}
                      {section.courses.length > 6 && (
                        <li><Link to={section.url} className="mega-more">{`All ${section.courses.length} ${section.title} courses`}</Link></li>
                      )}
                    </ul>
                  </li>
                ))}
              </ul>
            </MenuDisclosure>
            <MenuDisclosure label="Training" link={<Link to="/training-course-calendar/" className="menu-link">Training</Link>}>
              <ul>{TRAINING_LINKS.map((l) => <li key={l.link}><Link to={l.link}>{l.text}</Link></li>)}</ul>
            </MenuDisclosure>
            <MenuDisclosure label="Academy" link={<Link to="/about/" className="menu-link">Academy</Link>}>
              <ul>{ACADEMY_LINKS.map((l) => <li key={l.link}><Link to={l.link}>{l.text}</Link></li>)}</ul>
            </MenuDisclosure>
            <li className="menu-item"><Link to="/contact/" className="menu-link">Contact</Link></li>
          </ul>
        </nav>
        <div className="header-actions">
          <a href={`tel:${toInternational(site.phoneNumber)}`} className="header-phone">
            <PhoneIcon />
            <span className="phone-number">{site.phoneNumber}</span>
          </a>
          <Link to="/request-a-callback/" className="callback-link">Request a callback</Link>
          <button type="button" className="icon-button" onClick={() => setSearchOpen(true)} aria-haspopup="dialog">
            <SearchIcon />
            <span className="visually-hidden">Search courses and articles</span>
          </button>
          <Link to="/sign-in/" className="icon-button">
            <AccountIcon />
            <span className="visually-hidden">Your account</span>
          </Link>
          <BasketButton />
          <button type="button" className="icon-button menu-button" onClick={() => setMenuOpen(true)} aria-haspopup="dialog" aria-expanded={menuOpen}>
            <MenuIcon />
            <span className="visually-hidden">Menu</span>
          </button>
        </div>
      </div>
      <SearchOverlay open={searchOpen} onClose={() => setSearchOpen(false)} />
      <MobileMenu open={menuOpen} onClose={() => setMenuOpen(false)} site={site} nav={nav} />
    </header>
  );
}
