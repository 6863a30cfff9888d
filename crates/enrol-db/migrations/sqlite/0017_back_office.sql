-- SQLite twin of migrations/postgres/0017_back_office.sql.
-- The back office (issue 14, decision 017): staff accounts with a second
-- factor, their sessions and set-up links (sign-in is throttled in
-- sign_in_throttle, keyed `staff:EMAIL`), the append-only audit log, and what staff keep on sessions (tutor, venue,
-- attendance), enquiries (status, owner, notes) and codes (the courses and
-- sections a code is limited to).

create table staff_account (
    id text primary key,
    email text not null constraint staff_account_email_key unique,
    name text not null,
    role text not null constraint staff_account_role_known check (role in ('owner', 'staff', 'tutor', 'editor')),
    password_hash text,
    -- The TOTP secret (base32), shown once at set-up.
    totp_secret text not null,
    -- The time step of the last code accepted: a code is good once.
    totp_last_step bigint,
    -- Set up (password and first code) and not disabled.
    active boolean not null default false,
    created_at text not null,
    disabled_at text,
    last_sign_in_at text
);

create table staff_setup (
    token_hash text primary key,
    staff_id text not null constraint staff_setup_staff_fk references staff_account (id) on delete cascade,
    expires_at text not null
);

create table staff_session (
    token_hash text primary key,
    staff_id text not null constraint staff_session_staff_fk references staff_account (id) on delete cascade,
    created_at text not null,
    last_seen_at text not null
);
create index staff_session_by_staff on staff_session (staff_id);

create table audit_log (
    id integer primary key autoincrement,
    at text not null,
    staff_id text not null constraint audit_log_staff_fk references staff_account (id),
    action text not null,
    entity text not null,
    entity_id text not null,
    before_data text,
    after_data text
);
create index audit_log_by_entity on audit_log (entity, entity_id, id);
create index audit_log_by_staff on audit_log (staff_id, id);

create trigger audit_log_no_update before update on audit_log
begin
    select raise(abort, 'audit_log is append-only');
end;
create trigger audit_log_no_delete before delete on audit_log
begin
    select raise(abort, 'audit_log is append-only');
end;

alter table session add column tutor_id text constraint session_tutor_fk references staff_account (id);
alter table session add column venue text not null default '';
-- Null until the tutor marks it.
alter table registration add column attended boolean;

alter table form_submission add column status text not null default 'new'
    constraint form_submission_status_known check (status in ('new', 'in_progress', 'done'));
alter table form_submission add column owner_id text constraint form_submission_owner_fk references staff_account (id);
create index form_submission_by_status on form_submission (status, created_at);

create table enquiry_note (
    id text primary key,
    submission_id text not null constraint enquiry_note_submission_fk references form_submission (id) on delete cascade,
    staff_id text not null constraint enquiry_note_staff_fk references staff_account (id),
    at text not null,
    body text not null
);
create index enquiry_note_by_submission on enquiry_note (submission_id, at);

create table discount_code_course (
    code text not null constraint discount_code_course_code_fk references discount_code (code) on delete cascade,
    course_id text not null constraint discount_code_course_course_fk references course (id) on delete cascade,
    constraint discount_code_course_pkey primary key (code, course_id)
);

create table discount_code_section (
    code text not null constraint discount_code_section_code_fk references discount_code (code) on delete cascade,
    section_slug text not null constraint discount_code_section_section_fk references section (slug) on delete cascade,
    constraint discount_code_section_pkey primary key (code, section_slug)
);
