-- SQLite twin of migrations/postgres/0022_order_references_and_what_to_bring.sql.
-- References a person can read out (enrol_domain::reference): 'B-7K3P9' for
-- a booking, 'E-4HX2M' for an e-learning order, unique across both. Each
-- new order takes the next number from order_reference_number; the orders
-- made before this migration are numbered here in the order they were
-- made, with the same arithmetic as enrol_domain::reference::code.

create table order_reference_number (
    id integer primary key constraint order_reference_number_one check (id = 1),
    last_used bigint not null
);

-- SQLite adds a column that is never null only with a default: every
-- order is given its reference below, and the unique indexes refuse a
-- second order without one.
alter table enrollment add column reference text not null default '';
alter table online_order add column reference text not null default '';

create temporary table reference_spread as
    select kind, id, (row_number() over (order by created_at, kind, id) * 22695477 + 9876543) % 33554432 as spread
    from (
        select 'B' as kind, id, created_at from enrollment
        union all
        select 'E' as kind, id, created_at from online_order
    ) as orders;

create temporary table reference_backfill as
    select kind, id,
        cast((spread >> 20) & 31 as integer) as d1, cast((spread >> 15) & 31 as integer) as d2,
        cast((spread >> 10) & 31 as integer) as d3, cast((spread >> 5) & 31 as integer) as d4,
        cast(spread & 31 as integer) as d5
    from reference_spread;
drop table reference_spread;

update enrollment set reference = (
    select 'B-' || substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', d1 + 1, 1) || substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', d2 + 1, 1) || substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', d3 + 1, 1) || substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', d4 + 1, 1) || substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', d5 + 1, 1)
    from reference_backfill b where b.kind = 'B' and b.id = enrollment.id
);

update online_order set reference = (
    select 'E-' || substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', d1 + 1, 1) || substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', d2 + 1, 1) || substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', d3 + 1, 1) || substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', d4 + 1, 1) || substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', d5 + 1, 1)
    from reference_backfill b where b.kind = 'E' and b.id = online_order.id
);

insert into order_reference_number (id, last_used) select 1, count(*) from reference_backfill;
drop table reference_backfill;

create unique index enrollment_reference_key on enrollment (reference);
create unique index online_order_reference_key on online_order (reference);

-- What a student brings to a course's training (JSON list of text): the
-- booking confirmation says it.
alter table course add column what_to_bring text not null default '[]';
