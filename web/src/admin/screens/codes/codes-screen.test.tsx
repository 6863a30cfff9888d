import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, type Answer } from '../../../test/api-stub';
import { code, COURSES, orderRow, staffMember } from '../../test/fixtures';
import { address, callsTo, renderAdmin } from '../../test/render-admin';

const CODES = [
  code(),
  code({ code: 'KIT25', type: 'pound', value: 2500, expiresOn: null, maxUses: null, uses: 7, active: false, courseIds: ['botox'], sectionSlugs: ['aesthetics'], state: 'expired' }),
  // Switched on, but past its last day, and one with every use counted: the server's state says so.
  code({ code: 'AUTUMN', expiresOn: '2025-10-31', state: 'expired' }),
  code({ code: 'FIRST5', expiresOn: null, maxUses: 5, uses: 5, state: 'usedUp' }),
];

const SECTIONS = [
  { slug: 'aesthetics', title: 'Aesthetics Courses' },
  { slug: 'lashes', title: 'Lashes and Brows' },
  { slug: 'hair', title: 'Hair' },
];

function renderCodes(path: string, answers: Record<string, Answer> = {}) {
  return renderAdmin(path, staffMember('staff'), {
    'GET /api/admin/codes': () => jsonResponse(200, { codes: CODES }),
    'GET /api/admin/courses': () => jsonResponse(200, { courses: COURSES }),
    'GET /api/admin/sections': () => jsonResponse(200, { sections: SECTIONS }),
    ...answers,
  });
}

describe('discount codes', () => {
  it('lists what each code gives, until when, how often used and what for', async () => {
    renderCodes('/codes/');
    const table = await screen.findByRole('table', { name: 'Discount codes' });
    const [, autumn, first, kit, winter] = within(table).getAllByRole('row');
    const cells = (row: HTMLElement | undefined) => within(row!).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells(kit)).toEqual(['£25.00 off', 'Never', '7', 'Expired', '1 course; sections: Aesthetics Courses']);
    expect(cells(winter)).toEqual(['10% off', '31 Jan 2027', '3 of 50', 'Active', 'Everything']);
    expect(cells(autumn)).toEqual(['10% off', '31 Oct 2025', '3 of 50', 'Expired', 'Everything']);
    expect(cells(first)).toEqual(['10% off', 'Never', '5 of 5', 'Used up', 'Everything']);
    expect(within(winter!).getByRole('link', { name: 'WINTER10' })).toHaveAttribute('href', '/admin/codes/WINTER10/');
  });

  it('creates a code with an amount off sent in pence, and its limits', async () => {
    const api = renderCodes('/codes/new/', { 'POST /api/admin/codes': () => jsonResponse(201, code({ code: 'SPRING', type: 'pound', value: 1250 })) });
    await screen.findByRole('checkbox', { name: 'Lip Filler' });
    await userEvent.type(screen.getByLabelText(/^Code/), 'SPRING');
    await userEvent.click(screen.getByLabelText('An amount off, in pounds'));
    await userEvent.type(screen.getByLabelText(/^Discount/), '12.50');
    await userEvent.type(screen.getByLabelText(/Most uses/), '100');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Lip Filler' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Aesthetics Courses' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Lashes and Brows' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create the code' }));
    await vi.waitFor(() => expect(address()).toBe('/codes/SPRING/'));
    expect(callsTo(api, 'POST /api/admin/codes')[0]?.body).toEqual({
      code: 'SPRING',
      type: 'pound',
      value: 1250,
      expiresOn: null,
      maxUses: 100,
      active: true,
      courseIds: ['lips'],
      sectionSlugs: ['aesthetics', 'lashes'],
    });
  });

  it('finds a course by name in the long list, keeping those ticked in view', async () => {
    renderCodes('/codes/new/');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Lip Filler' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Find a course by name' }), 'botox');
    const courses = screen.getByRole('group', { name: /Only for these courses/ });
    expect(within(courses).getAllByRole('checkbox')).toHaveLength(2);
    expect(within(courses).getByRole('checkbox', { name: 'Lip Filler' })).toBeChecked();
    expect(within(courses).getByText(/ of \d+ shown/)).toBeInTheDocument();
  });

  it('places the server’s refusal of a section beside the sections', async () => {
    const refusal = { error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { sectionSlugs: 'Choose sections from the list: one sent is not a section the college has.' } } };
    renderCodes('/codes/new/', { 'POST /api/admin/codes': () => jsonResponse(422, refusal) });
    await userEvent.type(await screen.findByLabelText(/^Code/), 'HAIR10');
    await userEvent.click(screen.getByLabelText('A percentage off'));
    await userEvent.type(screen.getByLabelText(/^Discount/), '10');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Hair' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create the code' }));
    expect(await screen.findByRole('link', { name: 'Only for these course sections: Choose sections from the list: one sent is not a section the college has.' })).toBeInTheDocument();
  });

  it('refuses a percentage over 100', async () => {
    const api = renderCodes('/codes/new/');
    await userEvent.type(await screen.findByLabelText(/^Code/), 'HALF');
    await userEvent.click(screen.getByLabelText('A percentage off'));
    await userEvent.type(screen.getByLabelText(/^Discount/), '150');
    await userEvent.click(screen.getByRole('button', { name: 'Create the code' }));
    expect(await screen.findByRole('link', { name: 'Discount: Enter a whole percentage from 1 to 100' })).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/codes')).toHaveLength(0);
  });

  it('changes a code’s terms, expires it, and lists the orders that used it', async () => {
    const api = renderCodes('/codes/WINTER10/', {
      'PUT /api/admin/codes/WINTER10': () => jsonResponse(200, code({ value: 15 })),
      'POST /api/admin/codes/WINTER10/expire': () => jsonResponse(200, code({ active: false })),
      'GET /api/admin/codes/WINTER10/orders': () => jsonResponse(200, { orders: [orderRow()] }),
    });
    expect(within(await screen.findByRole('table', { name: 'Orders with WINTER10' })).getByRole('link', { name: 'B-Z20KM' })).toBeInTheDocument();
    const value = screen.getByLabelText(/^Discount/);
    expect(value).toHaveValue('10');
    await userEvent.clear(value);
    await userEvent.type(value, '15');
    await userEvent.click(screen.getByRole('button', { name: 'Save the code' }));
    expect(await screen.findByText('Code saved.')).toBeInTheDocument();
    expect(callsTo(api, 'PUT /api/admin/codes/WINTER10')[0]?.body).toMatchObject({ code: 'WINTER10', type: 'percent', value: 15, expiresOn: '2027-01-31', maxUses: 50 });

    await userEvent.click(screen.getByRole('button', { name: 'Expire the code now' }));
    expect(await screen.findByText('Code expired.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/codes/WINTER10/expire')).toHaveLength(1);
  });

  it('says a code past its last day has expired, and offers no expiry', async () => {
    renderCodes('/codes/AUTUMN/', { 'GET /api/admin/codes/AUTUMN/orders': () => jsonResponse(200, { orders: [] }) });
    expect(await screen.findByText('This code has expired: nobody can use it.')).toBeInTheDocument();
    expect(screen.getByText('Expired')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Expire the code now' })).not.toBeInTheDocument();
  });

  it('says when there is no such code', async () => {
    renderCodes('/codes/NOPE/');
    expect(await screen.findByText('There is no code NOPE.')).toBeInTheDocument();
  });
});
