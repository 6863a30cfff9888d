-- What a buyer agreed to at checkout (decision 020): the terms and the
-- cancellation policy, the request to start an online course at once with
-- the loss of the right to cancel, and a course's entry requirements; each
-- word for word, with the version of the wording and when.

create table order_consent (
    id text primary key,
    enrollment_id text constraint order_consent_enrollment_fk references enrollment (id) on delete cascade,
    online_order_id text constraint order_consent_online_order_fk references online_order (id) on delete cascade,
    kind text not null
        constraint order_consent_kind_known check (kind in ('terms', 'digital_content', 'entry_requirements')),
    course_id text,
    version text not null,
    wording text not null,
    agreed_at timestamptz not null,
    constraint order_consent_one_order check ((enrollment_id is null) <> (online_order_id is null))
);

create index order_consent_by_enrollment on order_consent (enrollment_id);
create index order_consent_by_online_order on order_consent (online_order_id);

-- A course whose prerequisites are requirements: the checkout asks the buyer
-- to confirm meeting them.
alter table course add column entry_requirements boolean not null default false;
