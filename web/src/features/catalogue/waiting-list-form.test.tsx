import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { validateWaiter, WaitingListForm, WaitingListJoinPage } from './waiting-list-form';

describe('the waiting list form', () => {
  it('asks for a name and an email, and a phone only if given', () => {
    expect(validateWaiter({ firstName: '', lastName: '', email: '', phone: '' })).toEqual({
      firstName: 'Name is required', lastName: 'Last name is required', email: 'Email is required',
    });
    expect(validateWaiter({ firstName: 'Sam', lastName: 'Lee', email: 'sam@example.com', phone: '' })).toEqual({});
    expect(validateWaiter({ firstName: 'Sam', lastName: 'Lee', email: 'sam@', phone: '12' })).toHaveProperty('email');
  });

  it('sends the date and the details, then asks the person to confirm by the mailed link', async () => {
    const api = stubApi({ 'POST /api/waiting-list': () => jsonResponse(202, { mailed: true }) });
    render(<WaitingListForm sessionId="cp-2" dateLabel="Tuesday 12th January (On site)" />);
    const form = screen.getByRole('form', { name: 'Waiting list for Tuesday 12th January (On site)' });
    await userEvent.click(screen.getByRole('button', { name: 'Join the waiting list' }));
    expect(screen.getByLabelText(/First name/)).toHaveFocus();
    expect(api.calls).toHaveLength(0);
    await userEvent.type(screen.getByLabelText(/First name/), 'Sam');
    await userEvent.type(screen.getByLabelText(/Last name/), 'Lee');
    await userEvent.type(screen.getByLabelText(/Email/), 'sam@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Join the waiting list' }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Check your email to confirm your place.');
    expect(status).toHaveTextContent('We have emailed you a link for Tuesday 12th January (On site). Open it within 24 hours and confirm');
    expect(form).not.toBeInTheDocument();
    expect(api.calls[0]).toEqual({
      route: 'POST /api/waiting-list', body: { sessionId: 'cp-2', firstName: 'Sam', lastName: 'Lee', email: 'sam@example.com', phone: '' },
    });
  });
});

describe('the join page', () => {
  const session = { sessionId: 'cp-2', courseTitle: 'Chemical Peels Course', courseUrl: '/courses/aesthetics/chemical-peels/', date: '2027-01-12', sessionType: 'onsite' as const, full: true };

  it('offers the form for a full date, and the course page for one with a seat', () => {
    const { unmount } = render(<WaitingListJoinPage page={{ session }} />);
    expect(screen.getByRole('form', { name: 'Waiting list for Tuesday 12th January (On site)' })).toBeInTheDocument();
    unmount();
    render(<WaitingListJoinPage page={{ session: { ...session, full: false } }} />);
    expect(screen.getByRole('link', { name: 'book it on the course page' })).toHaveAttribute('href', '/courses/aesthetics/chemical-peels/');
    expect(screen.queryByRole('form')).toBeNull();
  });
});
