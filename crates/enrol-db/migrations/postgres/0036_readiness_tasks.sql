-- Ready for training (issue 29, decision 032): what a course asks of each
-- booked student (`course.readiness`, JSON from its content: forms,
-- documents, days before training they are due), and the tasks a paid
-- booking gets for it, once per booking, course and form or document. A
-- guest's booking has no account yet: its tasks join the account that
-- proves the booking's email, as the booking does. A cancelled booking's
-- tasks are closed, not deleted: what was sent stays for the record.

alter table course add column readiness text;

alter table user_form alter column user_id drop not null;
alter table user_form add column course_id text;
alter table user_form add column closed_at timestamptz;
create unique index user_form_once on user_form (enrollment_id, course_id, kind) where course_id is not null;
create index user_form_by_enrollment on user_form (enrollment_id);

alter table upload_request alter column user_id drop not null;
alter table upload_request add column course_id text;
alter table upload_request add column closed_at timestamptz;
create unique index upload_request_once on upload_request (enrollment_id, course_id, title) where course_id is not null;
create index upload_request_by_enrollment on upload_request (enrollment_id);
