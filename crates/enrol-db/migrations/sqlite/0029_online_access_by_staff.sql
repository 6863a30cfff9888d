-- no-transaction
-- SQLite twin of migrations/postgres/0029_online_access_by_staff.sql. The
-- registrations are rebuilt (SQLite cannot let a column be null), which
-- needs foreign keys off outside a transaction; the rest runs in one
-- transaction of its own.
pragma foreign_keys = off;
begin;

create table online_registration_new (
    id text primary key,
    user_id text constraint online_registration_user_fk references user_account (id),
    -- None for a course staff granted.
    online_order_id text constraint online_registration_order_fk references online_order (id),
    course_id text not null,
    course_title text not null,
    coassemble_course_id text,
    coassemble_group_id text,
    complete boolean not null default false,
    removed boolean not null default false,
    created_at text not null default current_timestamp,
    starts_at text not null,
    ends_at text not null,
    revoked_at text,
    completed_at text,
    granted_by text constraint online_registration_granted_by_fk references staff_account (id),
    revoke_reason text,
    constraint online_registration_once unique (online_order_id, course_id)
);
insert into online_registration_new
select id, user_id, online_order_id, course_id, course_title, coassemble_course_id, coassemble_group_id, complete, removed,
       created_at, starts_at, ends_at, revoked_at, completed_at, null, null
from online_registration;
drop table online_registration;
alter table online_registration_new rename to online_registration;
create index online_registration_by_user on online_registration (user_id, course_id);
create index online_registration_by_course on online_registration (course_id);

create table online_refund_line (
    online_order_id text not null constraint online_refund_line_order_fk references online_order (id),
    line integer not null,
    amount integer not null constraint online_refund_line_amount_positive check (amount >= 0),
    refunded_at text not null,
    primary key (online_order_id, line)
);

commit;
pragma foreign_keys = on;
