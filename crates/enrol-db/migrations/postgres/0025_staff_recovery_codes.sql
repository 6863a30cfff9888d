-- Single-use recovery codes, which sign a staff member in instead of an
-- authenticator code: made at set-up (and again on request, which voids
-- the last set), shown once, kept only as SHA-256 hashes of 80 random bits.
create table staff_recovery_code (
    code_hash text primary key,
    staff_id text not null constraint staff_recovery_code_staff_fk references staff_account (id) on delete cascade,
    created_at timestamptz not null,
    -- When it signed someone in: a code is good once.
    used_at timestamptz
);
create index staff_recovery_code_by_staff on staff_recovery_code (staff_id);
