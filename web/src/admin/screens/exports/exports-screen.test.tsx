import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { staffMember } from '../../test/fixtures';
import { renderAdmin } from '../../test/render-admin';

describe('exports', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date(2026, 10, 25, 12), toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('links to the three CSV files, for this month so far to begin with', async () => {
    renderAdmin('/exports/', staffMember('staff'));
    expect(await screen.findByRole('link', { name: 'Orders (CSV)' })).toHaveAttribute('href', '/api/admin/exports/orders.csv?from=2026-11-01&to=2026-11-25');
  });

  it('points the links at the dates chosen', async () => {
    renderAdmin('/exports/', staffMember('staff'));
    const from = await screen.findByLabelText(/From/);
    await userEvent.clear(from);
    await userEvent.type(from, '2026-10-01');
    await userEvent.clear(screen.getByLabelText(/To/));
    await userEvent.type(screen.getByLabelText(/To/), '2026-10-31');
    expect(screen.getByRole('link', { name: 'Orders (CSV)' })).toHaveAttribute('href', '/api/admin/exports/orders.csv?from=2026-10-01&to=2026-10-31');
    expect(screen.getByRole('link', { name: 'Payments (CSV)' })).toHaveAttribute('href', '/api/admin/exports/payments.csv?from=2026-10-01&to=2026-10-31');
    expect(screen.getByRole('link', { name: 'Refunds (CSV)' })).toHaveAttribute('href', '/api/admin/exports/refunds.csv?from=2026-10-01&to=2026-10-31');
  });

  it('offers no download while a date is missing or the dates are the wrong way round', async () => {
    renderAdmin('/exports/', staffMember('staff'));
    const to = await screen.findByLabelText(/To/);
    await userEvent.clear(to);
    expect(screen.getByText('Choose both dates')).toHaveAttribute('role', 'alert');
    expect(screen.queryByRole('link', { name: /CSV/ })).not.toBeInTheDocument();
    await userEvent.type(to, '2026-10-01');
    expect(screen.getByText('Choose a date on or after the first date')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /CSV/ })).not.toBeInTheDocument();
  });
});
