import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from '../../test/memory-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BasketButton, BASKET_COUNT_DELAY_MS } from './basket-button';
import { BasketProvider } from '../../lib/basket';
import { ONLINE_COURSES_KEY, SELECTED_COURSES_KEY } from '../../lib/basket-items';
import { inPerson, online } from '../../test/basket-fixtures';

function renderButton() {
  return render(
    <MemoryRouter>
      <BasketProvider>
        <BasketButton />
      </BasketProvider>
    </MemoryRouter>,
  );
}

describe('BasketButton', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('links to the checkout when the basket is empty', () => {
    renderButton();
    expect(screen.getByRole('link', { name: /^Basket, 0 courses/ }).getAttribute('href')).toBe('/checkout/');
  });

  it('shows the count only after the delay, and links to the checkout with in-person courses', () => {
    sessionStorage.setItem(SELECTED_COURSES_KEY, JSON.stringify([inPerson]));
    sessionStorage.setItem(ONLINE_COURSES_KEY, JSON.stringify([online]));
    renderButton();
    act(() => {
      vi.advanceTimersByTime(BASKET_COUNT_DELAY_MS - 1);
    });
    expect(screen.queryByText('2')).toBeNull();
    // Heard at once, as the badge will show it.
    expect(screen.getByRole('link', { name: 'Basket, 2 courses' })).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText('2')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Basket, 2 courses' }).getAttribute('href')).toBe('/checkout/');
  });

  it('toggles the online drawer when only online courses are in the basket', () => {
    sessionStorage.setItem(ONLINE_COURSES_KEY, JSON.stringify([online]));
    renderButton();
    act(() => {
      vi.advanceTimersByTime(BASKET_COUNT_DELAY_MS);
    });
    const button = screen.getByRole('button', { name: 'Basket, 1 course' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    act(() => {
      button.click();
    });
    expect(button.getAttribute('aria-expanded')).toBe('true');
  });

  it('ignores a corrupt basket in session storage', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    sessionStorage.setItem(SELECTED_COURSES_KEY, '{broken');
    sessionStorage.setItem(ONLINE_COURSES_KEY, JSON.stringify([online, { url: 7 }]));
    renderButton();
    act(() => {
      vi.advanceTimersByTime(BASKET_COUNT_DELAY_MS);
    });
    expect(screen.getByRole('button', { name: 'Basket, 1 course' })).toBeInTheDocument();
    expect(sessionStorage.getItem(SELECTED_COURSES_KEY)).toBeNull();
  });
});
