-- SQLite twin of migrations/postgres/0015_date_changes.sql.
-- Date changes (issue 13, decision 015): how often a booking's dates
-- changed, the SEQUENCE of its calendar entries.

alter table enrollment add column calendar_sequence integer not null default 0
    constraint enrollment_calendar_sequence_not_negative check (calendar_sequence >= 0);
