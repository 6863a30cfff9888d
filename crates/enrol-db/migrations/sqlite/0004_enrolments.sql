-- SQLite twin of migrations/postgres/0004_enrolments.sql.
-- Enrolling on in-person courses: the order (enrollment), the seats it
-- holds while the visitor pays, the registrations a payment makes, and the
-- payment-plan requests of the checkout page.

create table enrollment (
    id text primary key,
    status text not null default 'pending'
        constraint enrollment_status_known check (status in ('pending', 'deposit', 'completed', 'failed')),
    -- 'fee': the booking fee now, the balance later; 'full': everything now.
    mode text not null constraint enrollment_mode_known check (mode in ('fee', 'full')),
    subtotal integer not null,
    discount integer not null default 0,
    total integer not null constraint enrollment_total_not_negative check (total >= 0),
    deposit integer not null,
    balance integer not null,
    deposit_required boolean not null,
    discount_code text constraint enrollment_discount_code_fk references discount_code (code),
    -- The courses as priced: [{courseId, sessionId, includeKit, title, url, date, type, kitName, amount}] (JSON).
    lines text not null,
    -- Marketing source data and the payment account mode (JSON object).
    metadata text not null default '{}',
    given_name text not null,
    family_name text not null,
    email text not null,
    contact_number text not null,
    payment_method text not null,
    user_id text constraint enrollment_user_fk references user_account (id),
    payment_intent_id text,
    -- Every held session became a registration.
    registered boolean not null default false,
    -- A person must call the student (a paid order whose seat was gone).
    call boolean not null default false,
    created_at text not null default current_timestamp,
    paid_at text
);

create index enrollment_by_payment_intent on enrollment (payment_intent_id);

-- A seat kept for an unpaid enrollment until `expires_at`.
create table seat_hold (
    enrollment_id text not null constraint seat_hold_enrollment_fk references enrollment (id) on delete cascade,
    session_id text not null constraint seat_hold_session_fk references session (id),
    expires_at text not null,
    constraint seat_hold_pkey primary key (enrollment_id, session_id)
);

create index seat_hold_by_session on seat_hold (session_id, expires_at);

create table registration (
    id text primary key,
    event_id text not null,
    enrollment_id text not null constraint registration_enrollment_fk references enrollment (id),
    session_id text not null constraint registration_session_fk references session (id),
    status text not null default 'active',
    type text not null constraint registration_type_known check (type in ('STUDENT', 'MODEL', 'CANCELLED')),
    user_id text constraint registration_user_fk references user_account (id),
    created_at text not null default current_timestamp,
    constraint registration_once unique (enrollment_id, session_id)
);

alter table payment add column enrollment_id text constraint payment_enrollment_fk references enrollment (id);
