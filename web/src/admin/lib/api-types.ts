// The shapes of `/api/admin/…` as decision 017 gives them: camelCase JSON,
// amounts in pence, dates `YYYY-MM-DD`, times `HH:MM`, instants RFC 3339.
// Written by hand until the server's types are generated (ts-rs), as the
// public site's are.

import type { ContentBody } from '../../generated/ContentBody';
import type { ContentKind } from '../../generated/ContentKind';

export type Role = 'owner' | 'staff' | 'tutor' | 'editor';

/** What a role may do, as `enrol_domain::staff::Permission` names it. */
export type Permission = 'manage_staff' | 'audit' | 'sessions' | 'rosters' | 'orders' | 'money' | 'codes' | 'enquiries' | 'figures' | 'content';

export interface Staff {
  id: string;
  email: string;
  name: string;
  role: Role;
  permissions: Permission[];
}

/** The answer of `GET /session` and a sign-in. */
export interface StaffSession {
  staff: Staff;
}

/** A completed set-up: the session, and the recovery codes, shown once. */
export interface SetUp extends StaffSession {
  recoveryCodes: string[];
}

export interface Invitation {
  email: string;
  name: string;
  role: Role;
  secret: string;
  otpauthUri: string;
  qrSvg: string;
}

export interface StaffMember {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

export interface StaffName {
  id: string;
  name: string;
}

export interface AuditEntry {
  /** The audit log's row number: newer rows have larger ones. */
  id: number;
  at: string;
  actorName: string;
  actorEmail: string;
  action: string;
  entity: string;
  entityId: string;
  before: unknown;
  after: unknown;
  /** What it did, in words made from `action`, `before` and `after` by the server: 'Refund of £50.00'. */
  summary: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** The `before` of the next (older) page; null on the last. */
  next: number | null;
}

export type SessionType = 'onsite' | 'virtual' | 'blended';

export interface Session {
  id: string;
  courseId: string;
  courseTitle: string;
  date: string;
  startTime: string;
  endTime: string;
  type: SessionType;
  price: number;
  seats: number;
  /** Students on its roster: paid bookings, a deposit or in full, not cancelled. */
  booked: number;
  /** Seats counted as taken with no booking on this site behind them (a content pack's bookings made before the site). */
  takenElsewhere: number;
  held: number;
  waiting: number;
  offered: number;
  status: string;
  venue: string;
  joiningLink: string | null;
  tutorId: string | null;
}

/** What `POST /sessions` takes; `PUT /sessions/{id}` takes it without `courseId`. */
export type SessionDetails = Omit<Session, 'id' | 'courseTitle' | 'booked' | 'takenElsewhere' | 'held' | 'waiting' | 'offered' | 'status'>;

export interface Course {
  id: string;
  title: string;
  online: boolean;
}

/** A course section, which a discount code may be limited to. */
export interface Section {
  slug: string;
  title: string;
}

export interface Tutor {
  id: string;
  name: string;
}

export interface Figures {
  bookings: number;
  takings: number;
}

/** E-learning orders paid in a period, and what they came to in pence. */
export interface OnlineSales {
  orders: number;
  amount: number;
}

export interface Dashboard {
  week: Figures;
  month: Figures;
  online: { week: OnlineSales; month: OnlineSales };
  upcoming: Session[];
  balances: { count: number; amount: number; overdueCount: number; overdueAmount: number };
  /** Enquiries nobody has picked up yet (status `new`). */
  enquiries: { new: number };
}

export interface RosterStudent {
  enrollmentId: string;
  name: string;
  email: string;
  phone: string;
  formsComplete: boolean;
  balancePaid: boolean;
  balanceDue: number;
  /** The kit's name when one comes with the booking. */
  kit: string | null;
  attended: boolean | null;
  /** The number of the certificate issued for this session, if any. */
  certificate: string | null;
}

export interface Roster {
  session: Session;
  students: RosterStudent[];
}

export type OrderStatus = 'pending' | 'deposit' | 'completed' | 'failed' | 'cancelled';

export interface OrderRow {
  id: string;
  /** `B-7K3P9`: what the student reads out. */
  reference: string;
  createdAt: string;
  name: string;
  email: string;
  courses: string[];
  total: number;
  paid: number;
  status: OrderStatus;
}

export interface OrderLine {
  courseId: string;
  title: string;
  sessionId: string | null;
  date: string | null;
  type: SessionType | null;
  kit: string | null;
  amount: number;
}

export type OfflineMethod = 'bank_transfer' | 'card_by_phone' | 'cash';

export interface Payment {
  id: string;
  amount: number;
  method: string;
  status: string;
  reference: string | null;
  createdAt: string;
}

export interface Refund {
  id: string;
  amount: number;
  status: string;
  reason: string;
  createdAt: string;
  /** Of money taken by hand: a person pays it back and records it. */
  byHand: boolean;
}

export interface Mail {
  id: string;
  to: string;
  subject: string;
  createdAt: string;
  sentAt: string | null;
}

export interface Order {
  id: string;
  /** `B-7K3P9`: what the student reads out. */
  reference: string;
  status: OrderStatus;
  mode: string;
  createdAt: string;
  name: string;
  email: string;
  phone: string;
  total: number;
  paid: number;
  balance: number;
  balanceDueOn: string | null;
  discountCode: string | null;
  lines: OrderLine[];
  payments: Payment[];
  refunds: Refund[];
  holds: { sessionId: string; expiresAt: string }[];
  mails: Mail[];
  audit: AuditEntry[];
  /** What the buyer agreed to at checkout, word for word. */
  agreed: AgreedConsent[];
}

/** One thing a buyer agreed to at checkout (decision 020). */
export interface AgreedConsent {
  kind: 'terms' | 'digital_content' | 'entry_requirements';
  courseId: string | null;
  version: string;
  wording: string;
  agreedAt: string;
}

export type CodeType = 'percent' | 'pound';

/** Whether a code can be used today (`enrol_domain::codes::CodeState`): past its last day or ended by staff, every use counted, or neither. */
export type CodeState = 'active' | 'expired' | 'usedUp';

export interface Code {
  code: string;
  type: CodeType;
  /** A percentage, or pence off. */
  value: number;
  expiresOn: string | null;
  maxUses: number | null;
  uses: number;
  active: boolean;
  courseIds: string[];
  sectionSlugs: string[];
  /** The server's reading of the above on today's date; not sent back. */
  state: CodeState;
}

export interface Upsell {
  priceId: string;
  title: string;
  description: string;
  cta: string;
  unitAmount: number;
}

/** An image in the media library (`GET /api/admin/media`). */
export interface MediaItem {
  key: string;
  /** Below `/media/`, as content names it: `uploads/<key>.<ext>`. */
  fileName: string;
  contentType: 'image/jpeg' | 'image/png' | 'image/webp' | 'image/svg+xml';
  width: number;
  height: number;
  bytes: number;
  alt: string;
  /** The file's name on the uploader's computer; null when not kept. */
  originalName: string | null;
  /** The staff member's id; null for an image loaded from a content pack. */
  uploadedBy: string | null;
  createdAt: string;
}

/** An image of the content pack itself, which content may name too. */
export interface PackImage {
  /** Below `/media/`, as content names it: `courses/chemical-peels.svg`. */
  fileName: string;
  width: number;
  height: number;
}

/** `GET /media`: the newest uploads, how many at most, and the pack's images. */
export interface MediaLibrary {
  media: MediaItem[];
  limit: number;
  pack: PackImage[];
}

export type EnquiryStatus = 'new' | 'in_progress' | 'done';
export type EnquiryKind = 'contact' | 'callback' | 'business' | 'models';

export interface Enquiry {
  id: string;
  kind: EnquiryKind;
  createdAt: string;
  name: string;
  email: string;
  phone: string;
  message: string;
  courses: string[];
  status: EnquiryStatus;
  ownerId: string | null;
  ownerName: string | null;
  notes: { at: string; staffName: string; text: string }[];
  /** The replies staff mailed, oldest first. */
  replies: EnquiryReply[];
}

export interface EnquiryReply {
  at: string;
  staffName: string;
  to: string;
  subject: string;
  text: string;
}

// Content (issue 15, decision 018): the documents' bodies are the server's
// own types (generated, snake_case, the content pack's fields); what wraps
// them is written here, snake_case too, as the lead's contract names it.

/** One document as `GET /content` lists it. */
export interface ContentListItem {
  kind: ContentKind;
  key: string;
  title: string;
  /** The public address, when it has one. */
  path: string | null;
  /** A draft is waiting to be published. */
  draft: boolean;
  /** Taken off the site, until it is published again. */
  withdrawn: boolean;
  /** A course sold as a package of courses. */
  package: boolean;
  version: number;
  updated_at: string;
}

export type RevisionAction = 'load' | 'publish' | 'revert' | 'withdraw';

export interface ContentRevision {
  version: number;
  action: RevisionAction;
  by: string | null;
  at: string;
}

/** One document as `GET /content/{kind}/{key}` answers it; revisions newest first. */
export interface ContentDocument<B = ContentBody> {
  kind: ContentKind;
  key: string;
  title: string;
  path: string | null;
  published: B;
  version: number;
  /** Taken off the site, until it is published again. */
  withdrawn: boolean;
  /** Whether it may be taken off the site now (never the site data, a section or a page the site is built around). */
  withdrawable: boolean;
  draft: B | null;
  /** Who saved the draft. */
  draft_by: string | null;
  draft_saved_at: string | null;
  revisions: ContentRevision[];
  /** A course's dates still to come; empty for other kinds. */
  dates: DatePrice[];
}

/** A course's date as its editor lists it: its price, and whether it is priced apart from the course. */
export interface DatePrice {
  session_id: string;
  date: string;
  price: number;
  own_price: boolean;
}
