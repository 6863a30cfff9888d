-- What an order reads before its seat turn keeps its plan (decision 050).
-- The pool's connections plan every statement for its values
-- (`plan_cache_mode=force_custom_plan`, decision 011), and the seats
-- taken of an order's course, read outside any transaction, were planned
-- anew for every order. Here that read is written into `seats_taken`,
-- whose plan PL/pgSQL keeps for the connection, the generic plan always
-- (the function's own setting), the very plan a test of the server
-- checks. With $1 the course, $2 the instant, $3 the order whose holds
-- are its own and $4 the first day, it is the server's `SEATS_TAKEN` with
-- its one count of held seats (decision 009), word for word; a unit test
-- of the server fails when the two differ, so a change to the count comes
-- with a migration that writes it here again, and in `hold_a_seat`.
create function seats_taken(text, timestamptz, text, date)
returns table (id text, registrations bigint, held bigint) language plpgsql stable
set plan_cache_mode = force_generic_plan as $$
#variable_conflict use_column
begin
    return query select s.id, s.registrations, (s.holds + s.offered - (select count(*) from seat_hold h where h.session_id = s.id and h.expires_at <= $2)
    - case when coalesce((select h.expires_at > $2 from seat_hold h where h.enrollment_id = $3 and h.session_id = s.id), false) then 1 else 0 end
    + case when s.waiting > 0 and not coalesce((select h.expires_at > $2 from seat_hold h where h.enrollment_id = $3 and h.session_id = s.id), false)
    then s.seats else 0 end) as held from session s join event ev on ev.id = s.event_id
    where ev.course_id = $1 and s.date >= $4 and s.status = 'active';
end
$$;
