-- SQLite twin of migrations/postgres/0041_indexes_for_a_decade.sql.
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
-- or id: trigrams of that text, lowercased, in a full-text table kept by
-- triggers, so three letters typed find the few bookings that hold them
-- without reading every booking (PostgreSQL: a trigram index).
create virtual table enrollment_search using fts5 (text, enrollment_id unindexed, tokenize = 'trigram');
insert into enrollment_search (text, enrollment_id)
    select lower(reference || ' ' || given_name || ' ' || family_name || ' ' || email || ' ' || id), id from enrollment;
create trigger enrollment_search_insert after insert on enrollment begin
    insert into enrollment_search (text, enrollment_id)
        values (lower(new.reference || ' ' || new.given_name || ' ' || new.family_name || ' ' || new.email || ' ' || new.id), new.id);
end;
create trigger enrollment_search_update after update of reference, given_name, family_name, email on enrollment begin
    delete from enrollment_search where enrollment_id = old.id;
    insert into enrollment_search (text, enrollment_id)
        values (lower(new.reference || ' ' || new.given_name || ' ' || new.family_name || ' ' || new.email || ' ' || new.id), new.id);
end;
create trigger enrollment_search_delete after delete on enrollment begin
    delete from enrollment_search where enrollment_id = old.id;
end;

-- Each booking's courses and days, as its `lines` hold them, in rows the
-- order search reads by course or day through an index instead of
-- matching text inside every booking's JSON; triggers keep them from
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

create trigger enrollment_lines_insert after insert on enrollment begin
    insert into enrollment_line (enrollment_id, position, course_id, date)
        select new.id, line.key, json_extract(line.value, '$.courseId'), json_extract(line.value, '$.date')
        from json_each(new.lines) as line where json_extract(line.value, '$.courseId') is not null;
end;
create trigger enrollment_lines_update after update of lines on enrollment begin
    delete from enrollment_line where enrollment_id = new.id;
    insert into enrollment_line (enrollment_id, position, course_id, date)
        select new.id, line.key, json_extract(line.value, '$.courseId'), json_extract(line.value, '$.date')
        from json_each(new.lines) as line where json_extract(line.value, '$.courseId') is not null;
end;
insert into enrollment_line (enrollment_id, position, course_id, date)
    select e.id, line.key, json_extract(line.value, '$.courseId'), json_extract(line.value, '$.date')
    from enrollment e, json_each(e.lines) as line where json_extract(line.value, '$.courseId') is not null;
