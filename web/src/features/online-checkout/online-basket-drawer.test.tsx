import { DIGITAL_CONTENT, TERMS } from '../../lib/consent-texts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '../../test/memory-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRACK_EVENT } from '../../lib/tracking';
import { jsonResponse, SLOW_DOWN, tooManyRequests } from '../../test/api-stub';
import { BasketProvider, useBasket } from '../../lib/basket';
import { ONLINE_COURSES_KEY, type OnlineCourse } from '../../lib/basket-items';
import { OnlineBasketDrawer } from './online-basket-drawer';

const image = { url: '/media/x.svg', alt: '', width: 10, height: 10 };
const ledUpsell = {
  title: 'LED Light Therapy Online Course',
  description: 'Add LED light therapy to your skin treatments.',
  cta: 'Add for £19.99',
  price_data: { currency: 'gbp', product: 'prod_led_online', unit_amount: 1999 },
};
const peels: OnlineCourse = {
  courseId: 'c1', title: 'Chemical Peels Online Course', url: '/courses/elearning/chemical-peels-online/', image,
  pricingId: 'price_peels', unitAmount: 19900, wasPrice: 29900, upsell: ledUpsell, upsellAdded: false,
};
const dermaplaning: OnlineCourse = {
  courseId: 'c2', title: 'Dermaplaning Online Course', url: '/courses/elearning/dermaplaning-online/', image,
  pricingId: 'price_dermaplaning', unitAmount: 14900, wasPrice: null, upsellAdded: false,
  upsell: {
    title: 'Microneedling Online Course', description: 'Build a collagen induction treatment.', cta: 'Add for £39.99',
    price_data: { currency: 'gbp', product: 'prod_microneedling_online', unit_amount: 3999 },
  },
};

function OpenBasket() {
  const { setOnlineBasket } = useBasket();
  return <button type="button" onClick={() => setOnlineBasket(true)}>Open basket</button>;
}

function renderDrawer(stored: unknown, path = '/courses/elearning/') {
  sessionStorage.setItem(ONLINE_COURSES_KEY, typeof stored === 'string' ? stored : JSON.stringify(stored));
  render(
    <MemoryRouter initialEntries={[path]}>
      <BasketProvider>
        <OpenBasket />
        <OnlineBasketDrawer />
      </BasketProvider>
    </MemoryRouter>,
  );
}

async function openDrawer() {
  await userEvent.click(screen.getByRole('button', { name: 'Open basket' }));
  return screen.getByRole('dialog', { name: 'Order Summary' });
}

const storedCourses = () => JSON.parse(sessionStorage.getItem(ONLINE_COURSES_KEY) ?? 'null') as OnlineCourse[] | null;
const totalOf = (drawer: HTMLElement) => within(drawer).getByText('Total').parentElement!.textContent;

/** Ticks the drawer's two boxes: the request to start at once, and the terms. */
async function agreeInDrawer(drawer: HTMLElement) {
  await userEvent.click(within(drawer).getByRole('checkbox', { name: DIGITAL_CONTENT }));
  await userEvent.click(within(drawer).getByRole('checkbox', { name: TERMS }));
}

