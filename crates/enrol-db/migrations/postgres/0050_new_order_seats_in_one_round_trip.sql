-- A new order's seats in one round trip (decision 047): the rows of
-- `sessions` locked in their order (the server sorts them, as every
-- transaction locks them), then a seat of each held by the statement
-- `hold` the server sends (its one count of held seats, decision 009,
-- with $1 the session, $2 the instant `at`, $3 the order, $4 the hold's
-- end `until`), then the seats marked changed. Each statement sees what
-- committed before it, as when the server sends them one by one. Returns
-- the first session with no seat free (nothing marked), or null.
create function hold_new_order_seats(hold text, sessions text[], at timestamptz, order_id text, until timestamptz)
returns text language plpgsql as $$
declare
    one text;
    held bigint;
begin
    foreach one in array sessions loop
        update session set registrations = registrations where id = one;
    end loop;
    foreach one in array sessions loop
        execute hold using one, at, order_id, until;
        get diagnostics held = row_count;
        if held = 0 then
            return one;
        end if;
    end loop;
    update availability_version set version = version + 1 where id = 1;
    return null;
end
$$;
