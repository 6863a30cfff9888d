import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from './lib/router';
import { App } from './app/app';
import { RouteTable, type RouteModule } from './app/route-table';
import type { PageEnvelope } from './generated/PageEnvelope';
import { inSandboxedPreview, openLinksThroughTheBackOffice } from './lib/preview-frame';
import { startErrorReporting } from './lib/start-error-reporting';
// The styles, by area, in this order: a later file may build on an earlier one.
import './app/styles/base.css';
import './app/styles/header.css';
import './app/styles/listings.css';
import './app/styles/forms.css';
import './app/styles/pages.css';
import './app/styles/footer.css';
import './app/styles/checkout.css';
import './app/styles/account.css';
import './app/styles/learning.css';
import './app/styles/consent.css';

// One chunk per page kind (decision 012), loaded when a page of its kind is
// first shown. The server's page names this page's chunk in a modulepreload.
const routes = new RouteTable(import.meta.glob<RouteModule>('./app/routes/*.tsx'));

const data = document.getElementById('__ENROL_DATA__')?.textContent;
const root = document.getElementById('root');
if (data && root) {
  const initial = JSON.parse(data) as PageEnvelope;
  document.documentElement.dataset.status = String(initial.status);
  startErrorReporting();
  if (inSandboxedPreview()) openLinksThroughTheBackOffice();
  // The page's own module first, so the first render is the server's HTML:
  // no hydration mismatch, no fallback in between. Hydrated as a transition,
  // so React yields between short tasks instead of blocking the page
  // (decision 043).
  routes.load(initial.page.kind).then(
    () =>
      startTransition(() => {
        hydrateRoot(
          root,
          <StrictMode>
            <BrowserRouter>
              <App initial={initial} routes={routes} />
            </BrowserRouter>
          </StrictMode>,
          {
            onRecoverableError: (error) => console.error('Hydration', error),
          },
        );
      }),
    (error: unknown) => console.error('The page could not start', error),
  );
}
