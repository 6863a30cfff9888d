-- SQLite twin of migrations/postgres/0013_calendar_invites.sql.
-- Calendar invites and joining instructions (issue 13, decision 015): a
-- virtual or blended session's joining link, and a file a mail carries
-- (the booking confirmation's .ics).

alter table session add column joining_link text;

alter table mail_outbox add column attachment_name text;
alter table mail_outbox add column attachment_type text;
alter table mail_outbox add column attachment_body text;
