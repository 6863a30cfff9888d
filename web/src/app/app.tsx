import { useEffect } from 'react';
import type { PageEnvelope } from '../generated/PageEnvelope';
import { AuthProvider } from '../lib/auth';
import { BasketProvider } from '../lib/basket';
import { OnlineBasket } from '../features/online-checkout/online-basket';
import { ConsentPrompt } from '../features/consent/consent-prompt';
import { ConsentProvider } from '../features/consent/consent-context';
import { AnchorNavigation } from './anchor-navigation';
import { CurrentPage, PageDataProvider } from './page-data';
import { RouteTableContext, type RouteTable } from './route-table';
import { PageShell } from './shell/page-shell';

/** Marks the document once React has taken over the server's HTML. */
function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

/**
 * The whole site; the router around it, and whether the route modules are
 * loaded already (server) or one by one (browser), differ between the two.
 */
export function App({ initial, routes }: { initial: PageEnvelope; routes: RouteTable }) {
  return (
    <RouteTableContext value={routes}>
      <ConsentProvider>
        <PageDataProvider initial={initial}>
          <AuthProvider>
            <BasketProvider>
              <PageShell>
                <CurrentPage />
              </PageShell>
              <OnlineBasket />
              <AnchorNavigation />
              <HydrationMark />
              <ConsentPrompt />
            </BasketProvider>
          </AuthProvider>
        </PageDataProvider>
      </ConsentProvider>
    </RouteTableContext>
  );
}
