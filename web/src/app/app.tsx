import { useEffect } from 'react';
import type { PageEnvelope } from '../generated/PageEnvelope';
import { AuthProvider } from '../lib/auth';
import { BasketProvider } from '../lib/basket';
import { OnlineBasketDrawer } from '../features/online-checkout/online-basket-drawer';
import { ConsentBanner } from '../features/consent/consent-banner';
import { ConsentProvider } from '../features/consent/consent-context';
import { AnchorNavigation } from './anchor-navigation';
import { PageDataProvider, usePageData } from './page-data';
import { PageShell } from './shell/page-shell';
import { PageView } from './page-view';

function CurrentPage() {
  const { envelope } = usePageData();
  return <PageView envelope={envelope} />;
}

/** Marks the document once React has taken over the server's HTML. */
function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

/** The whole site; the router around it differs between server and browser. */
export function App({ initial }: { initial: PageEnvelope }) {
  return (
    <ConsentProvider>
      <PageDataProvider initial={initial}>
        <AuthProvider>
          <BasketProvider>
            <PageShell>
              <CurrentPage />
            </PageShell>
            <OnlineBasketDrawer />
            <AnchorNavigation />
            <HydrationMark />
            <ConsentBanner />
          </BasketProvider>
        </AuthProvider>
      </PageDataProvider>
    </ConsentProvider>
  );
}
