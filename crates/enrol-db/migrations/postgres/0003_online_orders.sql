-- Buying e-learning: the buyer, their order, its payment and the course
-- access it grants; payment-provider events already handled; the sandbox
-- gateway's hosted checkouts and payment intents.

create table user_account (
    id text primary key,
    -- Lower-cased; one account per address.
    email text not null constraint user_account_email_key unique,
    given_name text not null default '',
    family_name text not null default '',
    contact_number text not null default '',
    -- The payment provider's customer id.
    stripe_id text,
    created_at timestamptz not null default current_timestamp
);

create table online_order (
    id text primary key,
    status text not null default 'pending' constraint online_order_status_known check (status in ('pending', 'paid')),
    -- The priced lines as the server built them (JSON).
    lines text not null,
    total bigint not null constraint online_order_total_positive check (total > 0),
    gateway text not null,
    checkout_session_id text constraint online_order_checkout_session_key unique,
    user_id text constraint online_order_user_fk references user_account (id),
    email text,
    created_at timestamptz not null default current_timestamp,
    paid_at timestamptz
);

create table payment (
    id text primary key,
    amount bigint not null,
    status text not null,
    currency text not null,
    -- The provider's payment id: one payment row per provider payment.
    transaction_id text not null constraint payment_transaction_key unique,
    invoice_id text,
    method text not null,
    metadata text not null,
    online_order_id text constraint payment_online_order_fk references online_order (id),
    user_id text constraint payment_user_fk references user_account (id),
    created_at timestamptz not null default current_timestamp
);

-- Course ids are kept without a foreign key: a course leaving the catalogue
-- must not take its buyers' records with it.
create table online_registration (
    id text primary key,
    user_id text not null constraint online_registration_user_fk references user_account (id),
    online_order_id text not null constraint online_registration_order_fk references online_order (id),
    course_id text not null,
    course_title text not null,
    coassemble_course_id text,
    coassemble_group_id text,
    complete boolean not null default false,
    removed boolean not null default false,
    created_at timestamptz not null default current_timestamp,
    constraint online_registration_once unique (online_order_id, course_id)
);

create table webhook_event (
    id text primary key,
    type text not null,
    received_at timestamptz not null default current_timestamp
);

create table sandbox_checkout (
    id text primary key,
    idempotency_key text not null constraint sandbox_checkout_idempotency_key unique,
    client_reference_id text not null,
    -- [{name, amount}] as shown on the hosted page (JSON).
    lines text not null,
    total bigint not null,
    success_url text not null,
    cancel_url text not null,
    metadata text not null,
    status text not null default 'open' constraint sandbox_checkout_status_known check (status in ('open', 'complete')),
    created_at timestamptz not null default current_timestamp
);

create table sandbox_payment_intent (
    id text primary key,
    idempotency_key text not null constraint sandbox_payment_intent_idempotency_key unique,
    client_secret text not null,
    amount bigint not null constraint sandbox_payment_intent_amount_positive check (amount > 0),
    status text not null default 'requires_payment_method',
    payment_method_types text not null,
    metadata text not null
);
