-- Online courses in the back office (decision 027): staff grant a course
-- without an order, extend, revoke and restore access, and refund an
-- online order line by line.

-- A registration staff granted has no order: it names who granted it.
alter table online_registration alter column online_order_id drop not null;
alter table online_registration add column granted_by text constraint online_registration_granted_by_fk references staff_account (id);
-- Why access was revoked, shown to staff beside it (the audit row keeps it too).
alter table online_registration add column revoke_reason text;
create index online_registration_by_course on online_registration (course_id);

-- A line of an online order given back: each line once, whatever requests
-- arrive at once.
create table online_refund_line (
    online_order_id text not null constraint online_refund_line_order_fk references online_order (id),
    -- The line's place in the order's lines, from 0.
    line integer not null,
    amount bigint not null constraint online_refund_line_amount_positive check (amount >= 0),
    refunded_at timestamptz not null,
    primary key (online_order_id, line)
);
