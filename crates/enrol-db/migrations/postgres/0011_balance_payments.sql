-- After the booking fee (issue 13, decision 015): when training starts and
-- when its balance is due, kept with the booking when it is paid; the
-- links that pay a balance without signing in; the intents that pay one;
-- the reminders sent, each once; and the leases scheduled jobs run under.

alter table enrollment add column starts_on date;
alter table enrollment add column balance_due_on date;

update enrollment e set starts_on = (
    select min((l.value ->> 'date')::date) from jsonb_array_elements(e.lines::jsonb) l where l.value ->> 'date' is not null
) where status in ('deposit', 'completed');
update enrollment set balance_due_on = greatest(starts_on - 14, least((coalesce(paid_at, created_at) at time zone 'Europe/London')::date, starts_on))
    where starts_on is not null;

create index enrollment_balance_due on enrollment (status, balance_due_on);

-- A mailed or account link that pays one booking's balance: the SHA-256 of
-- its random token, never the token itself.
create table balance_link (
    token_hash text primary key,
    enrollment_id text not null constraint balance_link_enrollment_fk references enrollment (id),
    expires_at timestamptz not null,
    created_at timestamptz not null
);

-- A payment intent prepared for a balance, for reconciliation.
create table balance_intent (
    id text primary key,
    enrollment_id text not null constraint balance_intent_enrollment_fk references enrollment (id),
    amount bigint not null constraint balance_intent_amount_positive check (amount > 0),
    created_at timestamptz not null
);
create index balance_intent_by_time on balance_intent (created_at);

-- Each reminder of a booking's balance, written in the transaction that
-- queues its mail: the primary key makes it once.
create table balance_reminder (
    enrollment_id text not null constraint balance_reminder_enrollment_fk references enrollment (id),
    stage text not null constraint balance_reminder_stage_known check (stage in ('upcoming', 'due', 'overdue')),
    sent_at timestamptz not null,
    constraint balance_reminder_pkey primary key (enrollment_id, stage)
);

-- Which instance runs a scheduled job, until when.
create table job_lease (
    name text primary key,
    holder text not null,
    expires_at timestamptz not null
);
