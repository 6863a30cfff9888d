import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const NEW = Array.from({ length: 10 }, (_, at) => `AAAA-BBBB-CCCC-DDD${at}`);

function renderCodes() {
  let left = 7;
  return renderAdmin('/recovery-codes/', staffMember('tutor'), {
    'GET /api/admin/recovery-codes': () => jsonResponse(200, { left }),
    'POST /api/admin/recovery-codes': (body) => {
      if ((body as { password: string }).password !== 'my password') {
        return jsonResponse(422, { error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { password: 'That password is not right.' } } });
      }
      left = 10;
      return jsonResponse(201, { codes: NEW });
    },
  });
}

describe('a staff member’s recovery codes', () => {
  it('says how many are left, and makes a new set after the password, shown once', async () => {
    const user = userEvent.setup();
    const api = renderCodes();
    expect(await screen.findByText('You have 7 unused recovery codes.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Your password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Make new recovery codes' }));
    expect(await screen.findByRole('link', { name: 'Your password: That password is not right.' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your recovery codes' })).not.toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Your password/));
    await user.type(screen.getByLabelText(/^Your password/), 'my password');
    await user.click(screen.getByRole('button', { name: 'Make new recovery codes' }));
    expect(await screen.findByText('New recovery codes made: the old ones no longer work.')).toBeInTheDocument();
    const codes = screen.getByRole('region', { name: 'Your recovery codes' });
    expect(within(codes).getAllByRole('listitem').map((item) => item.textContent)).toEqual(NEW);
    expect(await screen.findByText('You have 10 unused recovery codes.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/recovery-codes').at(-1)?.body).toEqual({ password: 'my password' });
  });

  it('is linked from the header for every role', async () => {
    renderCodes();
    expect(await screen.findByRole('link', { name: 'Recovery codes' })).toHaveAttribute('href', '/admin/recovery-codes/');
  });
});
