import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '../../test/memory-router';
import { describe, expect, it } from 'vitest';
import type { FeedbackAsked } from '../../generated/FeedbackAsked';
import { jsonResponse, stubApi } from '../../test/api-stub';
import { FeedbackPage } from './feedback-page';

const ASKED: FeedbackAsked = {
  courseTitle: 'Chemical Peels Course', courseUrl: '/courses/aesthetics/chemical-peels/', date: '2026-11-27', tutor: 'Ana Tutor',
  givenName: 'Sam', answered: false,
};
const PATH = '/feedback/?token=ab12';

function renderPage(asked: FeedbackAsked | null) {
  render(<MemoryRouter><FeedbackPage page={{ asked }} path={PATH} /></MemoryRouter>);
}

describe('the feedback page', () => {
  it('asks for a rating first, then sends it with the comment and the consent, and thanks', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'POST /api/feedback': () => jsonResponse(200, { recorded: true }) });
    renderPage(ASKED);
    expect(screen.getByText('Hello Sam, thank you for training on Chemical Peels Course on Friday 27 November 2026 with Ana Tutor.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(screen.getByText('Choose a rating from 1 to 5.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
    await user.click(screen.getByRole('radio', { name: '4 – Very good' }));
    await user.type(screen.getByLabelText('Your comment (optional)'), 'Clear teaching');
    await user.click(screen.getByRole('checkbox', { name: /may publish my comment/ }));
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByRole('heading', { name: 'Thank you for your feedback' })).toBeInTheDocument();
    expect(api.calls[0]).toEqual({ route: 'POST /api/feedback', body: { token: 'ab12', rating: 4, comment: 'Clear teaching', mayPublish: true } });
  });

  it('says so when the feedback was given already, in the server’s words on a refusal', async () => {
    const user = userEvent.setup();
    stubApi({ 'POST /api/feedback': () => jsonResponse(409, { error: { code: 'conflict', message: 'You have already sent your feedback for this day.' } }) });
    renderPage(ASKED);
    await user.click(screen.getByRole('radio', { name: '2 – Fair' }));
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You have already sent your feedback for this day.');
  });

  it('only thanks once answered, and says when the link is not known', () => {
    renderPage({ ...ASKED, answered: true });
    expect(screen.getByText('You have sent your feedback for this day already: it is given once.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send feedback' })).not.toBeInTheDocument();
  });

  it('says when the link is not known', () => {
    renderPage(null);
    expect(screen.getByRole('heading', { name: 'This link is not known' })).toBeInTheDocument();
  });
});
