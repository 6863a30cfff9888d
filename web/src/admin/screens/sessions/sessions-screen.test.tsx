import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { COURSES, session, staffMember } from '../../test/fixtures';
import { address, callsTo, renderAdmin } from '../../test/render-admin';

const SESSIONS = [
  session(),
  session({ id: 'ses-2', courseId: 'lips', courseTitle: 'Lip Filler', date: '2026-12-03', startTime: '09:30', endTime: '13:00', type: 'virtual', booked: 3, held: 0 }),
  session({ id: 'ses-3', courseId: 'lips', courseTitle: 'Lip Filler', date: '2027-01-12', booked: 0, held: 0 }),
];

function renderSessions(path: string, role: 'staff' | 'tutor' = 'staff', next: string | null = null) {
  return renderAdmin(path, staffMember(role), {
    'GET /api/admin/sessions': () => jsonResponse(200, { sessions: SESSIONS, next }),
    'GET /api/admin/courses': () => jsonResponse(200, { courses: COURSES }),
  });
}

const rowHeaders = (table: HTMLElement) => within(table).getAllByRole('rowheader').map((cell) => cell.textContent);

describe('the sessions list', () => {
  it('lists the sessions in a table by date, with seats filling and links to edit and to the roster', async () => {
    renderSessions('/sessions/');
    const table = await screen.findByRole('table', { name: 'Sessions' });
    expect(rowHeaders(table)).toEqual(['Lip Filler', 'Botox Foundation', 'Lip Filler']);
    expect(within(table).getByRole('columnheader', { name: /Date/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(within(table).getByText('12 booked and 2 held of 16 seats')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Botox Foundation, 15 Dec 2026' })).toHaveAttribute('href', '/admin/sessions/ses-1/');
    expect(screen.getByRole('link', { name: 'Roster for Botox Foundation, 15 Dec 2026' })).toHaveAttribute('href', '/admin/sessions/ses-1/roster/');
    expect(screen.getByText('3 sessions')).toBeInTheDocument();
    // A wide table scrolls inside its own region, which the keyboard can reach.
    expect(screen.getByRole('region', { name: 'Sessions' })).toHaveAttribute('tabindex', '0');
  });

  it('sorts by a column when its header button is pressed', async () => {
    renderSessions('/sessions/');
    const table = await screen.findByRole('table', { name: 'Sessions' });
    await userEvent.click(within(table).getByRole('button', { name: /Course/ }));
    expect(within(table).getByRole('columnheader', { name: /Course/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(within(table).getByRole('columnheader', { name: /Date/ })).not.toHaveAttribute('aria-sort');
    expect(rowHeaders(table)).toEqual(['Botox Foundation', 'Lip Filler', 'Lip Filler']);
    await userEvent.click(within(table).getByRole('button', { name: /Course/ }));
    expect(within(table).getByRole('columnheader', { name: /Course/ })).toHaveAttribute('aria-sort', 'descending');
    expect(rowHeaders(table)[0]).toBe('Lip Filler');
  });

  it('asks for the course and dates chosen, and keeps them in the address', async () => {
    const api = renderSessions('/sessions/');
    await screen.findByRole('option', { name: 'Lip Filler' });
    await userEvent.selectOptions(screen.getByLabelText('Course'), 'Lip Filler');
    await userEvent.type(screen.getByLabelText('From'), '2026-12-01');
    await userEvent.type(screen.getByLabelText('To'), '2026-12-31');
    await userEvent.click(screen.getByRole('button', { name: 'Show sessions' }));
    await vi.waitFor(() => expect(address()).toBe('/sessions/?course=lips&from=2026-12-01&to=2026-12-31'));
    await vi.waitFor(() => expect(callsTo(api, 'GET /api/admin/sessions').at(-1)?.url).toBe('/api/admin/sessions?course=lips&from=2026-12-01&to=2026-12-31'));
    // Only courses taught in person take sessions.
    expect(screen.queryByRole('option', { name: 'Aesthetics Theory' })).not.toBeInTheDocument();
  });

  it('refuses a date range that ends before it starts', async () => {
    const api = renderSessions('/sessions/');
    await userEvent.type(await screen.findByLabelText('From'), '2026-12-31');
    await userEvent.type(screen.getByLabelText('To'), '2026-12-01');
    await userEvent.click(screen.getByRole('button', { name: 'Show sessions' }));
    expect(await screen.findByRole('link', { name: 'To: Choose a date on or after the first date' })).toBeInTheDocument();
    expect(callsTo(api, 'GET /api/admin/sessions')).toHaveLength(1);
  });

  it('shows the same sessions as a month calendar, day by day', async () => {
    renderSessions('/sessions/?view=calendar');
    const december = await screen.findByRole('region', { name: 'December 2026' });
    const days = within(december).getAllByRole('heading', { level: 3 }).map((day) => day.textContent);
    expect(days).toEqual(['Thursday 3rd December', 'Tuesday 15th December']);
    expect(screen.getByRole('region', { name: 'January 2027' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Calendar' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('follows the answer to the next page, keeping the filters, and back to the first', async () => {
    const api = renderSessions('/sessions/?course=lips', 'staff', '2027-01-12T09:00:00_ses-3');
    await screen.findByRole('table', { name: 'Sessions' });
    const pages = screen.getByRole('navigation', { name: 'Pages of sessions' });
    expect(within(pages).queryByRole('link', { name: 'First sessions' })).not.toBeInTheDocument();
    await userEvent.click(within(pages).getByRole('link', { name: 'Later sessions' }));
    await vi.waitFor(() => expect(address()).toBe('/sessions/?course=lips&after=2027-01-12T09%3A00%3A00_ses-3'));
    await vi.waitFor(() =>
      expect(callsTo(api, 'GET /api/admin/sessions').at(-1)?.url).toBe('/api/admin/sessions?course=lips&after=2027-01-12T09%3A00%3A00_ses-3'),
    );
    await userEvent.click(await screen.findByRole('link', { name: 'First sessions' }));
    await vi.waitFor(() => expect(address()).toBe('/sessions/?course=lips'));
  });

  it('has no later page on the last', async () => {
    renderSessions('/sessions/');
    await screen.findByRole('table', { name: 'Sessions' });
    expect(screen.queryByRole('link', { name: 'Later sessions' })).not.toBeInTheDocument();
  });

  it('steps the calendar a month at a time, from the first date chosen', async () => {
    const api = renderSessions('/sessions/?view=calendar&from=2026-12-10&after=2026-12-15T09%3A00%3A00_ses-1');
    await screen.findByRole('region', { name: 'December 2026' });
    const months = screen.getByRole('navigation', { name: 'Months' });
    await userEvent.click(within(months).getByRole('link', { name: 'Next month' }));
    await vi.waitFor(() => expect(address()).toBe('/sessions/?view=calendar&from=2027-01-01&to=2027-01-31'));
    await vi.waitFor(() => expect(callsTo(api, 'GET /api/admin/sessions').at(-1)?.url).toBe('/api/admin/sessions?from=2027-01-01&to=2027-01-31'));
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Months' })).getByRole('link', { name: 'Previous month' }));
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Months' })).getByRole('link', { name: 'Previous month' }));
    await vi.waitFor(() => expect(address()).toBe('/sessions/?view=calendar&from=2026-11-01&to=2026-11-30'));
  });

  it('gives a tutor their sessions’ rosters and nothing to change', async () => {
    const api = renderSessions('/sessions/', 'tutor');
    await screen.findByRole('table', { name: 'Sessions' });
    expect(screen.queryByRole('link', { name: 'New session' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^Roster for/ })).toHaveLength(3);
    expect(callsTo(api, 'GET /api/admin/tutors')).toHaveLength(0);
  });
});
