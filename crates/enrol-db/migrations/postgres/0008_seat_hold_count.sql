-- Seats held per session, counted by the database as holds are made and
-- released (decision 011): counting a session's free seats reads this
-- number instead of every live hold, so it costs the same with three holds
-- or three thousand. A hold still counts only until it expires: the few
-- expired holds the sweeper has not yet removed are subtracted by index.

alter table session add column holds bigint not null default 0
    constraint session_holds_not_negative check (holds >= 0);

update session set holds = (select count(*) from seat_hold h where h.session_id = session.id);

create function seat_hold_count() returns trigger language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        update session set holds = holds + 1 where id = new.session_id;
    else
        update session set holds = holds - 1 where id = old.session_id;
    end if;
    return null;
end
$$;

create trigger seat_hold_counted after insert or delete on seat_hold
    for each row execute function seat_hold_count();

-- The first hold to run out, for the catalogue's freshness.
create index seat_hold_by_expiry on seat_hold (expires_at);
