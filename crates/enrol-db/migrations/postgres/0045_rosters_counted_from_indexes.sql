-- A session's roster is counted in the sessions list, a roster's heading
-- and the dashboard for every session shown: its students' registrations
-- and whether each booking is paid (issue 31). These indexes hold what
-- that count reads, so it never reads a registration or booking row: a
-- session's registrations by type with their booking, and each booking's
-- status beside its id and time (which the order search sorts by).
drop index registration_by_session;
create index registration_by_session on registration (session_id, type, enrollment_id);
drop index enrollment_id_time;
create index enrollment_id_time_status on enrollment (id, created_at, status);
