-- PostgreSQL's function holding a new order's seats now keeps the hold's
-- plan (decision 049); SQLite holds them in the server's process and has
-- nothing to change.
select 1;
