import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { WaitingListClaimPage as ClaimData } from '../../generated/WaitingListClaimPage';
import { BasketProvider } from '../../lib/basket';
import { SELECTED_COURSES_KEY } from '../../lib/basket-items';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { ORDER_ID_KEY } from './place-order';
import { WaitingListClaimPage, WaitingListLeavePage } from './waiting-list-pages';

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
        <Routes>
          <Route path="/waiting-list/claim/" element={<WaitingListClaimPage page={page} path={path} />} />
          <Route path="/checkout/" element={<h1>Checkout</h1>} />
        </Routes>
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
