-- SQLite twin of migrations/postgres/0008_seat_hold_count.sql: seats held
-- per session, counted by the database as holds are made and released.

alter table session add column holds integer not null default 0
    constraint session_holds_not_negative check (holds >= 0);

update session set holds = (select count(*) from seat_hold h where h.session_id = session.id);

create trigger seat_hold_added after insert on seat_hold
begin
    update session set holds = holds + 1 where id = new.session_id;
end;

create trigger seat_hold_removed after delete on seat_hold
begin
    update session set holds = holds - 1 where id = old.session_id;
end;

create index seat_hold_by_expiry on seat_hold (expires_at);
