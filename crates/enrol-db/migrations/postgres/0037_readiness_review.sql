-- Ready for training, staff review (issue 29, decision 033). Medical
-- answers are special category data (UK GDPR): they move to a table of
-- their own, read only through the roles allowed, and removed after
-- training. A form remembers whether an answer asks for a call before
-- training, which staff see without the answer. A document request keeps
-- staff's verdict and the reason given to the student. Reminders of what
-- is left go once per booking, course and stage; each removal is recorded.

create table medical_answer (
    user_form_id text not null constraint medical_answer_form_fk references user_form (id) on delete cascade,
    question text not null,
    answer text not null,
    constraint medical_answer_pkey primary key (user_form_id, question)
);

insert into medical_answer (user_form_id, question, answer)
select a.user_form_id, a.question, a.answer from form_response a join user_form f on f.id = a.user_form_id where f.kind = 'medical';
delete from form_response where user_form_id in (select id from user_form where kind = 'medical');

alter table user_form add column flagged boolean not null default false;
update user_form set flagged = true
where exists (select 1 from medical_answer a where a.user_form_id = user_form.id and a.question in ('conditions', 'allergies', 'pregnant') and a.answer = 'yes');

alter table upload_request add column reason text not null default '';
alter table upload_request add column reviewed_at timestamptz;
alter table upload_request add column reviewed_by text;

create table task_reminder (
    enrollment_id text not null constraint task_reminder_enrollment_fk references enrollment (id),
    course_id text not null,
    stage text not null constraint task_reminder_stage_known check (stage in ('week', 'two_days')),
    sent_at timestamptz not null,
    constraint task_reminder_pkey primary key (enrollment_id, course_id, stage)
);

create table readiness_removal (
    enrollment_id text primary key constraint readiness_removal_enrollment_fk references enrollment (id),
    answers bigint not null,
    files bigint not null,
    removed_at timestamptz not null
);
