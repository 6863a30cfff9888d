import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import type { FeedbackDay, GivenFeedback } from '../../lib/api-types';
import { staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';
import { summarise } from './feedback-screen';

const answer = (overrides: Partial<GivenFeedback>): GivenFeedback => ({
  id: 'fb-1', student: 'Sam Lee', rating: 5, comment: 'Clear teaching', mayPublish: true, published: false, answeredAt: '2026-11-27T17:00:00Z', ...overrides,
});
const DAY: FeedbackDay = {
  sessionId: 'ses-1', courseId: 'peels', courseTitle: 'Chemical Peels Course', date: '2026-11-27', tutor: 'Ana Tutor', asked: 3, average: 3.5,
  answers: [answer({}), answer({ id: 'fb-2', student: 'Jo Bloggs', rating: 2, comment: 'Too rushed', mayPublish: false })],
};

describe('the feedback screen', () => {
  it('summarises by course and tutor, and publishes only a comment the student agreed to share', async () => {
    const user = userEvent.setup();
    const api = renderAdmin('/feedback/', staffMember('staff'), {
      'GET /api/admin/feedback': () => jsonResponse(200, { days: [DAY] }),
      'POST /api/admin/feedback/fb-1/publish': () => new Response(null, { status: 204 }),
    });
    const byCourse = await screen.findByRole('table', { name: 'By course' });
    expect(within(byCourse).getByRole('row', { name: 'Chemical Peels Course 2 3.5' })).toBeInTheDocument();
    expect(screen.getByText('2 of 3 answered; average 3.5')).toBeInTheDocument();
    const refused = screen.getByRole('row', { name: /Jo Bloggs/ });
    expect(within(refused).getByText('Not agreed')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Publish Sam Lee’s comment' }));
    expect(await screen.findByRole('button', { name: 'Withdraw Sam Lee’s comment' })).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/feedback/fb-1/publish')).toHaveLength(1);
  });

  it('shows a tutor the answers without the publishing buttons', async () => {
    renderAdmin('/feedback/', staffMember('tutor'), { 'GET /api/admin/feedback': () => jsonResponse(200, { days: [DAY] }) });
    expect(await screen.findByText('Too rushed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Publish/ })).not.toBeInTheDocument();
  });

  it('averages each group to one decimal place', () => {
    expect(summarise([DAY, { ...DAY, sessionId: 'ses-2', answers: [answer({ rating: 4 })] }], (day) => day.courseTitle)).toEqual([
      { name: 'Chemical Peels Course', answers: 3, average: '3.7' },
    ]);
    expect(summarise([{ ...DAY, answers: [] }], (day) => day.tutor ?? '')).toEqual([{ name: 'Ana Tutor', answers: 0, average: 'No answers yet' }]);
  });
});
