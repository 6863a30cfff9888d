import type { TrackingParams } from '../../lib/tracking';
import type { ConsentChoice } from './consent-storage';

// docs/product.md#tracking: each tracking event goes on to the tools of the categories the visitor
// granted, in each tool's own vocabulary. A tool that is not on the page is
// skipped; one that throws is logged and skipped.

interface Route {
  tool: string;
  category: keyof ConsentChoice;
  send(name: string, params: TrackingParams): void;
}

function emailOf(params: TrackingParams): string | null {
  return typeof params.email === 'string' && params.email !== '' ? params.email : null;
}

/** TikTok names the added items in `contents`. */
function tiktokAddToCart(params: TrackingParams): TrackingParams {
  const ids = Array.isArray(params.content_ids) ? params.content_ids : [];
  return {
    currency: params.currency,
    value: params.value,
    content_type: 'product',
    contents: ids.map((content_id: unknown) => ({ content_id, content_name: params.content_name })),
  };
}

/** The Meta pixel's standard event for a conversion label. */
function metaConversion(label: unknown): string {
  if (label === 'signup') return 'CompleteRegistration';
  if (label === 'enrol') return 'Purchase';
  return 'Lead';
}

const ROUTES: Route[] = [
  {
    tool: 'the tag manager',
    category: 'analytics',
    send(name, params) {
      // Google's terms forbid personal data such as an email address in analytics.
      const { email: _email, ...rest } = params;
      window.dataLayer?.push({ event: name, ...rest });
    },
  },
  {
    tool: 'Heap',
    category: 'analytics',
    send(name, params) {
      const email = emailOf(params);
      if (name === 'Added Course' || name === 'conversion') window.heap?.track(name, params);
      if (name === 'identify' && email) window.heap?.identify(email);
    },
  },
  {
    tool: 'the Meta pixel',
    category: 'marketing',
    send(name, params) {
      if (name === 'AddToCart') window.fbq?.('track', 'AddToCart', params);
      if (name === 'conversion') {
        const { conversion_label: label, currency, value } = params;
        window.fbq?.('track', metaConversion(label), label === 'enrol' ? { currency, value } : { content_name: label });
      }
    },
  },
  {
    tool: 'TikTok',
    category: 'marketing',
    send(name, params) {
      if (name === 'AddToCart') window.ttq?.track('AddToCart', tiktokAddToCart(params));
    },
  },
  {
    tool: 'Klaviyo',
    category: 'marketing',
    send(name, params) {
      const email = emailOf(params);
      if (name === 'Added Course') window.klaviyo?.push(['track', name, params]);
      if (name === 'identify' && email) window.klaviyo?.push(['identify', { email }]);
    },
  },
];

export function forwardEvent(name: string, params: TrackingParams, grants: ConsentChoice): void {
  for (const route of ROUTES) {
    if (!grants[route.category]) continue;
    try {
      route.send(name, params);
    } catch (error) {
      console.warn(`Tracking ${name} to ${route.tool} failed`, error);
    }
  }
}
