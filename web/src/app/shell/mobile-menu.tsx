import { useEffect, useEffectEvent, useState } from 'react';
import { useLocation } from '../../lib/router';
import type { Navigation } from '../../generated/Navigation';
import type { SiteData } from '../../generated/SiteData';
import { CloseIcon } from '../../components/ui/icons';
import { useModal } from '../../components/ui/use-modal';
import { toInternational } from '../../lib/phone';
import { ACADEMY_LINKS, TRAINING_LINKS } from './links';

/** The slide-in menu of small screens, mounted while it is open. */
export function MobileMenu({ onClose, site, nav }: { onClose: () => void; site: SiteData; nav: Navigation }) {
  const ref = useModal(true, onClose);
  const { pathname } = useLocation();
  // Following a link closes the menu.
  const [openedOn] = useState(pathname);
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (pathname !== openedOn) close();
  }, [pathname, openedOn]);

  return (
    <div className="overlay">
      <div ref={ref} className="slide-in" role="dialog" aria-modal="true" aria-labelledby="mobile-menu-title">
        <div className="slide-in-head">
          <h2 id="mobile-menu-title">Menu</h2>
          <button type="button" className="icon-button" onClick={onClose}>
            <CloseIcon />
            <span className="visually-hidden">Close menu</span>
          </button>
        </div>
        <nav aria-label="Mobile">
          <h3>Courses</h3>
          <ul className="slide-in-list">
            <li><a href="/courses/">All courses</a></li>
            {nav.sections.map((section) => (
              <li key={section.slug}><a href={section.url}>{section.title}</a></li>
            ))}
          </ul>
          <h3>Training</h3>
          <ul className="slide-in-list">
            {TRAINING_LINKS.map((l) => <li key={l.link}><a href={l.link}>{l.text}</a></li>)}
          </ul>
          <h3>Academy</h3>
          <ul className="slide-in-list">
            {ACADEMY_LINKS.map((l) => <li key={l.link}><a href={l.link}>{l.text}</a></li>)}
          </ul>
        </nav>
        <p className="slide-in-contact">
          <a href={`tel:${toInternational(site.phoneNumber)}`}>{`Call ${site.phoneNumber}`}</a>
          <a href="/request-a-callback/">Request a callback</a>
        </p>
      </div>
    </div>
  );
}
