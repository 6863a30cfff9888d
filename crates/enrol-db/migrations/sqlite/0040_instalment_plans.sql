-- SQLite twin of migrations/postgres/0040_instalment_plans.sql.
-- Instalment plans (issue 30, decision 036): what the college allows
-- (one row), each booking's plan and its parts, and in the sandbox the
-- cards it saves and its setup intents. A part is charged once: the job
-- claims it with one conditional update of `status` and `attempts`; its
-- intent is kept for reconciliation in `balance_intent` as any balance
-- payment's is.

create table plan_settings (
    id integer primary key constraint plan_settings_one check (id = 1),
    max_instalments integer not null constraint plan_settings_count check (max_instalments between 2 and 12),
    -- JSON list of days between attempts.
    retry_days text not null,
    updated_at text not null
);

create table payment_plan (
    id text primary key,
    enrollment_id text not null constraint payment_plan_enrollment_fk references enrollment (id),
    status text not null constraint payment_plan_status_known
        check (status in ('awaiting_fee', 'active', 'paused', 'completed', 'cancelled')),
    customer text not null,
    payment_method text,
    card_label text,
    agreed_on text not null,
    created_at text not null,
    updated_at text not null
);
-- One live plan per booking; a cancelled one stays for the record.
create unique index payment_plan_one_live on payment_plan (enrollment_id) where status <> 'cancelled';

create table plan_instalment (
    id text primary key,
    plan_id text not null constraint plan_instalment_plan_fk references payment_plan (id),
    number integer not null,
    due_on text not null,
    amount integer not null constraint plan_instalment_amount_positive check (amount > 0),
    status text not null default 'scheduled' constraint plan_instalment_status_known
        check (status in ('scheduled', 'charging', 'retrying', 'failed', 'paid', 'cancelled')),
    attempts integer not null default 0,
    -- When the job last took it to charge.
    claimed_at text,
    next_attempt_at text,
    intent_id text,
    last_error text,
    -- When the one mail of a refusal went.
    refusal_mailed_at text,
    paid_at text,
    constraint plan_instalment_number unique (plan_id, number)
);
create index plan_instalment_due on plan_instalment (due_on) where status in ('scheduled', 'retrying');
create index plan_instalment_by_intent on plan_instalment (intent_id);

alter table sandbox_payment_intent add column customer text;
alter table sandbox_payment_intent add column save_card boolean not null default false;
alter table sandbox_payment_intent add column payment_method text;

create table sandbox_payment_method (
    id text primary key,
    customer text,
    -- What the sandbox's test card does: pays, needs the owner off-session, declined.
    behaviour text not null,
    last4 text not null,
    created_at text not null
);

create table sandbox_setup_intent (
    id text primary key,
    idempotency_key text not null unique,
    client_secret text not null,
    customer text not null,
    status text not null,
    payment_method text,
    metadata text not null,
    created_at text not null
);
