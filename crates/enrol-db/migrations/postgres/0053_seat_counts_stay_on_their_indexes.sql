-- An order's seat counts keep plans that read by key however small the
-- holds table was when they were planned (decision 051).
-- `seats_taken` and `hold_a_seat` keep one plan a connection, made at its
-- first order. Made while `seat_hold` was analysed empty, as every quiet
-- night leaves it, that plan read the whole table for each date of the
-- course, and the table grows with every order of a sale: at ten years,
-- 11 ms of each order's 30 ms went there. Sequential scans are priced out
-- in both functions; the tables they read are all indexed for them.
alter function seats_taken(text, timestamptz, text, date) set enable_seqscan = off;
alter function hold_a_seat(text, timestamptz, text, timestamptz) set enable_seqscan = off;

-- The rows of `sessions` locked in their order as the update of migration
-- 0051 locked them, but without writing a new version of each: a session's
-- row is written once an order (its count of holds), not twice.
create or replace function hold_new_order_seats(sessions text[], at timestamptz, order_id text, until timestamptz)
returns text language plpgsql as $$
declare
    one text;
begin
    foreach one in array sessions loop
        perform 1 from session where id = one for no key update;
    end loop;
    foreach one in array sessions loop
        if not hold_a_seat(one, at, order_id, until) then
            return one;
        end if;
    end loop;
    update availability_version set version = version + 1 where id = 1;
    return null;
end
$$;

-- Each page of sessions keeps room for its rows' new versions, so a
-- session's counts are rewritten on its own page (a HOT update), adding
-- nothing to its indexes; full pages sent a third of them elsewhere, and
-- the course's dates were then read through hundreds of dead entries. The
-- table is rewritten once, with that room.
alter table session set (fillfactor = 70);
cluster session using session_by_date;
