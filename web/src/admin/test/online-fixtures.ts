import type { Learner, OnlineOrder, OnlineOrderRow } from '../lib/api-types';

// Online orders and their learners in decision 027's shapes, for the back
// office's tests.

export function onlineOrderRow(overrides: Partial<OnlineOrderRow> = {}): OnlineOrderRow {
  return {
    id: 'onl-1',
    reference: 'E-4HX2M',
    createdAt: '2026-11-02T10:00:00Z',
    name: 'Amelia Clarke',
    email: 'amelia@example.com',
    lines: ['Anatomy and Physiology Online', 'Hygiene Add-on'],
    total: 12400,
    paid: 12400,
    status: 'paid',
    ...overrides,
  };
}

export function learner(overrides: Partial<Learner> = {}): Learner {
  return {
    id: 'reg-1',
    name: 'Amelia Clarke',
    email: 'amelia@example.com',
    courseId: 'anatomy',
    courseTitle: 'Anatomy and Physiology Online',
    orderId: 'onl-1',
    orderReference: 'E-4HX2M',
    grantedBy: null,
    startsAt: '2026-11-02T10:01:00Z',
    lastDay: '2027-11-02',
    access: { state: 'active', until: '2027-11-02' },
    revokeReason: null,
    percent: 40,
    lastVisited: '2026-11-20T18:30:00Z',
    complete: false,
    completedAt: null,
    certificate: null,
    ...overrides,
  };
}

export function onlineOrder(overrides: Partial<OnlineOrder> = {}): OnlineOrder {
  return {
    id: 'onl-1',
    reference: 'E-4HX2M',
    status: 'paid',
    createdAt: '2026-11-02T10:00:00Z',
    paidAt: '2026-11-02T10:01:00Z',
    name: 'Amelia Clarke',
    email: 'amelia@example.com',
    total: 12400,
    paid: 12400,
    lines: [
      { index: 0, title: 'Anatomy and Physiology Online', addOn: false, amount: 9900, refunded: false },
      { index: 1, title: 'Hygiene Add-on', addOn: true, amount: 2500, refunded: false },
    ],
    payments: [{ id: 'pay-1', amount: 12400, method: 'card', status: 'succeeded', reference: 'pi_123', createdAt: '2026-11-02T10:01:00Z' }],
    refunds: [],
    mails: [{ id: 'mail-1', to: 'amelia@example.com', subject: 'Your order', createdAt: '2026-11-02T10:01:00Z', sentAt: '2026-11-02T10:02:00Z' }],
    audit: [],
    registrations: [learner(), learner({ id: 'reg-2', courseId: 'hygiene', courseTitle: 'Hygiene Online', percent: 0, lastVisited: null })],
    ...overrides,
  };
}
