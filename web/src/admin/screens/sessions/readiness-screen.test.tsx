import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import type { BookingReadiness } from '../../lib/api-types';
import { staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const PATH = '/api/admin/sessions/ses-1/readiness/enr-1';

function booking(overrides: Partial<BookingReadiness> = {}): BookingReadiness {
  return {
    enrollmentId: 'enr-1',
    name: 'Amara Okafor',
    email: 'amara@example.com',
    courseTitle: 'Chemical Peels Course',
    forms: [
      { kind: 'consultation', complete: true, flagged: false, answers: [{ question: 'What you want from this course', answer: 'To offer peels.' }] },
      { kind: 'medical', complete: true, flagged: true, answers: null },
    ],
    documents: [
      {
        id: 'req-1',
        title: 'Level 2 certificate',
        description: 'A scan of your certificate.',
        state: 'received',
        reason: '',
        uploads: [{ id: 'up-1', file_name: 'level-2.pdf', content_type: 'application/pdf', size_bytes: 2048, uploaded_at: '2026-11-20T10:15:00' }],
      },
    ],
    entry: 'to_check',
    ready: false,
    ...overrides,
  };
}

function renderReadiness(verdict = (_body: unknown) => new Response(null, { status: 204 })) {
  return renderAdmin('/sessions/ses-1/roster/enr-1/', staffMember('staff'), {
    [`GET ${PATH}`]: () => jsonResponse(200, booking()),
    [`PUT ${PATH}/documents/req-1`]: verdict,
  });
}

describe('a booked student’s readiness for training', () => {
  it('shows the answers the role may read, the call asked for, and the files sent', async () => {
    renderReadiness();
    expect(await screen.findByRole('heading', { level: 1, name: 'Before training: Amara Okafor' })).toBeInTheDocument();
    const consultation = screen.getByRole('region', { name: 'Consultation form' });
    expect(within(consultation).getByText('To offer peels.')).toBeInTheDocument();
    const medical = screen.getByRole('region', { name: 'Medical questionnaire' });
    expect(within(medical).getByText(/an answer asks the college to talk to the student first/)).toBeInTheDocument();
    expect(within(medical).getByText('Medical answers are read only by the student’s tutor and the owner.')).toBeInTheDocument();
    const document = screen.getByRole('region', { name: 'Level 2 certificate' });
    expect(within(document).getByRole('link', { name: 'level-2.pdf' })).toHaveAttribute('href', `${PATH}/uploads/up-1`);
    expect(screen.getByText(/Entry requirement not met yet\./)).toBeInTheDocument();
  });

  it('turns a document down only with a reason, said by the server, and sends the reason given', async () => {
    const verdict = vi.fn((body: unknown) =>
      (body as { reason: string }).reason
        ? new Response(null, { status: 204 })
        : jsonResponse(422, { error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { reason: 'Say why, so the student knows what to send instead.' } } }),
    );
    const api = renderReadiness(verdict);
    const document = await screen.findByRole('region', { name: 'Level 2 certificate' });
    await userEvent.click(within(document).getByRole('button', { name: 'Turn down Level 2 certificate' }));
    expect(await within(document).findByRole('alert')).toHaveTextContent('Say why, so the student knows what to send instead.');
    await userEvent.type(within(document).getByLabelText(/^Reason, if you turn it down/), 'Blurred');
    await userEvent.click(within(document).getByRole('button', { name: 'Turn down Level 2 certificate' }));
    expect(await within(document).findByText('“Level 2 certificate” turned down: the student has been mailed the reason.')).toBeInTheDocument();
    expect(callsTo(api, `PUT ${PATH}/documents/req-1`).map((call) => call.body)).toEqual([
      { accepted: false, reason: '' },
      { accepted: false, reason: 'Blurred' },
    ]);
  });
});
