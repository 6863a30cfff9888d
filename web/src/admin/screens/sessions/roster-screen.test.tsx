import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { rosterStudent, session, staffMember } from '../../test/fixtures';
import { callsTo, forbidden, renderAdmin } from '../../test/render-admin';
import { entryWords, readinessWords, theoryWords } from './roster-screen';

const STUDENTS = [
  rosterStudent(),
  rosterStudent({ enrollmentId: 'enr-2', name: 'Ben Carter', phone: '07700 900789', formsComplete: false, balancePaid: true, balanceDue: 0, kit: null, attended: true }),
];

function renderRoster(attendance = () => new Response(null, { status: 204 }), role: 'staff' | 'tutor' = 'tutor', issue = () => jsonResponse(201, { number: 'EA-2026-K7Q2M9XD' })) {
  return renderAdmin('/sessions/ses-1/roster/', staffMember(role), {
    'GET /api/admin/sessions/ses-1/roster': () => jsonResponse(200, { session: session(), students: STUDENTS }),
    'PUT /api/admin/sessions/ses-1/attendance/enr-1': attendance,
    'POST /api/admin/sessions/ses-1/certificates/enr-2': issue,
  });
}

describe('a session’s roster', () => {
  it('lists the students with their phone, forms, balance and kit', async () => {
    renderRoster();
    const table = await screen.findByRole('table', { name: 'Students on Botox Foundation, 15 Dec 2026, 10:00–16:00' });
    const [, amara, ben] = within(table).getAllByRole('row');
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').slice(0, 4).map((cell) => cell.textContent);
    expect(within(amara!).getByRole('rowheader')).toHaveTextContent('Amara Okafor');
    expect(cells(amara!)).toEqual(['07700 900123', 'Complete', '£200.00 due', 'Starter kit']);
    expect(cells(ben!)).toEqual(['07700 900789', 'Not complete', 'Paid', 'None']);
    expect(screen.getByRole('checkbox', { name: 'Ben Carter attended' })).toBeChecked();
    expect(within(table).queryByRole('columnheader', { name: /Online theory/ })).toBeNull();
    expect(within(table).queryByRole('columnheader', { name: /Entry requirements/ })).toBeNull();
  });

  it('shows each student’s online theory when the course’s bookings give one, and not otherwise', async () => {
    const withTheory = [rosterStudent({ theoryPercent: 40 }), rosterStudent({ enrollmentId: 'enr-2', name: 'Ben Carter', theoryPercent: 100 })];
    renderAdmin('/sessions/ses-1/roster/', staffMember('tutor'), {
      'GET /api/admin/sessions/ses-1/roster': () => jsonResponse(200, { session: session(), students: withTheory }),
    });
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: /Online theory/ })).toBeInTheDocument();
    const [, amara, ben] = within(table).getAllByRole('row');
    const theory = (row: HTMLElement) => within(row).getAllByRole('cell')[2]!.textContent;
    expect([theory(amara!), theory(ben!)]).toEqual(['40% done', 'Complete']);
  });

  it('shows who has met the entry requirements online when an online course meets them, and not otherwise', async () => {
    const students = [rosterStudent({ entryMetOnline: 'EA-2026-K7Q2M9XD' }), rosterStudent({ enrollmentId: 'enr-2', name: 'Ben Carter' })];
    renderAdmin('/sessions/ses-1/roster/', staffMember('tutor'), {
      'GET /api/admin/sessions/ses-1/roster': () =>
        jsonResponse(200, { session: session(), students, entryOnlineCourse: 'Anatomy and Physiology Online' }),
    });
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: /Entry requirements \(Anatomy and Physiology Online\)/ })).toBeInTheDocument();
    const [, amara, ben] = within(table).getAllByRole('row');
    const entry = (row: HTMLElement) => within(row).getAllByRole('cell')[2]!.textContent;
    expect([entry(amara!), entry(ben!)]).toEqual(['Met online (EA-2026-K7Q2M9XD)', 'To check']);
    expect(entryWords(null)).toBe('To check');
  });

  it('says where each student stands before training, and opens their forms and documents', async () => {
    const students = [
      rosterStudent({ ready: true, balancePaid: true, balanceDue: 0, documentsAsked: 1, documentsAccepted: 1 }),
      rosterStudent({ enrollmentId: 'enr-2', name: 'Ben Carter', formsComplete: false, documentsAsked: 2, documentsWaiting: 1, flagged: true }),
    ];
    renderAdmin('/sessions/ses-1/roster/', staffMember('tutor'), {
      'GET /api/admin/sessions/ses-1/roster': () => jsonResponse(200, { session: session(), students }),
    });
    const table = await screen.findByRole('table');
    const [, amara, ben] = within(table).getAllByRole('row');
    expect(within(amara!).getByRole('cell', { name: /^Ready/ })).toBeInTheDocument();
    expect(within(ben!).getByText(/Forms to do, 0 of 2 documents accepted, 1 to review, balance due/)).toBeInTheDocument();
    expect(within(ben!).getByText('Call first')).toBeInTheDocument();
    expect(within(ben!).getByRole('link', { name: 'Open Ben Carter’s forms and documents' })).toHaveAttribute('href', '/admin/sessions/ses-1/roster/enr-2/');
  });

  it('leaves out what is done when it says where a student stands', () => {
    expect(readinessWords(rosterStudent({ balancePaid: true, entry: 'to_check' }))).toBe('Entry requirement not met');
  });

  it('says a booking made before the course had theory was not given it', () => {
    expect(theoryWords(null)).toBe('Not given');
    expect(theoryWords(0)).toBe('0% done');
  });

  it('marks attendance as it is ticked', async () => {
    const api = renderRoster();
    const box = await screen.findByRole('checkbox', { name: 'Amara Okafor attended' });
    await userEvent.click(box);
    await vi.waitFor(() => expect(callsTo(api, 'PUT /api/admin/sessions/ses-1/attendance/enr-1')).toHaveLength(1));
    expect(callsTo(api, 'PUT /api/admin/sessions/ses-1/attendance/enr-1')[0]?.body).toEqual({ attended: true });
    expect(box).toBeChecked();
  });

  it('unticks again, and says why, when the server refuses', async () => {
    renderRoster(forbidden);
    const box = await screen.findByRole('checkbox', { name: 'Amara Okafor attended' });
    await userEvent.click(box);
    expect(await screen.findByText('You do not have access to this.')).toHaveAttribute('role', 'alert');
    expect(box).not.toBeChecked();
  });

  it('prints, and downloads the roster as CSV', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    renderRoster();
    await screen.findByRole('table');
    expect(screen.getByRole('link', { name: 'Download as CSV' })).toHaveAttribute('href', '/api/admin/sessions/ses-1/roster.csv');
    await userEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    // A tutor is not offered the session's edit page.
    expect(screen.queryByRole('link', { name: 'Edit the session' })).not.toBeInTheDocument();
  });

  it('issues a certificate for staff and links the public check of its number', async () => {
    const api = renderRoster(undefined, 'staff');
    await userEvent.click(await screen.findByRole('button', { name: 'Issue Ben Carter’s certificate' }));
    expect(await screen.findByRole('link', { name: 'EA-2026-K7Q2M9XD' })).toHaveAttribute('href', '/certificates/EA-2026-K7Q2M9XD');
    expect(callsTo(api, 'POST /api/admin/sessions/ses-1/certificates/enr-2')).toHaveLength(1);
  });

  it('says why a certificate is refused', async () => {
    renderRoster(undefined, 'staff', () => jsonResponse(422, { error: { code: 'unprocessable', message: 'The student still owes part of the balance.' } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Issue Ben Carter’s certificate' }));
    expect(await screen.findByText('The student still owes part of the balance.')).toHaveAttribute('role', 'alert');
  });

  it('says how many seats are taken without a booking on this site, which it cannot list', async () => {
    renderAdmin('/sessions/ses-1/roster/', staffMember('tutor'), {
      'GET /api/admin/sessions/ses-1/roster': () => jsonResponse(200, { session: session({ booked: 2, takenElsewhere: 4 }), students: STUDENTS }),
    });
    expect(await screen.findByText('4 more seats are counted as taken without a booking on this site (booked before it), so nobody is listed for them.')).toBeInTheDocument();
  });

  it('offers tutors no certificate to issue', async () => {
    renderRoster();
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: /certificate/ })).not.toBeInTheDocument();
    expect(screen.getAllByText('Not issued')).toHaveLength(2);
  });
});
