-- An order's seat counts keep plans that read by key however small the
-- holds table was when they were planned (decision 051).
-- `seats_taken` and `hold_a_seat` keep one plan a connection, made at its
-- first order. Made while `seat_hold` was analysed empty, as every quiet
-- night leaves it, that plan read the whole table for each date of the
-- course, and the table grows with every order of a sale: at ten years,
-- 11 ms of each order's 30 ms went there. Sequential scans are priced out
-- in both functions, and the one count of held seats (decision 009) now
-- reads the order's own holds by the order alone, which one index only
-- serves. Both functions are written again with the server's statements,
-- word for word, as migrations 0051 and 0052 wrote them.
create or replace function seats_taken(text, timestamptz, text, date)
returns table (id text, registrations bigint, held bigint) language plpgsql stable
set plan_cache_mode = force_generic_plan set enable_seqscan = off as $$
#variable_conflict use_column
begin
    return query select s.id, s.registrations, (s.holds + s.offered - (select count(*) from seat_hold h where h.session_id = s.id and h.expires_at <= $2)
    - case when (s.id, true) in (select h.session_id, h.expires_at > $2 from seat_hold h where h.enrollment_id = $3) then 1 else 0 end
    + case when s.waiting > 0 and not (s.id, true) in (select h.session_id, h.expires_at > $2 from seat_hold h where h.enrollment_id = $3)
    then s.seats else 0 end) as held from session s join event ev on ev.id = s.event_id
    where ev.course_id = $1 and s.date >= $4 and s.status = 'active';
end
$$;

create or replace function hold_a_seat(text, timestamptz, text, timestamptz)
returns boolean language plpgsql set enable_seqscan = off as $$
declare
    held bigint;
begin
    insert into seat_hold (session_id, enrollment_id, expires_at) select $1, $3, $4
    where exists (select 1 from session s where s.id = $1 and s.status = 'active' and s.seats - s.registrations
    - (s.holds + s.offered - (select count(*) from seat_hold h where h.session_id = s.id and h.expires_at <= $2)
    - case when (s.id, true) in (select h.session_id, h.expires_at > $2 from seat_hold h where h.enrollment_id = $3) then 1 else 0 end
    + case when s.waiting > 0 and not (s.id, true) in (select h.session_id, h.expires_at > $2 from seat_hold h where h.enrollment_id = $3)
    then s.seats else 0 end) > 0)
    on conflict (enrollment_id, session_id) do update set expires_at = excluded.expires_at;
    get diagnostics held = row_count;
    return held = 1;
end
$$;

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
