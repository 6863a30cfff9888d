-- The back office's lists are read in their order from an index and
-- stopped at a page, whatever the years (issue 31).
--
-- The sessions list pages by each session's place (date, start, id): the
-- index by date holds the rest of that place.
drop index session_by_date;
create index session_by_date on session (date, start_at, id);

-- A discount code's bookings, newest first.
create index enrollment_by_code on enrollment (discount_code, created_at, id) where discount_code is not null;

-- The order search lists a course's or a day's bookings newest first. Each
-- booking's lines now carry the booking's time, and the indexes by course
-- and by day hold it, so the newest hundred are read in order from the
-- index instead of sorting every booking a course ever had. A booking's
-- time never changes; the trigger copies it with the lines.
drop trigger enrollment_lines_kept on enrollment;
drop function enrollment_lines_kept();
drop table enrollment_line;

create table enrollment_line (
    enrollment_id text not null constraint enrollment_line_enrollment_fk references enrollment (id) on delete cascade,
    position integer not null,
    course_id text not null,
    -- `YYYY-MM-DD`, as the lines hold it; none for an undated course.
    date text,
    -- The booking's.
    created_at timestamptz not null,
    constraint enrollment_line_pk primary key (enrollment_id, position)
);
create index enrollment_line_by_course on enrollment_line (course_id, created_at, enrollment_id);
create index enrollment_line_by_date on enrollment_line (date, created_at, enrollment_id);

create function enrollment_lines_kept() returns trigger language plpgsql as $$
begin
    delete from enrollment_line where enrollment_id = new.id;
    insert into enrollment_line (enrollment_id, position, course_id, date, created_at)
        select new.id, line.position - 1, line.value ->> 'courseId', line.value ->> 'date', new.created_at
        from jsonb_array_elements(new.lines::jsonb) with ordinality as line (value, position)
        where line.value ->> 'courseId' is not null;
    return null;
end
$$;
create trigger enrollment_lines_kept after insert or update of lines on enrollment
    for each row execute function enrollment_lines_kept();
insert into enrollment_line (enrollment_id, position, course_id, date, created_at)
    select e.id, line.position - 1, line.value ->> 'courseId', line.value ->> 'date', e.created_at
    from enrollment e, jsonb_array_elements(e.lines::jsonb) with ordinality as line (value, position)
    where line.value ->> 'courseId' is not null;
