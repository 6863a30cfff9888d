-- Feedback after the day (issue 29, decision 034). `event_feedback` had no
-- behaviour and no rows; it is made again as one row per student (booking)
-- and date: asked for when attendance is first marked (the row and its mail
-- in one transaction, so once however often and wherever it is marked),
-- answered once through the mailed link's token (kept hashed), and, only
-- with the student's consent, published by staff on the course page.
drop table event_feedback;

create table event_feedback (
    id text primary key,
    session_id text not null constraint event_feedback_session_fk references session (id),
    enrollment_id text not null constraint event_feedback_enrollment_fk references enrollment (id),
    -- SHA-256 of the mailed link's token, hex.
    token_hash text not null constraint event_feedback_token_key unique,
    requested_at timestamptz not null,
    rating integer constraint event_feedback_rating_known check (rating between 1 and 5),
    comment text not null default '',
    may_publish boolean not null default false,
    answered_at timestamptz,
    published_at timestamptz,
    published_by text constraint event_feedback_published_by_fk references staff_account (id),
    constraint event_feedback_once unique (session_id, enrollment_id),
    constraint event_feedback_answered check ((rating is null) = (answered_at is null)),
    constraint event_feedback_publish_consented check (published_at is null or (may_publish and rating is not null))
);
create index event_feedback_published on event_feedback (published_at) where published_at is not null;

-- A rating of 3 or lower puts an item in the inbox, beside the enquiries.
alter table form_submission drop constraint form_submission_kind_known;
alter table form_submission add constraint form_submission_kind_known check (kind in ('contact', 'callback', 'business', 'models', 'finance', 'feedback'));
