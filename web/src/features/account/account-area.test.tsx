import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/api-stub';
import { account, accountApi, cancelledBooking, records } from '../../test/account-fixtures';
import { amaraUserDataAnswer, signedIn } from '../../test/auth-fixtures';
import { renderWithAuth } from '../../test/render-with-auth';
import { AccountPage } from './account-page';
import { fileProblem } from './sections/documents';

const page = { heading: 'Your account' };
const region = (name: string) => screen.getByRole('region', { name });
/** A GraphQL answer read at each call: `data()` may change as the test goes on. */
const graphqlWith = (data: () => Record<string, unknown>) => () => jsonResponse(200, { data: { user: records.user, ...data() } });

describe('the account overview', () => {
  it('shows the next sessions with where they are, balances due and what is left to do before training, with its deadline', async () => {
    accountApi({ 'GET /api/account': () => jsonResponse(200, account) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" venue="12 High Street, London" />, '/account/');
    const overview = await screen.findByRole('region', { name: 'Overview' });
    const sessions = within(await within(overview).findByRole('list', { name: 'Your next sessions' })).getAllByRole('listitem');
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.textContent).toBe('Microneedling CourseTuesday 12th January, 09:30 to 16:30At the academy, 12 High Street, London');
    expect(within(overview).queryByText('Anatomy Day')).toBeNull();
    expect(within(overview).getByText('£830.00 due by Tuesday 29th December')).toBeInTheDocument();
    expect(within(overview).getByRole('link', { name: 'Medical form: Microneedling Course' }).getAttribute('href')).toBe('/account/forms/f-medical/');
    expect(within(overview).queryByRole('link', { name: /Consultation form/ })).toBeNull();
    const toDo = within(within(overview).getByRole('list', { name: 'Still to do before your training' })).getAllByRole('listitem');
    expect(toDo.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Medical form: Microneedling Course/),
      'Send your Level 2 certificateDue by Tuesday 5th January',
    ]);
  });
});

