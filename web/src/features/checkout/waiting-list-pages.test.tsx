import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Pages } from '../../test/memory-router';
import { describe, expect, it } from 'vitest';
import type { WaitingListClaimPage as ClaimData } from '../../generated/WaitingListClaimPage';
import { BasketProvider } from '../../lib/basket';
import { SELECTED_COURSES_KEY } from '../../lib/basket-items';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { ORDER_ID_KEY } from './order-id';
import { WaitingListClaimPage, WaitingListConfirmPage, WaitingListLeavePage } from './waiting-list-pages';

const path = '/waiting-list/claim/?token=ab12';
const open: ClaimData = {
  state: 'open',
  expiresAt: '2027-01-08T10:00:00',
  seat: {
    courseId: 'chemical-peels', title: 'Chemical Peels Course', url: '/courses/aesthetics/chemical-peels/',
    image: { url: '/media/peels.svg', alt: 'A peel', width: 800, height: 600 }, price: 69500, wasPrice: null, isPackage: false,
    sessionId: 'cp-2', date: '2027-01-12', sessionType: 'onsite',
  },
};

function renderClaim(page: ClaimData) {
  render(
    <BasketProvider>
      <MemoryRouter initialEntries={[path]}>
        <Pages pages={{ '/waiting-list/claim/': <WaitingListClaimPage page={page} path={path} />, '/checkout/': <h1>Checkout</h1> }} />
      </MemoryRouter>
    </BasketProvider>,
  );
}

describe('the claim page', () => {
  it('claims the seat once, puts it in the basket with its booking and goes to the checkout', async () => {
    const api = stubApi({ 'POST /api/waiting-list/claim': () => jsonResponse(200, { orderId: 'order-9' }) });
    renderClaim(open);
    expect(screen.getByRole('heading', { level: 1, name: 'A seat is free for you' })).toBeInTheDocument();
    expect(screen.getByText('We are keeping it for you until Friday 8th January at 10:00.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Claim my seat and book' }));
    expect(await screen.findByRole('heading', { name: 'Checkout' })).toBeInTheDocument();
    expect(api.calls[0]?.body).toEqual({ token: 'ab12' });
    expect(localStorage.getItem(ORDER_ID_KEY)).toBe('order-9');
    const basket = JSON.parse(sessionStorage.getItem(SELECTED_COURSES_KEY) ?? '[]') as { selectedEvent: { id: string } }[];
    expect(basket.map((course) => course.selectedEvent.id)).toEqual(['cp-2']);
  });

  it('gives the place up for the next person', async () => {
    const api = stubApi({ 'POST /api/waiting-list/leave': () => jsonResponse(200, { left: true }) });
    renderClaim(open);
    await userEvent.click(screen.getByRole('button', { name: 'Give up my place' }));
    expect(await screen.findByRole('heading', { name: 'You have given up your place' })).toBeInTheDocument();
    expect(api.calls[0]?.body).toEqual({ token: 'ab12' });
  });

  it('says plainly when the offer was claimed or has closed', () => {
    renderClaim({ ...open, state: 'closed' });
    expect(screen.getByRole('heading', { name: 'This offer has closed' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Claim my seat and book' })).toBeNull();
  });
});

describe('the leave page', () => {
  it('takes the person off the list', async () => {
    const api = stubApi({ 'POST /api/waiting-list/leave': () => jsonResponse(200, { left: true }) });
    render(<WaitingListLeavePage page={{ waitingFor: 'Chemical Peels Course' }} path="/waiting-list/leave/?token=cd34" />);
    await userEvent.click(screen.getByRole('button', { name: 'Leave the waiting list' }));
    expect(await screen.findByText('You have left the waiting list. Thank you for letting us know.')).toBeInTheDocument();
    expect(api.calls[0]?.body).toEqual({ token: 'cd34' });
  });
});

describe('the confirm page', () => {
  const confirmPath = '/waiting-list/confirm/?token=ef56';
  const renderConfirm = (state: 'open' | 'confirmed' | 'closed') =>
    render(
      <MemoryRouter initialEntries={[confirmPath]}>
        <WaitingListConfirmPage page={{ state, waitingFor: 'Chemical Peels Course on Tuesday 12 January 2027' }} path={confirmPath} />
      </MemoryRouter>,
    );

  it('confirms the place by the link’s token, and says what happens next', async () => {
    const api = stubApi({ 'POST /api/waiting-list/confirm': () => jsonResponse(200, { confirmed: true }) });
    renderConfirm('open');
    expect(screen.getByText(/You asked to wait for a seat on Chemical Peels Course on Tuesday 12 January 2027/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm my place' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'You are on the waiting list' })).toBeInTheDocument();
    expect(api.calls[0]?.body).toEqual({ token: 'ef56' });
  });

  it('says a link that ran out has, and a place confirmed before is kept', () => {
    renderConfirm('closed');
    expect(screen.getByRole('heading', { level: 1, name: 'This link has run out' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirm my place' })).toBeNull();
  });

  it('shows a place confirmed before as waiting', () => {
    renderConfirm('confirmed');
    expect(screen.getByRole('heading', { level: 1, name: 'You are on the waiting list' })).toBeInTheDocument();
  });

  it('shows the server’s words when the confirmation fails', async () => {
    stubApi({
      'POST /api/waiting-list/confirm': () =>
        jsonResponse(409, { error: { code: 'conflict', message: 'This link has run out: it works for 24 hours. Please join the waiting list again.' } }),
    });
    renderConfirm('open');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm my place' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has run out: it works for 24 hours.');
  });
});
