import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { COURSES, rosterStudent, session, staffMember, TUTORS } from '../../test/fixtures';
import { address, callsTo, renderAdmin } from '../../test/render-admin';

const reference = {
  'GET /api/admin/courses': () => jsonResponse(200, { courses: COURSES }),
  'GET /api/admin/tutors': () => jsonResponse(200, { tutors: TUTORS }),
};

describe('creating a session', () => {
  it('sends the details with the price in pence, and opens the new session', async () => {
    const created = session({ id: 'ses-9', courseId: 'lips', courseTitle: 'Lip Filler', date: '2027-02-10', price: 39950, booked: 0, held: 0 });
    const api = renderAdmin('/sessions/new/', staffMember('staff'), {
      ...reference,
      'POST /api/admin/sessions': () => jsonResponse(201, created),
      'GET /api/admin/sessions/ses-9/roster': () => jsonResponse(200, { session: created, students: [] }),
    });
    await screen.findByRole('option', { name: 'Lip Filler' });
    await userEvent.selectOptions(screen.getByLabelText(/Course/), 'Lip Filler');
    await userEvent.type(screen.getByLabelText(/Date/), '2027-02-10');
    await userEvent.type(screen.getByLabelText(/Start time/), '10:00');
    await userEvent.type(screen.getByLabelText(/End time/), '16:30');
    await userEvent.click(screen.getByLabelText('Blended'));
    await userEvent.type(screen.getByLabelText(/Price/), '399.50');
    await userEvent.type(screen.getByLabelText(/Seats/), '12');
    await userEvent.type(screen.getByLabelText(/Venue/), 'Leeds, 2 Park Row');
    await userEvent.type(screen.getByLabelText(/Joining link/), 'https://meet.example/lips');
    await userEvent.selectOptions(screen.getByLabelText(/Tutor/), 'Dr Sam Lee');
    await userEvent.click(screen.getByRole('button', { name: 'Create the session' }));

    await vi.waitFor(() => expect(address()).toBe('/sessions/ses-9/'));
    expect(await screen.findByText('Session created.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Lip Filler, 10 Feb 2027' })).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/sessions')[0]?.body).toEqual({
      courseId: 'lips',
      date: '2027-02-10',
      startTime: '10:00',
      endTime: '16:30',
      type: 'blended',
      price: 39950,
      seats: 12,
      venue: 'Leeds, 2 Park Row',
      joiningLink: 'https://meet.example/lips',
      tutorId: 'tutor-1',
    });
  });

  it('lists what is missing in the summary, which takes the focus, and sends nothing', async () => {
    const api = renderAdmin('/sessions/new/', staffMember('staff'), reference);
    await screen.findByRole('option', { name: 'Lip Filler' });
    await userEvent.type(screen.getByLabelText(/Start time/), '16:00');
    await userEvent.click(screen.getByRole('button', { name: 'Create the session' }));
    const summary = await screen.findByText('There is a problem');
    await vi.waitFor(() => expect(document.activeElement?.contains(summary)).toBe(true));
    expect(screen.getByRole('link', { name: 'Course: Choose a course' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Seats: Enter the number of seats' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Course/)).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo(api, 'POST /api/admin/sessions')).toHaveLength(0);
  });
});

function renderEdit(answers: Parameters<typeof renderAdmin>[2] = {}) {
  return renderAdmin('/sessions/ses-1/', staffMember('staff'), {
    ...reference,
    'GET /api/admin/sessions/ses-1/roster': () => jsonResponse(200, { session: session(), students: [rosterStudent()] }),
    ...answers,
  });
}

describe('changing a session', () => {
  it('starts from the session’s details and sends them without the course', async () => {
    const api = renderEdit({ 'PUT /api/admin/sessions/ses-1': () => jsonResponse(200, session({ seats: 18 })) });
    const seats = await screen.findByLabelText(/Seats/);
    expect(screen.getByLabelText<HTMLInputElement>(/Price/).value).toBe('450.00');
    await userEvent.clear(seats);
    await userEvent.type(seats, '18');
    await userEvent.click(screen.getByRole('button', { name: 'Save the session' }));
    expect(await screen.findByText('Session saved.')).toBeInTheDocument();
    expect(callsTo(api, 'PUT /api/admin/sessions/ses-1')[0]?.body).toEqual({
      date: '2026-12-15',
      startTime: '10:00',
      endTime: '16:00',
      type: 'onsite',
      price: 45000,
      seats: 18,
      venue: 'Manchester, 1 King Street',
      joiningLink: '',
      tutorId: 'tutor-1',
    });
  });

  it('puts a 409 for too few seats beside the seats field', async () => {
    renderEdit({
      'PUT /api/admin/sessions/ses-1': () => jsonResponse(409, { error: { code: 'conflict', message: '14 seats are booked or held: keep at least 14.' } }),
    });
    const seats = await screen.findByLabelText(/Seats/);
    await userEvent.clear(seats);
    await userEvent.type(seats, '10');
    await userEvent.click(screen.getByRole('button', { name: 'Save the session' }));
    const link = await screen.findByRole('link', { name: 'Seats: 14 seats are booked or held: keep at least 14.' });
    await vi.waitFor(() => expect(document.activeElement?.contains(link)).toBe(true));
    expect(seats).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(`${seats.id}-error`)?.textContent).toBe('14 seats are booked or held: keep at least 14.');
  });

  it('cancels only after saying what happens to the students', async () => {
    let cancelled = false;
    const api = renderEdit({
      'GET /api/admin/sessions/ses-1/roster': () => jsonResponse(200, { session: session({ status: cancelled ? 'cancelled' : 'active' }), students: [] }),
      'POST /api/admin/sessions/ses-1/cancel': () => {
        cancelled = true;
        return jsonResponse(200, { students: 12 });
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel this session…' }));
    const step = screen.getByRole('group', { name: /goes off sale now/ });
    expect(step).toHaveTextContent('12 students booked on it will be emailed, each offered a move to another date or a full refund.');
    expect(document.activeElement).toBe(step);
    expect(callsTo(api, 'POST /api/admin/sessions/ses-1/cancel')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'No, keep it' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel this session…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel this session…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, cancel the session' }));
    expect(await screen.findByText('Session cancelled. 12 students emailed: each can move to another date or take a full refund.')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByText('This session was cancelled, so its details no longer change.')).toBeInTheDocument());
    expect(callsTo(api, 'POST /api/admin/sessions/ses-1/cancel')).toHaveLength(1);
  });
});

describe('moving from one session’s page to another’s', () => {
  const second = session({ id: 'ses-2', courseTitle: 'Lip Filler', date: '2027-01-20', seats: 8, booked: 3, held: 0, waiting: 0, price: 39950, venue: 'Leeds, 2 Park Row' });

  it('shows the new session’s heading, seats and form, not the last one’s', async () => {
    const api = renderEdit({
      'PUT /api/admin/sessions/ses-1': () => jsonResponse(200, session({ seats: 18 })),
      'GET /api/admin/sessions/ses-2/roster': () => jsonResponse(200, { session: second, students: [] }),
    });
    const seats = await screen.findByLabelText(/Seats/);
    await userEvent.clear(seats);
    await userEvent.type(seats, '18');
    await userEvent.click(screen.getByRole('button', { name: 'Save the session' }));
    expect(await screen.findByText('Session saved.')).toBeInTheDocument();

    await api.visit('/sessions/ses-2/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Lip Filler, 20 Jan 2027' })).toBeInTheDocument();
    expect(screen.getByLabelText<HTMLInputElement>(/Seats/).value).toBe('8');
    expect(screen.getByLabelText<HTMLInputElement>(/Price/).value).toBe('399.50');
    expect(screen.getByLabelText<HTMLInputElement>(/Venue/).value).toBe('Leeds, 2 Park Row');
    expect(screen.getByText(/3 booked of 8 seats/)).toBeInTheDocument();
    expect(screen.queryByText('Session saved.')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the roster' })).toHaveAttribute('href', '/admin/sessions/ses-2/roster/');
  });

  it('shows the new session’s roster, not the last one’s students, even while it loads', async () => {
    let answer: (response: Response) => void = () => {};
    const api = renderAdmin('/sessions/ses-1/roster/', staffMember('staff'), {
      'GET /api/admin/sessions/ses-1/roster': () => jsonResponse(200, { session: session(), students: [rosterStudent()] }),
      'GET /api/admin/sessions/ses-2/roster': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    expect(await screen.findByRole('checkbox', { name: 'Amara Okafor attended' })).not.toBeChecked();

    await api.visit('/sessions/ses-2/roster/');
    expect(await screen.findByText('Loading the roster…')).toBeInTheDocument();
    expect(screen.queryByText('Amara Okafor')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Roster' })).toBeInTheDocument();

    answer(jsonResponse(200, { session: second, students: [rosterStudent({ enrollmentId: 'enr-7', name: 'Ben Carter', attended: true })] }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Roster: Lip Filler, 20 Jan 2027' })).toBeInTheDocument();
    expect(await screen.findByRole('checkbox', { name: 'Ben Carter attended' })).toBeChecked();
    expect(screen.getByRole('link', { name: 'Download as CSV' })).toHaveAttribute('href', '/api/admin/sessions/ses-2/roster.csv');
  });
});
