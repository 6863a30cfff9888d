-- PostgreSQL numbers orders from a sequence from here on (decision 022
-- addendum); SQLite keeps its counter row, order_reference_number: its one
-- writer at a time waits for a turn either way.
select 1;
