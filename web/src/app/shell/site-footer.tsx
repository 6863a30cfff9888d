import { lazy, Suspense, useEffect, useState } from 'react';
import type { SiteData } from '../../generated/SiteData';
import { FacebookIcon, InstagramIcon, TikTokIcon, YouTubeIcon } from '../../components/ui/icons';
import { useConsent } from '../../features/consent/consent-context';
import { toInternational } from '../../lib/phone';

// The newsletter form needs JavaScript to send, so it loads after the page
// has hydrated: the footer is on every page, and its first JavaScript stays
// within the budget.
const NewsletterForm = lazy(() => import('../../features/newsletter/newsletter-form').then(({ NewsletterForm }) => ({ default: NewsletterForm })));

function FooterNewsletter() {
  const [hydrated, setHydrated] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- shown after hydration, so the first render matches the server's
  useEffect(() => setHydrated(true), []);
  return hydrated ? (
    <Suspense fallback={null}>
      <NewsletterForm />
    </Suspense>
  ) : null;
}

/** The 'email' conversion (docs/product.md#tracking): its code loads when an address is clicked. */
const trackEmail = () => void import('../../lib/conversions').then(({ trackConversion }) => trackConversion('email'));

function mapsUrl(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

export function SiteFooter({ site, year }: { site: SiteData; year: number }) {
  const { openSettings } = useConsent();
  const social = [
    { name: 'Facebook', url: site.socialMedia.facebook, Icon: FacebookIcon },
    { name: 'Instagram', url: site.socialMedia.instagram, Icon: InstagramIcon },
    { name: 'YouTube', url: site.socialMedia.youtube, Icon: YouTubeIcon },
    { name: 'TikTok', url: site.socialMedia.tiktok, Icon: TikTokIcon },
  ];
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section className="footer-about" aria-labelledby="footer-about-title">
          <h2 id="footer-about-title" className="visually-hidden">{`About ${site.title}`}</h2>
          <img src={site.logo.url} alt={site.title} width={site.logo.width} height={site.logo.height} className="footer-logo" loading="lazy" />
          <p>{site.footerText}</p>
          <address>
            <a href={mapsUrl(site.address)}>{site.address}</a>
            <br />
            <a href={`tel:${toInternational(site.phoneNumber)}`}>{site.phoneNumber}</a>
          </address>
          <ul className="footer-emails">
            <li>General enquiries: <a href={`mailto:${site.emailAddress}`} onClick={trackEmail}>{site.emailAddress}</a></li>
            <li>Student support: <a href={`mailto:${site.supportEmailAddress}`} onClick={trackEmail}>{site.supportEmailAddress}</a></li>
            <li>Models: <a href={`mailto:${site.modelsEmailAddress}`} onClick={trackEmail}>{site.modelsEmailAddress}</a></li>
          </ul>
          <ul className="social-links">
            {social.map(({ name, url, Icon }) => (
              <li key={name}>
                <a href={url} rel="noopener" target="_blank">
                  <Icon />
                  <span className="visually-hidden">{`${site.title} on ${name} (opens in a new tab)`}</span>
                </a>
              </li>
            ))}
          </ul>
          <p><a href={site.clinicUrl}>Visit our clinic</a></p>
        </section>
        {site.footerLinks.columns.map((column) => (
          <nav key={column.title} aria-label={column.title} className="footer-column">
            <h2>{column.title}</h2>
            <ul>
              {column.links.map((link) => <li key={link.link}><a href={link.link}>{link.text}</a></li>)}
            </ul>
          </nav>
        ))}
        <section className="footer-column">
          <FooterNewsletter />
        </section>
      </div>
      <div className="container">
        <ul className="partner-logos" aria-label="Accreditations and memberships">
          {site.footerLogos.map((logo) => (
            <li key={logo.title}>
              <img src={logo.file.url} alt={logo.title} width={160} height={64} loading="lazy" />
            </li>
          ))}
        </ul>
        <p className="copyright">{`© ${year} ${site.title}`}</p>
        <p><button type="button" className="link-button" onClick={openSettings}>Cookie settings</button></p>
      </div>
    </footer>
  );
}
