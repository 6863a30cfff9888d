-- SQLite twin of migrations/postgres/0042_indexes_for_the_jobs.sql.
-- What the scheduled jobs and the busiest back-office screens read at ten
-- years of data (issue 31), each through an index whose size is what is
-- live, not the history: the open tasks the readiness reminders look at,
-- the bookings with a balance still to pay, the sessions with a waiting
-- list, the mails to one address on an order's page, and the time of each
-- booking the order search sorts by. `explain` tests keep them in use.

-- Readiness reminders: forms not yet answered, documents not yet sent.
create index user_form_open on user_form (enrollment_id, course_id) where closed_at is null and not client_complete;
create index upload_request_open on upload_request (enrollment_id, course_id) where closed_at is null and status in ('requested', 'rejected');

-- Balance reminders: bookings on a deposit whose training is still ahead,
-- not every deposit whose balance date has passed over the years; and
-- whether each has a plan that takes its balance instead.
drop index enrollment_balance_due;
create index enrollment_deposit_by_start on enrollment (starts_on, balance_due_on) where status = 'deposit';
create index payment_plan_by_enrollment on payment_plan (enrollment_id, status);

-- Freed seats offered to a waiting list: only sessions with one.
create index session_with_waiting on session (id) where waiting > 0;

-- An order's page lists the mails to its address, newest first.
create index mail_outbox_by_address on mail_outbox (lower(to_address), created_at, id);

-- The order search sorts the bookings it finds by time from this index
-- alone, and reads only the page's 100.
create index enrollment_id_time on enrollment (id, created_at);

-- SQLite only: a booking's row in the search table (migration 0041) is
-- found through that table's own trigram index, since its text holds the
-- booking's id, not by reading every row for the unindexed id: a change
-- of name or email, or a booking removed, rewrites one row.
drop trigger enrollment_search_update;
create trigger enrollment_search_update after update of reference, given_name, family_name, email on enrollment begin
    delete from enrollment_search where enrollment_search match '"' || replace(lower(old.id), '"', '""') || '"' and enrollment_id = old.id;
    insert into enrollment_search (text, enrollment_id)
        values (lower(new.reference || ' ' || new.given_name || ' ' || new.family_name || ' ' || new.email || ' ' || new.id), new.id);
end;
drop trigger enrollment_search_delete;
create trigger enrollment_search_delete after delete on enrollment begin
    delete from enrollment_search where enrollment_search match '"' || replace(lower(old.id), '"', '""') || '"' and enrollment_id = old.id;
end;
