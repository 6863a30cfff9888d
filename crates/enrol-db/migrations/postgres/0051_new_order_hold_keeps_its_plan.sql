-- A new order's seat hold keeps its plan (decision 049). The function of
-- migration 0050 ran the hold statement the server passed it with
-- `execute`, which plans it anew each time, while every other order for
-- the session waited for its lock. Here the statement is written into
-- `hold_a_seat`, whose plan PL/pgSQL keeps for the connection: with $1 the
-- session, $2 the instant, $3 the order and $4 the hold's end, it is the
-- server's `HOLD_A_SEAT` with its one count of held seats (decision 009),
-- word for word; a unit test of the server fails when the two differ, so
-- a change to the count comes with a migration that writes it here again.
-- It returns whether the seat was held.
create function hold_a_seat(text, timestamptz, text, timestamptz)
returns boolean language plpgsql as $$
declare
    held bigint;
begin
    insert into seat_hold (session_id, enrollment_id, expires_at) select $1, $3, $4
    where exists (select 1 from session s where s.id = $1 and s.status = 'active' and s.seats - s.registrations
    - (s.holds + s.offered - (select count(*) from seat_hold h where h.session_id = s.id and h.expires_at <= $2)
    - case when coalesce((select h.expires_at > $2 from seat_hold h where h.enrollment_id = $3 and h.session_id = s.id), false) then 1 else 0 end
    + case when s.waiting > 0 and not coalesce((select h.expires_at > $2 from seat_hold h where h.enrollment_id = $3 and h.session_id = s.id), false)
    then s.seats else 0 end) > 0)
    on conflict (enrollment_id, session_id) do update set expires_at = excluded.expires_at;
    get diagnostics held = row_count;
    return held = 1;
end
$$;

-- The rows of `sessions` locked in their order (the server sorts them, as
-- every transaction locks them), a seat of each held, then the seats
-- marked changed, as in migration 0050; each statement sees what committed
-- before it. Returns the first session with no seat free (nothing
-- marked), or null.
drop function hold_new_order_seats(text, text[], timestamptz, text, timestamptz);
create function hold_new_order_seats(sessions text[], at timestamptz, order_id text, until timestamptz)
returns text language plpgsql as $$
declare
    one text;
begin
    foreach one in array sessions loop
        update session set registrations = registrations where id = one;
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
