import type { AccountData } from '../generated/AccountData';
import { jsonResponse, stubApi, type Answer } from './api-stub';
import { amaraData, signedIn } from './auth-fixtures';

// Amara's account area as the server answers it: her bookings, payments and
// online courses (`GET /api/account`) and her records (`POST /api/graphql`).

export const account: AccountData = {
  user: amaraData,
  enrollments: [
    {
      id: 'order-1', reference: 'B-Z20KM', status: 'deposit', discount: 0, total: 103000, paid: 20000, refunded: 0, balance: 83000, balanceDueOn: '2026-12-29',
      createdAt: '2026-11-02T10:15:00',
      lines: [
        { title: 'Microneedling Course', courseUrl: '/courses/aesthetics/microneedling/', date: '2027-01-12', sessionType: 'onsite', kitName: 'Microneedling starter kit', amount: 89000 },
        { title: 'Aesthetic Complications', courseUrl: '/courses/cpd/aesthetic-complications/', date: null, sessionType: null, kitName: null, amount: 14000 },
      ],
    },
    { id: 'order-2', reference: 'B-MPM59', status: 'completed', discount: 0, total: 29500, paid: 29500, refunded: 0, balance: 0, balanceDueOn: null, createdAt: '2026-10-01T09:00:00', lines: [] },
    { id: 'order-3', reference: 'B-7K3P9', status: 'pending', discount: 0, total: 29500, paid: 0, refunded: 0, balance: 29500, balanceDueOn: null, createdAt: '2026-09-01T09:00:00', lines: [] },
    { id: 'order-4', reference: 'B-4HX2M', status: 'failed', discount: 0, total: 29500, paid: 0, refunded: 0, balance: 29500, balanceDueOn: null, createdAt: '2026-08-01T09:00:00', lines: [] },
  ],
  payments: [
    { id: 'p1', amount: 20000, status: 'succeeded', method: 'card', createdAt: '2026-11-02T10:16:00', receipt: 'RCT-000003', creditNotes: [] },
    {
      id: 'p2', amount: 29500, status: 'succeeded', method: 'afterpay_clearpay', createdAt: '2026-10-01T09:01:00', receipt: 'RCT-000002',
      creditNotes: [{ number: 'CRN-000001', amount: 5000 }],
    },
    { id: 'p3', amount: 4999, status: 'succeeded', method: 'sandbox', createdAt: '2026-07-14T18:30:00', receipt: null, creditNotes: [] },
  ],
  onlineCourses: [
    {
      orderReference: 'E-1ABCD', courseId: 'e1', title: 'Skin Science Online', complete: true, playerUrl: '/learn/e1/',
      access: { state: 'expired', ended: '2026-11-20' }, percent: 100,
    },
    {
      orderReference: 'E-2ABCD', courseId: 'e2', title: 'Lash Lift Online', complete: false, playerUrl: '/learn/e2/',
      access: { state: 'active', until: '2027-03-10' }, percent: 40,
    },
    {
      orderReference: 'E-3ABCD', courseId: 'e3', title: 'Brow Lamination Online', complete: false, playerUrl: '/learn/e3/',
      access: { state: 'revoked' }, percent: 0,
    },
  ],
};

/** A booking with a discount, cancelled in its cooling-off period: its booking fee came back. */
export const cancelledBooking: AccountData = {
  ...account,
  enrollments: [
    {
      id: 'order-5', reference: 'B-QW3E8', status: 'cancelled', discount: 9000, total: 81000, paid: 0, refunded: 10000, balance: 0, balanceDueOn: null,
      createdAt: '2026-11-20T12:00:00',
      lines: [{ title: 'Microneedling Course', courseUrl: '/courses/aesthetics/microneedling/', date: '2027-01-12', sessionType: 'onsite', kitName: null, amount: 90000 }],
    },
  ],
};

export const empty: AccountData = { user: amaraData, enrollments: [], payments: [], onlineCourses: [] };

/** What the GraphQL reads of the account area answer, whichever fields a query asks for. */
export const records = {
  user: [amaraData],
  registrations: [
    { id: 'r1', event_id: 'e1', enrollment_id: 'order-1', session_id: 's1', status: 'active', type: 'STUDENT', user_id: 'u-amara', course_title: 'Microneedling Course', course_url: '/courses/aesthetics/microneedling/', date: '2027-01-12', start: '2027-01-12T09:30:00', end: '2027-01-12T16:30:00', session_type: 'onsite', upcoming: true },
    { id: 'r0', event_id: 'e0', enrollment_id: 'order-0', session_id: 's0', status: 'active', type: 'STUDENT', user_id: 'u-amara', course_title: 'Anatomy Day', course_url: '/courses/cpd/anatomy/', date: '2026-01-12', start: '2026-01-12T09:30:00', end: '2026-01-12T16:30:00', session_type: 'onsite', upcoming: false },
  ],
  forms: [
    {
      id: 'f-medical', kind: 'medical', enrollment_id: 'order-1', course_title: 'Microneedling Course', client_complete: false, completed_at: null, due_on: '2027-01-05',
      responses: [{ question: 'conditions', answer: 'no' }],
      questions: [
        { key: 'conditions', label: 'Do you have a medical condition we should know about?', kind: 'yes_no', required: true, hint: null },
        { key: 'medication', label: 'Medication you take', kind: 'text', required: false, hint: 'Leave blank if none' },
        { key: 'emergency_contact', label: 'Emergency contact: name and phone number', kind: 'text', required: true, hint: null },
      ],
    },
    { id: 'f-consultation', kind: 'consultation', enrollment_id: 'order-1', course_title: 'Microneedling Course', client_complete: true, completed_at: '2026-11-03T10:00:00', due_on: '2027-01-05', responses: [], questions: [] },
  ],
  intake_calls: [],
  certificates: [{ id: 'c1', number: 'EA-2026-04821', holder_name: 'Amara Okafor', course_title: 'Foundation Skin Science', issued_on: '2026-05-08', revoked: false }],
  uploads: [{ id: 'req-1', enrollment_id: 'order-1', title: 'Level 2 certificate', description: 'A copy of your Level 2 qualification.', status: 'requested', reason: '', due_on: '2027-01-05', uploads: [] }],
};

export function accountApi(answers: Record<string, Answer>) {
  return stubApi({
    'GET /api/auth/session': () => jsonResponse(200, signedIn),
    'POST /api/graphql': () => jsonResponse(200, { data: records }),
    ...answers,
  });
}

