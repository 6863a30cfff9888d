-- no-transaction
-- SQLite twin of migrations/postgres/0014_cancellations.sql. SQLite cannot
-- change a check constraint in place: the table is rebuilt (as in 0007),
-- with foreign keys off outside a transaction, the rest in one of its own.
pragma foreign_keys = off;
begin;

-- Cancellations (issue 13, decision 015): a booking the student cancelled,
-- when, and what the terms refunded.
create table enrollment_new (
    id text primary key,
    status text not null default 'pending'
        constraint enrollment_status_known check (status in ('pending', 'deposit', 'completed', 'failed', 'cancelled')),
    mode text not null constraint enrollment_mode_known check (mode in ('fee', 'full')),
    subtotal integer not null,
    discount integer not null default 0,
    total integer not null constraint enrollment_total_not_negative check (total >= 0),
    deposit integer not null,
    balance integer not null,
    deposit_required boolean not null,
    discount_code text constraint enrollment_discount_code_fk references discount_code (code),
    lines text not null,
    metadata text not null default '{}',
    given_name text not null,
    family_name text not null,
    email text not null,
    contact_number text not null,
    payment_method text not null,
    user_id text constraint enrollment_user_fk references user_account (id),
    payment_intent_id text,
    registered boolean not null default false,
    call boolean not null default false,
    created_at text not null default current_timestamp,
    paid_at text,
    owner_token_hash text,
    client_key text,
    held_until text,
    hold_ends_at text,
    code_reserved boolean not null default false,
    starts_on text,
    balance_due_on text,
    cancelled_at text
);
insert into enrollment_new (id, status, mode, subtotal, discount, total, deposit, balance, deposit_required, discount_code, lines, metadata, given_name, family_name, email, contact_number, payment_method, user_id, payment_intent_id, registered, call, created_at, paid_at, owner_token_hash, client_key, held_until, hold_ends_at, code_reserved, starts_on, balance_due_on)
    select id, status, mode, subtotal, discount, total, deposit, balance, deposit_required, discount_code, lines, metadata, given_name, family_name, email, contact_number, payment_method, user_id, payment_intent_id, registered, call, created_at, paid_at, owner_token_hash, client_key, held_until, hold_ends_at, code_reserved, starts_on, balance_due_on from enrollment;
drop table enrollment;
alter table enrollment_new rename to enrollment;
create index enrollment_by_payment_intent on enrollment (payment_intent_id);
create index enrollment_by_client on enrollment (client_key, status);
create index enrollment_by_email on enrollment (email);
create index enrollment_balance_due on enrollment (status, balance_due_on);

commit;
pragma foreign_keys = on;
