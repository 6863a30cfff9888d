// The shapes of `/api/admin/…` (decision 017) under the back office's own
// names: the server's types, generated from Rust by ts-rs (`make types`).
// Only the narrowing of a document to the body of its kind is the
// browser's own.

import type { AdminSession } from '../../generated/AdminSession';
import type { ContentBody } from '../../generated/ContentBody';
import type { ContentDocument as AnyContentDocument } from '../../generated/ContentDocument';

export type { Role } from '../../generated/Role';
export type { Permission } from '../../generated/Permission';
export type { StaffView as Staff } from '../../generated/StaffView';
export type { StaffSession } from '../../generated/StaffSession';
export type { SetUp } from '../../generated/SetUp';
export type { StaffInvitation as Invitation } from '../../generated/StaffInvitation';
export type { StaffRow as StaffMember } from '../../generated/StaffRow';
export type { NameRow as StaffName } from '../../generated/NameRow';
export type { AuditView as AuditEntry } from '../../generated/AuditView';
export type { AuditPage } from '../../generated/AuditPage';
export type { SessionType } from '../../generated/SessionType';
export type { AdminSession as Session };
export type { AdminSessions } from '../../generated/AdminSessions';
export type { SessionForm as SessionDetails } from '../../generated/SessionForm';
export type { CourseChoice as Course } from '../../generated/CourseChoice';
export type { SectionChoice as Section } from '../../generated/SectionChoice';
export type { Tutor } from '../../generated/Tutor';
export type { Takings as Figures } from '../../generated/Takings';
export type { OnlineSales } from '../../generated/OnlineSales';
export type { Dashboard } from '../../generated/Dashboard';
export type { RosterStudent } from '../../generated/RosterStudent';
export type { Roster } from '../../generated/Roster';
export type { BookingReadiness } from '../../generated/BookingReadiness';
export type { ReviewDocument } from '../../generated/ReviewDocument';
export type { ReviewForm } from '../../generated/ReviewForm';
export type { EnrollmentStatus as OrderStatus } from '../../generated/EnrollmentStatus';
export type { OrderRow } from '../../generated/OrderRow';
export type { OrdersPage } from '../../generated/OrdersPage';
export type { LineView as OrderLine } from '../../generated/LineView';
export type { OfflineMethod } from '../../generated/OfflineMethod';
export type { PaymentView as Payment } from '../../generated/PaymentView';
export type { RefundView as Refund } from '../../generated/RefundView';
export type { MailView as Mail } from '../../generated/MailView';
export type { OrderView as Order } from '../../generated/OrderView';
export type { AgreedConsent } from '../../generated/AgreedConsent';
export type { PlanStatus } from '../../generated/PlanStatus';
export type { PartStatus } from '../../generated/PartStatus';
export type { PartView as PlanPart } from '../../generated/PartView';
export type { NextCharge } from '../../generated/NextCharge';
export type { PlanView as Plan } from '../../generated/PlanView';
export type { PlanRow } from '../../generated/PlanRow';
export type { Plans } from '../../generated/Plans';
export type { PlanAnswer } from '../../generated/PlanAnswer';
export type { PlanSettings } from '../../generated/PlanSettings';
export type { PlanSettingsAnswer } from '../../generated/PlanSettingsAnswer';
export type { MovePartRequest } from '../../generated/MovePartRequest';
export type { OnlineOrderStatus } from '../../generated/OnlineOrderStatus';
export type { OnlineOrderRow } from '../../generated/OnlineOrderRow';
export type { OnlineOrders } from '../../generated/OnlineOrders';
export type { OnlineLineView as OnlineLine } from '../../generated/OnlineLineView';
export type { OnlineOrderView as OnlineOrder } from '../../generated/OnlineOrderView';
export type { LearnerView as Learner } from '../../generated/LearnerView';
export type { Learners } from '../../generated/Learners';
export type { Access } from '../../generated/Access';
export type { DiscountType as CodeType } from '../../generated/DiscountType';
export type { CodeState } from '../../generated/CodeState';
export type { CodeAnswer as Code } from '../../generated/CodeAnswer';
export type { UpsellRecord as Upsell } from '../../generated/UpsellRecord';
export type { MediaRecord as MediaItem } from '../../generated/MediaRecord';
export type { PackImage } from '../../generated/PackImage';
export type { MediaLibrary } from '../../generated/MediaLibrary';
export type { CourseFileListing as CourseFile } from '../../generated/CourseFileListing';
export type { CourseFileLibrary } from '../../generated/CourseFileLibrary';
export type { CourseFileUse } from '../../generated/CourseFileUse';
export type { CourseMaterial } from '../../generated/CourseMaterial';
export type { CourseMaterials } from '../../generated/CourseMaterials';
export type { EnquiryStatus } from '../../generated/EnquiryStatus';
export type { EnquiryKind } from '../../generated/EnquiryKind';
export type { InboxEnquiry as Enquiry } from '../../generated/InboxEnquiry';
export type { EnquiryReply } from '../../generated/EnquiryReply';
export type { FeedbackResults } from '../../generated/FeedbackResults';
export type { FeedbackDay } from '../../generated/FeedbackDay';
export type { GivenFeedback } from '../../generated/GivenFeedback';
export type { ContentListItem } from '../../generated/ContentListItem';
export type { ContentRevision } from '../../generated/ContentRevision';
export type { DatePrice } from '../../generated/DatePrice';

/** One document as `GET /content/{kind}/{key}` answers it, its bodies those of its kind. */
export type ContentDocument<B = ContentBody> = Omit<AnyContentDocument, 'published' | 'draft'> & { published: B; draft: B | null };