describe('certificates', () => {
  it('lists each certificate with its public check and its download', async () => {
    accountApi({ 'GET /api/account': () => jsonResponse(200, account) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/certificates/');
    const view = await screen.findByRole('link', { name: 'View certificate EA-2026-04821' });
    expect(view.getAttribute('href')).toBe('/certificates/EA-2026-04821');
    const download = screen.getByRole('link', { name: 'Download certificate EA-2026-04821 (PDF)' });
    expect(download.getAttribute('href')).toBe('/api/account/certificates/EA-2026-04821');
    expect(download).toHaveAttribute('download');
    expect(within(region('Certificates')).getByText('Issued 8 May 2026, number EA-2026-04821')).toBeInTheDocument();
  });
});

describe('forms', () => {
  it('asks every required question before a form is sent complete, and sends yes and no as the server takes them', async () => {
    const api = accountApi({ 'GET /api/account': () => jsonResponse(200, account), 'PUT /api/account/forms/f-medical': () => jsonResponse(200, { complete: true }) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/forms/f-medical/');
    const form = await screen.findByRole('form', { name: 'Medical form: Microneedling Course' });
    expect(within(form).getByLabelText<HTMLSelectElement>(/medical condition/).value).toBe('No');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit form' }));
    const contact = within(form).getByLabelText(/Emergency contact/);
    expect(contact).toHaveAccessibleDescription('Please answer this question');
    expect(contact).toHaveFocus();
    expect(api.routes()).not.toContain('PUT /api/account/forms/f-medical');
    await userEvent.type(contact, 'Sam Okafor 07700 900456');
    await userEvent.click(within(form).getByRole('button', { name: 'Submit form' }));
    expect(await screen.findByText('Thank you: your medical form: microneedling course is complete.')).toBeInTheDocument();
    expect(api.calls.find((call) => call.route === 'PUT /api/account/forms/f-medical')?.body).toEqual({
      answers: { conditions: 'no', medication: '', emergency_contact: 'Sam Okafor 07700 900456' },
      complete: true,
    });
  });

  it('lists each form with its course, and the day one still to complete is due by', async () => {
    accountApi({ 'GET /api/account': () => jsonResponse(200, account) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/forms/');
    const link = await screen.findByRole('link', { name: 'Medical form: Microneedling Course' });
    expect(link.closest('li')!.textContent).toBe('Medical form: Microneedling CourseTo completeDue by Tuesday 5th January');
    const done = screen.getByRole('link', { name: 'Consultation form: Microneedling Course' });
    expect(done.closest('li')!.textContent).toBe('Consultation form: Microneedling CourseComplete');
  });

  it('saves a form for later without its checks', async () => {
    const api = accountApi({ 'GET /api/account': () => jsonResponse(200, account), 'PUT /api/account/forms/f-medical': () => jsonResponse(200, { complete: false }) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/forms/f-medical/');
    await userEvent.click(await screen.findByRole('button', { name: 'Save for later' }));
    expect(await screen.findByText('Your answers are saved. You can finish the form later.')).toBeInTheDocument();
    expect(api.calls.find((call) => call.route === 'PUT /api/account/forms/f-medical')?.body).toMatchObject({ complete: false });
  });
});

describe('documents', () => {
  it('checks a file before sending it, then sends it as base64 and lists it', async () => {
    let sent = false;
    const api = accountApi({
      'GET /api/account': () => jsonResponse(200, account),
      'POST /api/graphql': graphqlWith(() => ({
        uploads: [{ ...records.uploads[0], status: sent ? 'received' : 'requested', uploads: sent ? [{ id: 'up-1', file_name: 'level-2.pdf', size_bytes: 2048, uploaded_at: '2026-11-24T10:00:00' }] : [] }],
      })),
      'POST /api/account/upload-requests/req-1/files': () => {
        sent = true;
        return jsonResponse(201, { id: 'up-1', file_name: 'level-2.pdf', content_type: 'application/pdf' });
      },
    });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/documents/');
    const input = await screen.findByLabelText('Choose a file for Level 2 certificate');
    expect(screen.getByRole('region', { name: 'Level 2 certificate' })).toHaveTextContent('Waiting for your file Due by Tuesday 5th January');
    await userEvent.upload(input, new File(['<html>'], 'page.html', { type: 'text/html' }), { applyAccept: false });
    await userEvent.click(screen.getByRole('button', { name: 'Send file' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please send a PDF or an image (JPEG, PNG or WebP).');
    await userEvent.upload(input, new File(['%PDF-1.7'], 'level-2.pdf', { type: 'application/pdf' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send file' }));
    expect(await screen.findByRole('link', { name: 'level-2.pdf' })).toHaveAttribute('href', '/api/account/uploads/up-1');
    // Said as news, in the colour of success, not as an error.
    const said = screen.getByText('level-2.pdf is sent.');
    expect([said.getAttribute('role'), said.className]).toEqual(['status', 'form-success']);
    expect(screen.getByRole('alert')).toHaveTextContent('');
    expect(api.calls.find((call) => call.route === 'POST /api/account/upload-requests/req-1/files')?.body).toEqual({
      file_name: 'level-2.pdf',
      data: btoa('%PDF-1.7'),
    });
  });

  it('refuses files over 5 MB before sending them', () => {
    expect(fileProblem(new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.pdf', { type: 'application/pdf' }))).toBe(
      'The file is larger than 5 MB. Please send a smaller copy.',
    );
    expect(fileProblem(undefined)).toBe('Choose a file to send.');
    expect(fileProblem(new File(['x'], 'photo.jpg', { type: 'image/jpeg' }))).toBeNull();
  });
});

describe('the intake call', () => {
  it('books a free time, and says so when someone took it first', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    let booked = false;
    let attempts = 0;
    accountApi({
      'GET /api/account': () => jsonResponse(200, account),
      'POST /api/graphql': graphqlWith(() => ({ intake_calls: booked ? [{ id: 'call-1', student_id: 'u-amara', date: '2026-11-26', time: '14:00', status: 'booked' }] : [] })),
      'GET /api/account/intake-calls/slots': () => jsonResponse(200, { days: [{ date: '2026-11-26', times: ['10:00', '14:00'] }] }),
      'POST /api/account/intake-calls': () => {
        attempts += 1;
        if (attempts === 1) return jsonResponse(409, { error: { code: 'conflict', message: 'Someone has just booked that time. Please choose another.' } });
        booked = true;
        return jsonResponse(201, { id: 'call-1' });
      },
    });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/intake-call/');
    await userEvent.selectOptions(await screen.findByLabelText('Day'), 'Thursday 26th November');
    await userEvent.click(screen.getByRole('radio', { name: '10:00' }));
    await userEvent.click(screen.getByRole('button', { name: 'Book the call' }));
    expect(await screen.findByText('Someone has just booked that time. Please choose another.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: '14:00' }));
    await userEvent.click(screen.getByRole('button', { name: 'Book the call' }));
    expect(await screen.findByText(/Your call is booked for Thursday 26th November at 14:00/)).toBeInTheDocument();
  });

  it('moves a booked call to another free time, and cancels it only once the student says yes', async () => {
    let call = { id: 'call-1', student_id: 'u-amara', date: '2026-11-26', time: '14:00', status: 'booked' };
    const api = accountApi({
      'GET /api/account': () => jsonResponse(200, account),
      'POST /api/graphql': graphqlWith(() => ({ intake_calls: [call] })),
      'GET /api/account/intake-calls/slots': () => jsonResponse(200, { days: [{ date: '2026-11-27', times: ['10:00', '11:00'] }] }),
      'POST /api/account/intake-calls/call-1/move': (body) => {
        call = { ...call, ...(body as { date: string; time: string }) };
        return jsonResponse(200, { moved: true });
      },
      'POST /api/account/intake-calls/call-1/cancel': () => {
        call = { ...call, status: 'cancelled' };
        return jsonResponse(200, { cancelled: true });
      },
    });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/intake-call/');
    await userEvent.click(await screen.findByRole('button', { name: 'Change the time' }));
    const choose = await screen.findByRole('form', { name: 'Choose a new time' });
    await userEvent.click(within(choose).getByRole('button', { name: 'Keep the time I have' }));
    expect(screen.queryByRole('form', { name: 'Choose a new time' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Change the time' }));
    await userEvent.selectOptions(await screen.findByLabelText('Day'), 'Friday 27th November');
    await userEvent.click(screen.getByRole('radio', { name: '11:00' }));
    await userEvent.click(screen.getByRole('button', { name: 'Move the call' }));
    expect(await screen.findByText('Your call is moved to Friday 27th November at 11:00 (UK time).')).toHaveAttribute('role', 'status');
    expect(await screen.findByText(/Your call is booked for Friday 27th November at 11:00/)).toBeInTheDocument();
    expect(api.calls.find((c) => c.route === 'POST /api/account/intake-calls/call-1/move')?.body).toEqual({ date: '2026-11-27', time: '11:00' });

    await userEvent.click(screen.getByRole('button', { name: 'Cancel this call' }));
    const confirm = screen.getByRole('region', { name: 'Cancel this call?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Keep my call' }));
    expect(api.routes()).not.toContain('POST /api/account/intake-calls/call-1/cancel');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel this call' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, cancel the call' }));
    expect(await screen.findByText('Your call is cancelled.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Book the call' })).toBeInTheDocument();
  });
});

describe('the profile', () => {
  it('saves the name and phone, and reads the session again', async () => {
    const api = accountApi({
      'GET /api/account': () => jsonResponse(200, account),
      'PUT /api/account/profile': () => jsonResponse(200, { saved: true }),
      ...amaraUserDataAnswer,
    });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/profile/');
    const form = await screen.findByRole('form', { name: 'Your details' });
    const phone = within(form).getByLabelText(/Phone number/);
    await userEvent.clear(phone);
    await userEvent.type(phone, '12ab');
    await userEvent.click(within(form).getByRole('button', { name: 'Save details' }));
    expect(phone).toHaveAccessibleDescription('Enter a valid phone number');
    await userEvent.clear(phone);
    await userEvent.type(phone, '07700 900999');
    await userEvent.click(within(form).getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Your details are saved.')).toBeInTheDocument();
    expect(api.calls.find((call) => call.route === 'PUT /api/account/profile')?.body).toEqual({ first_name: 'Amara', last_name: 'Okafor', phone: '07700 900999' });
    expect(api.routes().filter((route) => route === 'GET /api/auth/session')).toHaveLength(2);
  });

  it('puts the server’s word beside a wrong current password', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    accountApi({
      'GET /api/account': () => jsonResponse(200, account),
      'POST /api/account/password': () =>
        jsonResponse(422, { error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { current_password: 'Your current password is not right' } } }),
    });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/profile/');
    const form = await screen.findByRole('form', { name: 'Change your password' });
    await userEvent.type(within(form).getByLabelText(/Current password/), 'not it');
    await userEvent.type(within(form).getByLabelText(/New password/), 'a new pass phrase');
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('Your current password is not right')).toBeInTheDocument();
    expect(within(form).getByLabelText(/Current password/)).toHaveFocus();
  });
});

describe('the signed-in session', () => {
  it('is asked once for who is signed in', async () => {
    const api = accountApi({ 'GET /api/account': () => jsonResponse(200, account) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/');
    await screen.findByRole('region', { name: 'Overview' });
    expect(api.routes().filter((route) => route === 'GET /api/auth/session')).toEqual(['GET /api/auth/session']);
    expect(signedIn.user?.email).toBe('amara@example.com');
  });
});

describe('bookings', () => {
  it('shows a booking’s discount, what was paid, and what a cancelled one refunded', async () => {
    accountApi({ 'GET /api/account': () => jsonResponse(200, cancelledBooking) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/bookings/');
    const bookings = await screen.findByRole('region', { name: 'Bookings' });
    const table = await within(bookings).findByRole('table');
    expect(Array.from(table.querySelectorAll('tfoot tr'), (row) => row.textContent)).toEqual(['Discount-£90.00', 'Total£810.00', 'Paid£100.00']);
    expect(within(bookings).getByText('Refunded to you: £100.00')).toBeInTheDocument();
    expect(within(bookings).queryByRole('button', { name: 'Change date' })).toBeNull();
  });

  it('lists under each booking what is still to do before its training, with the day it is due', async () => {
    accountApi({ 'GET /api/account': () => jsonResponse(200, account) });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/bookings/');
    const bookings = await screen.findByRole('region', { name: 'Bookings' });
    const toDo = await within(bookings).findByRole('list', { name: 'Still to do before the training of booking B-Z20KM' });
    expect(within(toDo).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Medical form: Microneedling CourseDue by Tuesday 5th January',
      'Send your Level 2 certificateDue by Tuesday 5th January',
    ]);
    expect(within(bookings).queryByRole('list', { name: /booking B-MPM59/ })).toBeNull();
  });

  it('shows what cancelling gives back before the student confirms, then cancels and reads the bookings again', async () => {
    let cancelled = false;
    const api = accountApi({
      'GET /api/account': () =>
        jsonResponse(200, cancelled ? { ...account, enrollments: account.enrollments.map((e, i) => (i === 0 ? { ...e, status: 'cancelled', balance: 0 } : e)) } : account),
      'GET /api/account/enrollments/order-1/cancellation': () =>
        jsonResponse(200, { terms: 'coolingOff', refund: 20000, kept: 0, explanation: 'You booked within the last 14 days, so we refund everything you paid.' }),
      'POST /api/account/enrollments/order-1/cancel': () => {
        cancelled = true;
        return jsonResponse(200, { terms: 'coolingOff', refund: 20000, kept: 0, explanation: '' });
      },
    });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/bookings/');
    const bookings = await screen.findByRole('region', { name: 'Bookings' });
    expect(await within(bookings).findByRole('button', { name: 'Pay £830.00' })).toBeInTheDocument();
    await userEvent.click(within(bookings).getAllByRole('button', { name: 'Cancel booking' })[0]!);
    const confirm = await within(bookings).findByRole('region', { name: 'Cancel this booking?' });
    expect(within(confirm).getByText('You booked within the last 14 days, so we refund everything you paid.')).toBeInTheDocument();
    expect(within(confirm).getByText('You will be refunded £200.00.')).toBeInTheDocument();
    expect(api.routes()).not.toContain('POST /api/account/enrollments/order-1/cancel');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, cancel my booking' }));
    expect(await within(bookings).findByText('Cancelled')).toBeInTheDocument();
    expect(within(bookings).queryByRole('button', { name: 'Pay £830.00' })).toBeNull();
  });

  it('offers the other dates with their price difference and moves the booking to the one chosen', async () => {
    let moved = false;
    const api = accountApi({
      'GET /api/account': () => jsonResponse(200, account),
      'GET /api/account/enrollments/order-1/dates': () =>
        jsonResponse(200, {
          courses: [{
            courseId: 'microneedling', title: 'Microneedling Course', date: '2027-01-12', refused: null,
            dates: [{ sessionId: 'mn-2', date: '2027-02-16', start: '2027-02-16T09:30:00', end: '2027-02-16T16:30:00', sessionType: 'onsite', difference: -5000 }],
          }],
        }),
      'POST /api/account/enrollments/order-1/move': () => {
        moved = true;
        return jsonResponse(200, { total: 98000, refund: 0 });
      },
    });
    renderWithAuth(<AccountPage page={page} today="2026-11-26" />, '/account/bookings/');
    const bookings = await screen.findByRole('region', { name: 'Bookings' });
    await userEvent.click((await within(bookings).findAllByRole('button', { name: 'Change date' }))[0]!);
    const dates = await within(bookings).findByRole('group', { name: 'Microneedling Course, now on Tuesday 12th January' });
    await userEvent.click(within(dates).getByRole('radio', { name: 'Tuesday 16th February, 09:30 to 16:30, On site (£50.00 less)' }));
    await userEvent.click(within(dates).getByRole('button', { name: 'Move to this date' }));
    await vi.waitFor(() => expect(moved).toBe(true));
    expect(api.calls.find((call) => call.route === 'POST /api/account/enrollments/order-1/move')?.body).toEqual({ courseId: 'microneedling', sessionId: 'mn-2' });
  });
});
