-- no-transaction
-- SQLite twin of migrations/postgres/0036_readiness_tasks.sql. The forms
-- and document requests are rebuilt (SQLite cannot let a column be null),
-- which needs foreign keys off outside a transaction; the rest runs in one
-- transaction of its own.
pragma foreign_keys = off;
begin;

alter table course add column readiness text;

create table user_form_new (
    id text primary key,
    user_id text constraint user_form_user_fk references user_account (id),
    kind text not null constraint user_form_kind_known check (kind in ('consultation', 'medical')),
    enrollment_id text constraint user_form_enrollment_fk references enrollment (id),
    course_title text not null,
    client_complete boolean not null default false,
    completed_at text,
    created_at text not null,
    course_id text,
    closed_at text
);
insert into user_form_new
select id, user_id, kind, enrollment_id, course_title, client_complete, completed_at, created_at, null, null from user_form;
drop table user_form;
alter table user_form_new rename to user_form;
create index user_form_by_user on user_form (user_id);
create unique index user_form_once on user_form (enrollment_id, course_id, kind) where course_id is not null;
create index user_form_by_enrollment on user_form (enrollment_id);

create table upload_request_new (
    id text primary key,
    user_id text constraint upload_request_user_fk references user_account (id),
    enrollment_id text constraint upload_request_enrollment_fk references enrollment (id),
    title text not null,
    description text not null,
    status text not null default 'requested'
        constraint upload_request_status_known check (status in ('requested', 'received', 'accepted', 'rejected')),
    created_at text not null,
    course_id text,
    closed_at text
);
insert into upload_request_new
select id, user_id, enrollment_id, title, description, status, created_at, null, null from upload_request;
drop table upload_request;
alter table upload_request_new rename to upload_request;
create index upload_request_by_user on upload_request (user_id);
create unique index upload_request_once on upload_request (enrollment_id, course_id, title) where course_id is not null;
create index upload_request_by_enrollment on upload_request (enrollment_id);

commit;
pragma foreign_keys = on;
