-- Sending the outbox: attempts with back-off, and a claim so that one
-- instance sends each mail.

alter table mail_outbox add column attempts integer not null default 0;
alter table mail_outbox add column next_attempt_at timestamptz;
alter table mail_outbox add column claimed_until timestamptz;
alter table mail_outbox add column last_error text;