describe('OnlineBasketDrawer', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists each course with its price, Was price, details link and remove button', async () => {
    renderDrawer([peels, dermaplaning]);
    const drawer = await openDrawer();
    expect(within(drawer).getByRole('heading', { name: peels.title })).toBeInTheDocument();
    expect(within(drawer).getByRole('heading', { name: dermaplaning.title })).toBeInTheDocument();
    expect(within(drawer).getByText('Was £299.00')).toBeInTheDocument();
    expect(within(drawer).getByText('£199.00', { exact: false })).toBeInTheDocument();
    expect(within(drawer).getAllByRole('link', { name: 'View Course Details' })[0]!.getAttribute('href')).toBe(peels.url);
    expect(totalOf(drawer)).toBe('Total£348.00');
    expect(within(drawer).getByText('We accept Visa, Mastercard, American Express, Apple Pay, Google Pay and Klarna.')).toBeInTheDocument();

    await userEvent.click(within(drawer).getByRole('button', { name: `Remove ${peels.title}` }));
    expect(within(drawer).queryByRole('heading', { name: peels.title })).toBeNull();
    expect(storedCourses()).toEqual([dermaplaning]);
  });

  it('closes from the View Course Details link', async () => {
    renderDrawer([peels]);
    const drawer = await openDrawer();
    await userEvent.click(within(drawer).getByRole('link', { name: 'View Course Details' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('adds and removes an upsell, changing its button and the total', async () => {
    renderDrawer([peels, dermaplaning]);
    const drawer = await openDrawer();
    expect(within(drawer).getByText(ledUpsell.description)).toBeInTheDocument();
    const offer = within(drawer).getByRole('button', { name: 'Add for £19.99 (add-on: LED Light Therapy Online Course)' });
    expect(offer.getAttribute('aria-pressed')).toBe('false');

    await userEvent.click(offer);
    expect(offer.getAttribute('aria-pressed')).toBe('true');
    expect(within(drawer).getByRole('button', { name: 'Remove (add-on: LED Light Therapy Online Course)' })).toBe(offer);
    expect(totalOf(drawer)).toBe('Total£367.99');
    expect(storedCourses()![0]!.upsellAdded).toBe(true);

    await userEvent.click(offer);
    expect(offer.textContent).toBe('Add for £19.99 (add-on: LED Light Therapy Online Course)');
    expect(totalOf(drawer)).toBe('Total£348.00');
    expect(storedCourses()![0]!.upsellAdded).toBe(false);
  });

  it('has no Book Now when the basket is empty, and Continue browsing closes it', async () => {
    renderDrawer([]);
    const drawer = await openDrawer();
    expect(within(drawer).getByText('You have not added any online courses to your basket')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Book Now' })).toBeNull();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Continue browsing' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Book Now fires begin_checkout, posts the basket and goes to the payment page', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    let answer: (response: Response) => void = () => {};
    const fetch = vi.spyOn(globalThis, 'fetch').mockReturnValue(new Promise<Response>((resolve) => { answer = resolve; }));
    const tracked: { name: string; params: Record<string, unknown>; fetchCalls: number }[] = [];
    const onTrack = (event: Event) => tracked.push({ ...(event as CustomEvent<{ name: string; params: Record<string, unknown> }>).detail, fetchCalls: fetch.mock.calls.length });
    window.addEventListener(TRACK_EVENT, onTrack);

    renderDrawer([{ ...peels, upsellAdded: true }, dermaplaning]);
    const drawer = await openDrawer();
    await agreeInDrawer(drawer);
    await userEvent.click(within(drawer).getByRole('button', { name: 'Book Now' }));
    window.removeEventListener(TRACK_EVENT, onTrack);

    expect(tracked).toEqual([{
      name: 'begin_checkout',
      fetchCalls: 0,
      params: {
        currency: 'GBP',
        value: 367.99,
        items: [
          { item_id: 'price_peels', item_name: peels.title, price: 199 },
          { item_id: 'prod_led_online', item_name: ledUpsell.title, price: 19.99 },
          { item_id: 'price_dermaplaning', item_name: dermaplaning.title, price: 149 },
        ],
      },
    }]);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/e-learning/create-checkout');
    expect(init!.method).toBe('POST');
    expect(JSON.parse(init!.body as string)).toEqual({
      priceIds: ['price_peels', 'price_dermaplaning'],
      additional: [{ currency: 'gbp', product: 'prod_led_online', unit_amount: 1999 }],
      agreed: { version: '2026-11-26', terms: true, digitalContent: true, entryRequirements: [] },
    });

    const processing = within(drawer).getByRole('button', { name: 'Processing' });
    expect(processing.getAttribute('aria-disabled')).toBe('true');
    await userEvent.click(processing);
    expect(fetch).toHaveBeenCalledOnce();
    expect(within(drawer).getByRole('status').textContent).toBe('Taking you to the secure payment page');

    answer(jsonResponse(200, { url: 'https://pay.example/checkout/cs_1' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/checkout/cs_1'));
  });

  it('asks for the request to start at once and the terms before Book Now goes anywhere', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderDrawer([peels]);
    const drawer = await openDrawer();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Book Now' }));
    const startNow = within(drawer).getByRole('checkbox', { name: DIGITAL_CONTENT });
    expect(startNow).toHaveFocus();
    expect(startNow).toHaveAccessibleDescription('Please confirm you want access straight away to continue');
    expect(within(drawer).getByRole('checkbox', { name: TERMS })).toHaveAccessibleDescription('Please accept the terms and conditions to continue');
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.click(startNow);
    expect(startNow).not.toHaveAccessibleDescription();
  });

  it('keeps the buyer in the drawer with a message when the checkout cannot start', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(502, { error: { code: 'payment_provider', message: 'The payment provider is unavailable.' } }),
    );
    renderDrawer([peels]);
    const drawer = await openDrawer();
    await agreeInDrawer(drawer);
    await userEvent.click(within(drawer).getByRole('button', { name: 'Book Now' }));

    expect((await within(drawer).findByRole('alert')).textContent).toBe("We couldn't start the payment. Please try again.");
    expect(within(drawer).getByRole('button', { name: 'Book Now' }).getAttribute('aria-disabled')).toBe('false');
    expect(within(drawer).getByRole('heading', { name: peels.title })).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith('Reported error', expect.any(Error), expect.objectContaining({ action: 'create online checkout' }));
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows the server’s message when it asks to slow down', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('location', { ...window.location, assign: vi.fn() });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => tooManyRequests());
    renderDrawer([peels]);
    const drawer = await openDrawer();
    await agreeInDrawer(drawer);
    await userEvent.click(within(drawer).getByRole('button', { name: 'Book Now' }));
    expect((await within(drawer).findByRole('alert')).textContent).toBe(SLOW_DOWN);
  });

  it('discards stored courses of an older shape or corrupt data', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { upsell: _upsell, upsellAdded: _added, ...olderShape } = dermaplaning;
    renderDrawer([olderShape, peels, { ...peels, url: '/x/', upsell: null, upsellAdded: true }, { url: 7 }]);
    const drawer = await openDrawer();
    expect(within(drawer).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([peels.title]);
  });

  it('shows an empty basket when storage holds no list', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderDrawer('{broken');
    const drawer = await openDrawer();
    expect(within(drawer).getByText('You have not added any online courses to your basket')).toBeInTheDocument();
    expect(sessionStorage.getItem(ONLINE_COURSES_KEY)).toBeNull();
  });

  it('opens by itself with the basket intact when the buyer cancels on the payment page', async () => {
    renderDrawer([peels], '/courses/elearning/?checkout=cancelled');
    const drawer = await screen.findByRole('dialog', { name: 'Order Summary' });
    expect(within(drawer).getByText('Payment cancelled — nothing was charged.')).toBeInTheDocument();
    expect(within(drawer).getByRole('heading', { name: peels.title })).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Book Now' })).toBeInTheDocument();
  });

  it('stays closed on other pages', () => {
    renderDrawer([peels], '/courses/elearning/?checkout=done');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
