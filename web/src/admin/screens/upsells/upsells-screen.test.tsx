import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const UPSELLS = [{ priceId: 'price_kit', title: 'Starter kit', description: 'Everything for the first clients.', cta: 'Add the kit', unitAmount: 9500 }];

function renderUpsells(path: string) {
  return renderAdmin(path, staffMember('staff'), {
    'GET /api/admin/upsells': () => jsonResponse(200, { upsells: UPSELLS }),
    'PUT /api/admin/upsells/price_kit': () => new Response(null, { status: 204 }),
  });
}

describe('upsells', () => {
  it('lists each upsell with its words and price', async () => {
    renderUpsells('/upsells/');
    const table = await screen.findByRole('table', { name: 'Upsells' });
    expect(within(table).getByRole('link', { name: 'Starter kit' })).toHaveAttribute('href', '/admin/upsells/price_kit/');
    expect(within(table).getByText('£95.00')).toBeInTheDocument();
    expect(within(table).getByText('Add the kit')).toBeInTheDocument();
  });

  it('changes the words and the price, sent in pence', async () => {
    const api = renderUpsells('/upsells/price_kit/');
    const price = await screen.findByLabelText(/Price/);
    expect(price).toHaveValue('95.00');
    await userEvent.clear(screen.getByLabelText(/Button/));
    await userEvent.type(screen.getByLabelText(/Button/), 'Add the starter kit');
    await userEvent.clear(price);
    await userEvent.type(price, '89');
    await userEvent.click(screen.getByRole('button', { name: 'Save the upsell' }));
    expect(await screen.findByText('Upsell saved.')).toBeInTheDocument();
    expect(callsTo(api, 'PUT /api/admin/upsells/price_kit')[0]?.body).toEqual({
      title: 'Starter kit',
      description: 'Everything for the first clients.',
      cta: 'Add the starter kit',
      unitAmount: 8900,
    });
  });
});
