-- The order search's trigram table (migration 0041) is written a second
-- after a booking, in one batch for all the bookings of that second, not
-- inside each booking's own transaction (issue 31). At ten years of
-- bookings, FTS5's writes and the merges of its segments in each order's
-- commit made orders with a seat hold 1.3 to 1.4 times slower at p99 than
-- on the demo data; without them, as fast. A booking waits in
-- `enrollment_search_due` until the server's indexing job (every second)
-- writes it; until then the search reads it from there (`Db::search_orders`).
drop trigger enrollment_search_insert;
drop trigger enrollment_search_update;
drop trigger enrollment_search_delete;

create table enrollment_search_due (
    -- In the order the bookings came, which the search table keeps.
    seq integer primary key,
    enrollment_id text not null constraint enrollment_search_due_enrollment_key unique
);

create trigger enrollment_search_insert after insert on enrollment begin
    insert or ignore into enrollment_search_due (enrollment_id) values (new.id);
end;
-- A changed booking's text is written again: its old row found through its
-- id's own trigrams (every booking's text holds its id), not by reading
-- every row for an unindexed column.
create trigger enrollment_search_update after update of reference, given_name, family_name, email on enrollment begin
    delete from enrollment_search where text glob '*' || lower(old.id) || '*' and enrollment_id = old.id;
    insert or ignore into enrollment_search_due (enrollment_id) values (new.id);
end;
create trigger enrollment_search_delete after delete on enrollment begin
    delete from enrollment_search_due where enrollment_id = old.id;
    delete from enrollment_search where text glob '*' || lower(old.id) || '*' and enrollment_id = old.id;
end;
