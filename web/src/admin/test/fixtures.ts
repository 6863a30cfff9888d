import type { AuditEntry, Code, Enquiry, Order, OrderRow, Permission, Plan, PlanRow, Role, RosterStudent, Session, Staff } from '../lib/api-types';

// What the back office's tests sign in as and are answered with, in decision
// 017's shapes.

/** As `Role::permissions` answers them. */
export const PERMISSIONS: Record<Role, Permission[]> = {
  owner: ['manage_staff', 'audit', 'sessions', 'rosters', 'orders', 'money', 'codes', 'enquiries', 'figures', 'content', 'readiness', 'medical_answers'],
  staff: ['audit', 'sessions', 'rosters', 'orders', 'money', 'codes', 'enquiries', 'figures', 'content', 'readiness'],
  tutor: ['rosters', 'readiness', 'medical_answers'],
  editor: ['content'],
};

export function staffMember(role: Role, overrides: Partial<Staff> = {}): Staff {
  return { id: `${role}-1`, email: `${role}@college.example`, name: `Priya ${role}`, role, permissions: PERMISSIONS[role], ...overrides };
}

export function session(overrides: Partial<Session> = {}): Session {
  return {
    id: 'ses-1',
    courseId: 'botox',
    courseTitle: 'Botox Foundation',
    date: '2026-12-15',
    startTime: '10:00',
    endTime: '16:00',
    type: 'onsite',
    price: 45000,
    seats: 16,
    booked: 12,
    takenElsewhere: 0,
    held: 2,
    waiting: 1,
    offered: 0,
    status: 'active',
    venue: 'Manchester, 1 King Street',
    joiningLink: '',
    tutorId: 'tutor-1',
    ...overrides,
  };
}

export function rosterStudent(overrides: Partial<RosterStudent> = {}): RosterStudent {
  return {
    enrollmentId: 'enr-1',
    name: 'Amara Okafor',
    email: 'amara@example.com',
    phone: '07700 900123',
    formsComplete: true,
    balancePaid: false,
    balanceDue: 20000,
    kit: 'Starter kit',
    attended: null,
    certificate: null,
    theoryPercent: null,
    entryMetOnline: null,
    documentsAsked: 0,
    documentsAccepted: 0,
    documentsWaiting: 0,
    entry: 'none',
    flagged: false,
    ready: false,
    ...overrides,
  };
}

export function auditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 41,
    at: '2026-11-20T10:15:00Z',
    actorName: 'Priya staff',
    actorEmail: 'staff@college.example',
    action: 'refund',
    entity: 'order',
    entityId: 'ord-7',
    before: { paid: 45000 },
    after: { paid: 40000 },
    summary: 'Refund of £50.00',
    ...overrides,
  };
}

export function orderRow(overrides: Partial<OrderRow> = {}): OrderRow {
  return {
    id: 'ord-7',
    reference: 'B-Z20KM',
    createdAt: '2026-11-01T09:30:00Z',
    name: 'Amara Okafor',
    email: 'amara@example.com',
    courses: ['Botox Foundation'],
    total: 45000,
    paid: 25000,
    status: 'deposit',
    ...overrides,
  };
}

export function order(overrides: Partial<Order> = {}): Order {
  return {
    id: 'ord-7',
    reference: 'B-Z20KM',
    status: 'deposit',
    mode: 'fee',
    createdAt: '2026-11-01T09:30:00Z',
    name: 'Amara Okafor',
    email: 'amara@example.com',
    phone: '07700 900123',
    total: 45000,
    paid: 25000,
    balance: 20000,
    balanceDueOn: '2026-12-01',
    discountCode: null,
    lines: [{ courseId: 'botox', title: 'Botox Foundation', sessionId: 'ses-1', date: '2026-12-15', type: 'onsite', kit: null, amount: 45000 }],
    payments: [{ id: 'pay-1', amount: 25000, method: 'card', status: 'succeeded', reference: '', createdAt: '2026-11-01T09:31:00Z' }],
    refunds: [],
    holds: [],
    mails: [{ id: 'mail-1', to: 'amara@example.com', subject: 'Your booking', createdAt: '2026-11-01T09:32:00Z', sentAt: '2026-11-01T09:33:00Z' }],
    audit: [auditEntry()],
    agreed: [
      {
        kind: 'terms',
        courseId: null,
        version: '2026-11-26',
        wording: 'I accept the terms and conditions, including the cancellation policy.',
        agreedAt: '2026-11-01T09:31:00Z',
      },
    ],
    plan: null,
    ...overrides,
  };
}

/** An active plan of three parts, the first paid. */
export function plan(overrides: Partial<Plan> = {}): Plan {
  return {
    id: 'plan-1',
    status: 'active',
    card: 'Visa ending 4242',
    agreedOn: '2026-11-01',
    parts: [
      { number: 1, dueOn: '2026-12-01', amount: 6668, status: 'paid', attempts: 1, lastError: null, nextAttemptAt: null },
      { number: 2, dueOn: '2027-01-01', amount: 6666, status: 'scheduled', attempts: 0, lastError: null, nextAttemptAt: null },
      { number: 3, dueOn: '2027-02-01', amount: 6666, status: 'scheduled', attempts: 0, lastError: null, nextAttemptAt: null },
    ],
    nextCharge: { number: 2, on: '2027-01-01', amount: 6666 },
    needsAttention: false,
    ...overrides,
  };
}

export function planRow(overrides: Partial<Plan> = {}): PlanRow {
  return { orderId: 'ord-7', reference: 'B-Z20KM', student: 'Amara Okafor', email: 'amara@example.com', plan: plan(overrides) };
}

export function code(overrides: Partial<Code> = {}): Code {
  return { code: 'WINTER10', type: 'percent', value: 10, expiresOn: '2027-01-31', maxUses: 50, uses: 3, active: true, courseIds: [], sectionSlugs: [], state: 'active', ...overrides };
}

export function enquiry(overrides: Partial<Enquiry> = {}): Enquiry {
  return {
    id: 'enq-1',
    kind: 'callback',
    createdAt: '2026-11-20T10:15:00Z',
    name: 'Jo Bloggs',
    email: '',
    phone: '07700 900456',
    message: '',
    courses: ['Lip Filler'],
    status: 'new',
    ownerId: null,
    ownerName: null,
    notes: [{ at: '2026-11-20T11:00:00Z', staffName: 'Priya staff', text: 'Left a voicemail.' }],
    replies: [],
    ...overrides,
  };
}

export const COURSES = [
  { id: 'botox', title: 'Botox Foundation', online: false },
  { id: 'lips', title: 'Lip Filler', online: false },
  { id: 'theory', title: 'Aesthetics Theory', online: true },
];

export const TUTORS = [{ id: 'tutor-1', name: 'Dr Sam Lee' }];

export const STAFF_NAMES = [
  { id: 'staff-1', name: 'Priya staff' },
  { id: 'owner-1', name: 'Priya owner' },
];
