-- A session's roster is counted in the sessions list, a roster's heading
-- and the dashboard for every session shown: its students' registrations
-- and whether each booking is paid (issue 31). These indexes hold what
-- that count reads, so it never reads a registration or booking row: a
-- session's registrations by type with their booking, and each booking's
-- status beside its id and time (which the order search sorts by). The
-- PostgreSQL twin has only these indexes.
drop index registration_by_session;
create index registration_by_session on registration (session_id, type, enrollment_id);
drop index enrollment_id_time;
create index enrollment_id_time_status on enrollment (id, created_at, status);

-- The order search takes the newest matches of a text in the order the
-- search table's rows were written, the order the bookings were made: a
-- booking whose name or address changes keeps its row, and its place.
drop trigger enrollment_search_update;
create trigger enrollment_search_update after update of reference, given_name, family_name, email on enrollment begin
    update enrollment_search set text = lower(new.reference || ' ' || new.given_name || ' ' || new.family_name || ' ' || new.email || ' ' || new.id)
        where rowid = (select rowid from enrollment_search where enrollment_search match '"' || replace(lower(old.id), '"', '""') || '"'
            and enrollment_id = old.id);
end;
