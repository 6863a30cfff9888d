-- no-transaction
-- SQLite twin of migrations/postgres/0026_online_course_access.sql. The
-- registrations are rebuilt (SQLite cannot make a new column not null),
-- which needs foreign keys off outside a transaction; the rest runs in one
-- transaction of its own.
pragma foreign_keys = off;
begin;

create table online_registration_new (
    id text primary key,
    user_id text constraint online_registration_user_fk references user_account (id),
    online_order_id text not null constraint online_registration_order_fk references online_order (id),
    course_id text not null,
    course_title text not null,
    coassemble_course_id text,
    coassemble_group_id text,
    complete boolean not null default false,
    removed boolean not null default false,
    created_at text not null default current_timestamp,
    starts_at text not null,
    ends_at text not null,
    -- Set when staff revoke access or the order is refunded.
    revoked_at text,
    constraint online_registration_once unique (online_order_id, course_id)
);
insert into online_registration_new
select id, user_id, online_order_id, course_id, course_title, coassemble_course_id, coassemble_group_id, complete, removed,
       created_at, created_at, strftime('%Y-%m-%dT%H:%M:%f+00:00', created_at, '+12 months'), null
from online_registration;
drop table online_registration;
alter table online_registration_new rename to online_registration;
create index online_registration_by_user on online_registration (user_id, course_id);

-- A lesson completed: written once.
create table lesson_done (
    user_id text not null constraint lesson_done_user_fk references user_account (id) on delete cascade,
    course_id text not null,
    lesson text not null,
    done_at text not null,
    primary key (user_id, course_id, lesson)
);

-- Where the student was last in a course, moved only forward in time.
create table course_visit (
    user_id text not null constraint course_visit_user_fk references user_account (id) on delete cascade,
    course_id text not null,
    lesson text not null,
    visited_at text not null,
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
    submitted_at text not null
);
create index quiz_attempt_by_student on quiz_attempt (user_id, course_id, quiz);

-- An add-on offered beside a course may itself be an online course: it
-- names it, and buying the add-on gives that course's access too.
alter table upsell add column course_id text;

commit;
pragma foreign_keys = on;
