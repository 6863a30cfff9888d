import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BasketProvider, useBasket } from '../../lib/basket';
import { ONLINE_COURSES_KEY } from '../../lib/basket-items';
import { online } from '../../test/basket-fixtures';
import { OnlineBasketNotice } from './online-basket-notice';

function DrawerState() {
  return <p data-testid="drawer">{useBasket().onlineBasket ? 'open' : 'closed'}</p>;
}

async function renderNotice() {
  render(
    <BasketProvider>
      <OnlineBasketNotice />
      <DrawerState />
    </BasketProvider>,
  );
  await act(async () => {});
}

describe('OnlineBasketNotice', () => {
  it('says nothing without online courses', async () => {
    await renderNotice();
    expect(screen.queryByRole('button', { name: 'Open the online basket' })).toBeNull();
  });

  it('names the online courses waiting and opens their basket', async () => {
    const second = { ...online, courseId: 'c3', title: 'Brow Lamination Online', url: '/courses/elearning/brow-lamination-online/' };
    sessionStorage.setItem(ONLINE_COURSES_KEY, JSON.stringify([online, second]));
    await renderNotice();
    expect(screen.getByText(/Chemical Peels Online and Brow Lamination Online are waiting in your online basket/)).toBeInTheDocument();
    expect(screen.getByTestId('drawer')).toHaveTextContent('closed');
    await userEvent.click(screen.getByRole('button', { name: 'Open the online basket' }));
    expect(screen.getByTestId('drawer')).toHaveTextContent('open');
  });

  it('says one course is waiting', async () => {
    sessionStorage.setItem(ONLINE_COURSES_KEY, JSON.stringify([online]));
    await renderNotice();
    expect(screen.getByText(/^Chemical Peels Online is waiting in your online basket\./)).toBeInTheDocument();
  });
});
