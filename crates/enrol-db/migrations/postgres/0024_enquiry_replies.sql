-- Replies staff send an enquirer from the enquiry's page: each is mailed
-- through the outbox in the transaction that keeps it here, with who sent
-- it, when, to whom and what it said.
create table enquiry_reply (
    id text primary key,
    submission_id text not null constraint enquiry_reply_submission_fk references form_submission (id) on delete cascade,
    staff_id text not null constraint enquiry_reply_staff_fk references staff_account (id),
    at timestamptz not null,
    to_address text not null,
    subject text not null,
    body text not null
);
create index enquiry_reply_by_submission on enquiry_reply (submission_id, at);
