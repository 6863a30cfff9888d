import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { staffMember } from '../../test/fixtures';
import { learner } from '../../test/online-fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const learners = () =>
  jsonResponse(200, {
    courseId: 'anatomy',
    courseTitle: 'Anatomy and Physiology Online',
    learners: [
      learner({ id: 'reg-3', name: '', email: 'ben@example.com', orderId: null, orderReference: null, grantedBy: 'Priya staff', percent: 0, lastVisited: null }),
      learner({ percent: 100, complete: true, completedAt: '2026-11-25T12:00:00Z', certificate: 'CBA-C-0042' }),
    ],
  });

function renderLearners() {
  return renderAdmin('/orders/online/learners/anatomy/', staffMember('staff'), { 'GET /api/admin/courses/anatomy/learners': learners });
}

describe('a course’s learners', () => {
  it('lists each with where their access came from, its state, progress and certificate, and offers a CSV', async () => {
    renderLearners();
    expect(await screen.findByRole('heading', { level: 1, name: 'Learners: Anatomy and Physiology Online' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Learners of Anatomy and Physiology Online' });
    const [, granted, bought] = within(table).getAllByRole('row');
    expect(within(granted!).getByText('Granted by Priya staff')).toBeInTheDocument();
    expect(within(granted!).getByText('Not yet')).toBeInTheDocument();
    expect(within(bought!).getByText('CBA-C-0042')).toBeInTheDocument();
    expect(within(bought!).getByText('100%')).toBeInTheDocument();
    expect(screen.getByText('2 learners')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download as CSV' })).toHaveAttribute('href', '/api/admin/courses/anatomy/learners.csv');
  });

  it('gives the course to a student by email and reads the list again', async () => {
    const api = renderAdmin('/orders/online/learners/anatomy/', staffMember('staff'), {
      'GET /api/admin/courses/anatomy/learners': learners,
      'POST /api/admin/online-registrations': () => jsonResponse(201, { registration: learner({ email: 'cara@example.com', lastDay: '2027-03-31' }) }),
    });
    const grant = await screen.findByRole('region', { name: 'Give the course to a student' });
    await userEvent.type(within(grant).getByLabelText(/Student’s email/), 'cara@example.com');
    await userEvent.type(within(grant).getByLabelText(/Last day of access/), '2027-03-31');
    await userEvent.click(within(grant).getByRole('button', { name: 'Give the course' }));
    expect(await within(grant).findByText('cara@example.com has the course until 31 Mar 2027.')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/online-registrations')[0]?.body).toEqual({ email: 'cara@example.com', lastDay: '2027-03-31', courseId: 'anatomy' });
    await vi.waitFor(() => expect(callsTo(api, 'GET /api/admin/courses/anatomy/learners')).toHaveLength(2));
  });

  it('puts the server’s word about a missing account beside the email', async () => {
    renderAdmin('/orders/online/learners/anatomy/', staffMember('staff'), {
      'GET /api/admin/courses/anatomy/learners': learners,
      'POST /api/admin/online-registrations': () =>
        jsonResponse(422, { error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { email: 'No student account has this email: ask them to create one first.' } } }),
    });
    const grant = await screen.findByRole('region', { name: 'Give the course to a student' });
    await userEvent.type(within(grant).getByLabelText(/Student’s email/), 'nobody@example.com');
    await userEvent.click(within(grant).getByRole('button', { name: 'Give the course' }));
    expect(await within(grant).findAllByText('No student account has this email: ask them to create one first.')).not.toHaveLength(0);
  });

  it('says when there is no such online course', async () => {
    renderAdmin('/orders/online/learners/nope/', staffMember('staff'), {
      'GET /api/admin/courses/nope/learners': () => jsonResponse(404, { error: { code: 'not_found', message: 'Not found.' } }),
    });
    expect(await screen.findByText('There is no such online course.')).toBeInTheDocument();
  });
});
