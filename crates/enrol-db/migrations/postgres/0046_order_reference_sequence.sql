-- Each order's reference number comes from a sequence on PostgreSQL
-- (decision 022 addendum): taking one locks nothing and commits nothing,
-- where the counter row was a lock every order in the college waited on
-- and a commit of its own before each order. A number an order takes and
-- then gives up is not used again, as before. SQLite keeps its counter
-- row: its one writer at a time waits either way.
create sequence order_reference_seq as bigint minvalue 0 start 0;
select setval('order_reference_seq', (select last_used from order_reference_number where id = 1));
drop table order_reference_number;
