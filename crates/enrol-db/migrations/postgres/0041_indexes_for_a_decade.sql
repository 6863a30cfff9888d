-- Indexes for ten years of a busy college (issue 31): every query of a
-- student's account, an order's page, a session's roster, the dashboard's
-- periods and the accountant's exports reads through one, so none walks a
-- table that grows with the years. `explain` tests keep them in use.

-- A student's bookings, seats and payments (the account area, GraphQL).
create index enrollment_by_user on enrollment (user_id, created_at, id);
create index registration_by_user on registration (user_id);
create index payment_by_user on payment (user_id, created_at, id);

-- An order's payments and their refunds; a session's seats (the roster).
create index payment_by_enrollment on payment (enrollment_id);
create index payment_by_online_order on payment (online_order_id);
create index refund_by_payment on refund (payment_id);
create index registration_by_session on registration (session_id);

-- The exports, a page after the last row's place, and the dashboard's periods.
create index enrollment_by_time on enrollment (created_at, id);
create index payment_by_time on payment (created_at, id);
create index refund_by_time on refund (created_at, id);
create index enrollment_by_paid_time on enrollment (paid_at) where paid_at is not null;
create index online_order_by_paid_time on online_order (paid_at) where paid_at is not null;
create index refund_by_completed_time on refund (completed_at) where status = 'succeeded';

-- The back office finds an order by any part of its reference, name, email
-- or id: trigrams of that text, lowercased, so three letters typed find the
-- few bookings that hold them without reading every booking (the search
-- matches the same expression).
create extension if not exists pg_trgm;
create index enrollment_search on enrollment
    using gin (lower(reference || ' ' || given_name || ' ' || family_name || ' ' || email || ' ' || id) gin_trgm_ops);

-- Each booking's courses and days, as its `lines` hold them, in rows the
-- order search reads by course or day through an index instead of
-- matching text inside every booking's JSON; a trigger keeps them from
-- `lines`, so every way of writing a booking keeps them.
create table enrollment_line (
    enrollment_id text not null constraint enrollment_line_enrollment_fk references enrollment (id) on delete cascade,
    position integer not null,
    course_id text not null,
    -- `YYYY-MM-DD`, as the lines hold it; none for an undated course.
    date text,
    constraint enrollment_line_pk primary key (enrollment_id, position)
);
create index enrollment_line_by_course on enrollment_line (course_id);
create index enrollment_line_by_date on enrollment_line (date);

create function enrollment_lines_kept() returns trigger language plpgsql as $$
begin
    delete from enrollment_line where enrollment_id = new.id;
    insert into enrollment_line (enrollment_id, position, course_id, date)
        select new.id, line.position - 1, line.value ->> 'courseId', line.value ->> 'date'
        from jsonb_array_elements(new.lines::jsonb) with ordinality as line (value, position)
        where line.value ->> 'courseId' is not null;
    return null;
end
$$;
create trigger enrollment_lines_kept after insert or update of lines on enrollment
    for each row execute function enrollment_lines_kept();
insert into enrollment_line (enrollment_id, position, course_id, date)
    select e.id, line.position - 1, line.value ->> 'courseId', line.value ->> 'date'
    from enrollment e, jsonb_array_elements(e.lines::jsonb) with ordinality as line (value, position)
    where line.value ->> 'courseId' is not null;
