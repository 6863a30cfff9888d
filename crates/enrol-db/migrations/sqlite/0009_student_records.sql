-- SQLite twin of migrations/postgres/0009_student_records.sql.
-- The student's records beyond the checkout (§3): the rest of the user's
-- server model, qualifications (programmes, units, cohorts and their
-- members, assignments, invitations), course materials and feedback,
-- certificates, referral links, forms and their answers, evidence uploads,
-- intake calls, model session purchases and credit. Read through
-- `POST /api/graphql`, every row scoped to its student.

alter table user_account add column title text;
alter table user_account add column gender text;
alter table user_account add column birthday text;
alter table user_account add column points integer not null default 0;
alter table user_account add column elearning_id text;

-- A change of a student's email waits for a link mailed to the new address.
create table email_change (
    token_hash text primary key,
    user_id text not null constraint email_change_user_fk references user_account (id) on delete cascade,
    new_email text not null,
    expires_at text not null
);

create table programme (
    id text primary key,
    title text not null,
    -- The Pathway to Aesthetics levels run from 4 to 7.
    level integer constraint programme_level_known check (level between 1 and 8)
);

create table unit (
    id text primary key,
    programme_id text not null constraint unit_programme_fk references programme (id) on delete cascade,
    title text not null,
    position integer not null
);

create index unit_by_programme on unit (programme_id, position);

create table cohort (
    id text primary key,
    name text not null,
    programme_id text constraint cohort_programme_fk references programme (id),
    starts_on text not null
);

create table cohort_member (
    cohort_id text not null constraint cohort_member_cohort_fk references cohort (id) on delete cascade,
    user_id text not null constraint cohort_member_user_fk references user_account (id),
    type text not null constraint cohort_member_type_known check (type in ('STUDENT', 'TUTOR', 'ASSESSOR', 'IQA')),
    constraint cohort_member_pkey primary key (cohort_id, user_id)
);

create index cohort_member_by_user on cohort_member (user_id);

-- An invitation to join a cohort, sent to an email address; it is the
-- student's once that address is their proven account email.
create table invitation (
    id text primary key,
    cohort_id text not null constraint invitation_cohort_fk references cohort (id) on delete cascade,
    email text not null,
    type text not null constraint invitation_type_known check (type in ('STUDENT', 'TUTOR', 'ASSESSOR', 'IQA')),
    invited_at text not null,
    accepted_at text
);

create index invitation_by_email on invitation (email);

create table assignment (
    id text primary key,
    unit_id text not null constraint assignment_unit_fk references unit (id),
    user_id text not null constraint assignment_user_fk references user_account (id),
    title text not null,
    status text not null default 'set' constraint assignment_status_known check (status in ('set', 'submitted', 'passed', 'referred')),
    due_on text,
    submitted_at text,
    feedback text
);

create index assignment_by_user on assignment (user_id);

create table event_material (
    id text primary key,
    event_id text not null constraint event_material_event_fk references event (id) on delete cascade,
    title text not null,
    url text not null,
    kind text not null constraint event_material_kind_known check (kind in ('document', 'video', 'link')),
    position integer not null
);

create index event_material_by_event on event_material (event_id, position);

create table event_feedback (
    id text primary key,
    session_id text not null constraint event_feedback_session_fk references session (id),
    user_id text not null constraint event_feedback_user_fk references user_account (id),
    rating integer not null constraint event_feedback_rating_known check (rating between 1 and 5),
    comment text not null default '',
    created_at text not null,
    constraint event_feedback_once unique (session_id, user_id)
);

-- A certificate keeps the holder's name and the course as issued: a later
-- change of name or course title must not change a certificate.
create table certificate (
    id text primary key,
    -- Printed on the certificate and checked at /certificates/{number}.
    number text not null constraint certificate_number_key unique,
    user_id text not null constraint certificate_user_fk references user_account (id),
    holder_name text not null,
    course_id text not null,
    course_title text not null,
    session_id text constraint certificate_session_fk references session (id),
    issued_on text not null,
    revoked boolean not null default false
);

create index certificate_by_user on certificate (user_id);

create table referral_link (
    user_id text primary key constraint referral_link_user_fk references user_account (id),
    code text not null constraint referral_link_code_key unique,
    created_at text not null
);

-- A form a course needs before training (consultation, medical), with the
-- student's answers; client_complete once they have answered it in full.
create table user_form (
    id text primary key,
    user_id text not null constraint user_form_user_fk references user_account (id),
    kind text not null constraint user_form_kind_known check (kind in ('consultation', 'medical')),
    enrollment_id text constraint user_form_enrollment_fk references enrollment (id),
    course_title text not null,
    client_complete boolean not null default false,
    completed_at text,
    created_at text not null
);

create index user_form_by_user on user_form (user_id);

create table form_response (
    user_form_id text not null constraint form_response_form_fk references user_form (id) on delete cascade,
    question text not null,
    answer text not null,
    constraint form_response_pkey primary key (user_form_id, question)
);

-- Evidence a course asks for (such as a Level 2 certificate), and the
-- files the student sent for it.
create table upload_request (
    id text primary key,
    user_id text not null constraint upload_request_user_fk references user_account (id),
    enrollment_id text constraint upload_request_enrollment_fk references enrollment (id),
    title text not null,
    description text not null,
    status text not null default 'requested'
        constraint upload_request_status_known check (status in ('requested', 'received', 'accepted', 'rejected')),
    created_at text not null
);

create index upload_request_by_user on upload_request (user_id);

create table upload (
    id text primary key,
    upload_request_id text constraint upload_request_fk references upload_request (id),
    user_id text not null constraint upload_user_fk references user_account (id),
    file_name text not null,
    content_type text not null,
    size_bytes integer not null constraint upload_size_positive check (size_bytes > 0),
    storage_key text not null constraint upload_storage_key unique,
    uploaded_at text not null
);

create index upload_by_user on upload (user_id);

-- A call with an adviser before a programme starts. One booking per slot.
create table intake_call (
    id text primary key,
    student_id text not null constraint intake_call_student_fk references user_account (id),
    date text not null,
    -- London wall-clock HH:MM.
    time text not null,
    status text not null default 'booked' constraint intake_call_status_known check (status in ('booked', 'done', 'cancelled')),
    created_at text not null
);

create unique index intake_call_slot_once on intake_call (date, time) where status = 'booked';
-- A student has one call booked at a time.
create unique index intake_call_one_booked on intake_call (student_id) where status = 'booked';
create index intake_call_by_student on intake_call (student_id);

create table model_session_purchase (
    id text primary key,
    user_id text not null constraint model_session_purchase_user_fk references user_account (id),
    session_id text not null constraint model_session_purchase_session_fk references session (id),
    amount integer not null constraint model_session_purchase_amount_not_negative check (amount >= 0),
    status text not null constraint model_session_purchase_status_known check (status in ('pending', 'paid', 'cancelled')),
    created_at text not null
);

create index model_session_purchase_by_user on model_session_purchase (user_id);

-- Money the college owes a student toward a later booking, in pence.
create table credit (
    id text primary key,
    user_id text not null constraint credit_user_fk references user_account (id),
    amount integer not null,
    reason text not null,
    created_at text not null
);

create index credit_by_user on credit (user_id);
