-- SQLite's order search table is written after each booking's commit from
-- here on (migrations/sqlite/0049); PostgreSQL's trigram index is part of
-- the booking's own row and stays as it is.
select 1;
