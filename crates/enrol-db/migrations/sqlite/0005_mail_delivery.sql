-- SQLite twin of migrations/postgres/0005_mail_delivery.sql.
-- Sending the outbox: attempts with back-off, and a claim so that one
-- instance sends each mail.

alter table mail_outbox add column attempts integer not null default 0;
alter table mail_outbox add column next_attempt_at text;
alter table mail_outbox add column claimed_until text;
alter table mail_outbox add column last_error text;
