-- Orders, seats, codes and accounts that nobody can take over, overbook or
-- overspend (issue 10, decision 009).

-- Who may open an order: the browser that made it (the SHA-256 of its
-- httpOnly buyer cookie) or its signed-in owner. `client_key` is the
-- address it came from, for the limit on live holds per client.
alter table enrollment add column owner_token_hash text;
alter table enrollment add column client_key text;
-- Until when its seats (and its discount code use) are kept, and the
-- latest that renewals may ever push this to.
alter table enrollment add column held_until timestamptz;
alter table enrollment add column hold_ends_at timestamptz;
-- The order counts one use of its discount code while this is true: from
-- creation until the hold runs out or the payment fails; payment keeps it.
alter table enrollment add column code_reserved boolean not null default false;
create index enrollment_by_client on enrollment (client_key, status);
create index enrollment_by_email on enrollment (email);

alter table online_order add column owner_token_hash text;
alter table online_order drop constraint online_order_status_known;
alter table online_order add constraint online_order_status_known check (status in ('pending', 'processing', 'paid', 'failed'));

-- The payment intents each browser prepared, and the order each may pay.
create table checkout_intent (
    id text primary key,
    owner_token_hash text not null,
    enrollment_id text constraint checkout_intent_enrollment_fk references enrollment (id),
    created_at timestamptz not null
);

-- A row per client to lock while its live holds are counted.
create table hold_client (
    client_key text primary key
);

-- Bumped whenever seats are held, released or taken, so pages showing
-- seats left are rendered again.
create table availability_version (
    id integer primary key constraint availability_version_single check (id = 1),
    version bigint not null
);
insert into availability_version (id, version) values (1, 1);

-- Money given back: decided in the transaction that found it due, sent to
-- the payment provider afterwards (retried until it succeeds).
create table refund (
    id text primary key,
    payment_id text not null constraint refund_payment_fk references payment (id),
    amount bigint not null constraint refund_amount_positive check (amount > 0),
    reason text not null,
    status text not null default 'pending' constraint refund_status_known check (status in ('pending', 'succeeded')),
    provider_refund_id text,
    attempts integer not null default 0,
    last_error text,
    created_at timestamptz not null,
    completed_at timestamptz
);
create index refund_pending on refund (status, created_at);

-- The first answer to a request sent with an `Idempotency-Key`, replayed
-- for the same key from the same browser.
create table idempotency_record (
    owner text not null,
    key text not null,
    request_hash text not null,
    status_code integer,
    response_body text,
    created_at timestamptz not null,
    constraint idempotency_record_pkey primary key (owner, key)
);

-- The sandbox's hosted checkout remembers its buyer, as Stripe's does.
alter table sandbox_checkout add column customer_email text;
alter table sandbox_checkout add column customer_name text;

-- Accounts own only what their owner proved.
alter table user_account add column email_verified_at timestamptz;
create table email_verification (
    token_hash text primary key,
    user_id text not null constraint email_verification_user_fk references user_account (id) on delete cascade,
    expires_at timestamptz not null
);

-- Sign-in attempts per email in a fixed window, counted before the
-- password is checked.
drop table sign_in_failure;
create table sign_in_throttle (
    email text primary key,
    window_started_at timestamptz not null,
    attempts bigint not null
);

-- A guest purchase is linked to an account only once its email is proven.
alter table online_registration alter column user_id drop not null;
