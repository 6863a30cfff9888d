-- Online courses delivered (decision 025): a registration is access from
-- the payment to the end of the course's access period, ended early when
-- revoked; what a student has done of a course is theirs and the
-- course's, whichever registration gave them access.

alter table online_registration add column starts_at timestamptz;
alter table online_registration add column ends_at timestamptz;
update online_registration set starts_at = created_at, ends_at = created_at + interval '12 months';
alter table online_registration alter column starts_at set not null;
alter table online_registration alter column ends_at set not null;
-- Set when staff revoke access or the order is refunded.
alter table online_registration add column revoked_at timestamptz;
create index online_registration_by_user on online_registration (user_id, course_id);

-- A lesson completed: written once.
create table lesson_done (
    user_id text not null constraint lesson_done_user_fk references user_account (id) on delete cascade,
    course_id text not null,
    lesson text not null,
    done_at timestamptz not null,
    primary key (user_id, course_id, lesson)
);

-- Where the student was last in a course, moved only forward in time.
create table course_visit (
    user_id text not null constraint course_visit_user_fk references user_account (id) on delete cascade,
    course_id text not null,
    lesson text not null,
    visited_at timestamptz not null,
    primary key (user_id, course_id)
);

-- Every submitted attempt at a quiz, graded on the server.
create table quiz_attempt (
    id text primary key,
    user_id text not null constraint quiz_attempt_user_fk references user_account (id) on delete cascade,
    course_id text not null,
    quiz text not null,
    -- The answers as sent, by question key (JSON).
    answers text not null,
    score bigint not null constraint quiz_attempt_score_percent check (score between 0 and 100),
    passed boolean not null,
    submitted_at timestamptz not null
);
create index quiz_attempt_by_student on quiz_attempt (user_id, course_id, quiz);

-- An add-on offered beside a course may itself be an online course: it
-- names it, and buying the add-on gives that course's access too.
alter table upsell add column course_id text;
