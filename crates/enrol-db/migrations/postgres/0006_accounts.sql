-- Accounts (decision 008): passwords, sessions, sign-in throttling and
-- password resets. Tokens are kept only as their SHA-256.

alter table user_account add column password_hash text;

create table user_session (
    token_hash text primary key,
    user_id text not null constraint user_session_user_fk references user_account (id) on delete cascade,
    created_at timestamptz not null,
    expires_at timestamptz not null
);

create index user_session_by_user on user_session (user_id);

create table sign_in_failure (
    email text not null,
    failed_at timestamptz not null
);

create index sign_in_failure_by_email on sign_in_failure (email, failed_at);

create table password_reset (
    token_hash text primary key,
    user_id text not null constraint password_reset_user_fk references user_account (id) on delete cascade,
    expires_at timestamptz not null
);
