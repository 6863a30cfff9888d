-- Cancellations (issue 13, decision 015): a booking the student cancelled,
-- when, and what the terms refunded.

alter table enrollment drop constraint enrollment_status_known;
alter table enrollment add constraint enrollment_status_known
    check (status in ('pending', 'deposit', 'completed', 'failed', 'cancelled'));
alter table enrollment add column cancelled_at timestamptz;
