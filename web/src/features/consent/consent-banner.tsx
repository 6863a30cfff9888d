import { useEffect, useRef, useState, type FormEvent } from 'react';
import { bannerWanted, useConsent } from './consent-context';
import type { Consent, ConsentChoice } from './consent-storage';

function ManageChoices({ current, onSave }: { current: Consent; onSave: (choice: ConsentChoice) => void }) {
  const [analytics, setAnalytics] = useState(current.analytics);
  const [marketing, setMarketing] = useState(current.marketing);
  const first = useRef<HTMLInputElement>(null);

  useEffect(() => {
    first.current?.focus();
  }, []);

  function save(event: FormEvent) {
    event.preventDefault();
    onSave({ analytics, marketing });
  }

  return (
    <form className="consent-choices" onSubmit={save}>
      <h2 id="consent-title">Manage choices</h2>
      <div className="field checkbox">
        <input ref={first} id="consent-analytics" type="checkbox" checked={analytics} onChange={(event) => setAnalytics(event.target.checked)} aria-describedby="consent-analytics-use" />
        <div>
          <label htmlFor="consent-analytics">Analytics</label>
          <p id="consent-analytics-use" className="form-note">Tools such as Google Tag Manager, Heap and Microsoft Clarity show us which pages help and where booking gets stuck.</p>
        </div>
      </div>
      <div className="field checkbox">
        <input id="consent-marketing" type="checkbox" checked={marketing} onChange={(event) => setMarketing(event.target.checked)} aria-describedby="consent-marketing-use" />
        <div>
          <label htmlFor="consent-marketing">Marketing</label>
          <p id="consent-marketing-use" className="form-note">Meta, TikTok and Klaviyo measure our adverts and emails, and we remember which advert brought you here.</p>
        </div>
      </div>
      <p className="form-note">
        You can change these at any time with Cookie settings at the foot of every page. Turning a choice off stops us sending those tools anything more straight away, and they are not loaded again from your next page load.
      </p>
      <button type="submit" className="button">Save choices</button>
    </form>
  );
}

/**
 * UK PECR: asks a visitor who has not chosen yet, and shows the choices
 * again from the footer. Rendered only in the browser, after the stored
 * choice is read, so it is never part of the server's HTML.
 */
export function ConsentBanner() {
  const state = useConsent();
  const { consent, settingsOpen, choose } = state;
  const [managing, setManaging] = useState(false);
  if (!bannerWanted(state) || consent === null) return null;

  function decide(choice: ConsentChoice) {
    choose(choice);
    setManaging(false);
  }

  return (
    <section className="consent-banner" aria-labelledby="consent-title">
      <div className="container">
        {managing || settingsOpen ? (
          <ManageChoices current={consent} onSave={decide} />
        ) : (
          <>
            <h2 id="consent-title">Cookies on this site</h2>
            <p>
              We use essential storage for your basket and checkout. With your permission we would also use analytics tools to see how the site is used, and marketing tools to measure our adverts. Nothing optional runs until you choose.{' '}
              <a href="/privacy-policy/">Read our privacy policy</a>
            </p>
            <div className="consent-actions">
              <button type="button" className="button" onClick={() => decide({ analytics: true, marketing: true })}>Accept all</button>
              <button type="button" className="button" onClick={() => decide({ analytics: false, marketing: false })}>Reject all</button>
              <button type="button" className="button" onClick={() => setManaging(true)}>Manage choices</button>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
