-- PostgreSQL holds a new order's seats through a function from here on
-- (decision 047); SQLite runs in the server's process, where the same
-- steps one by one cost no round trips.
select 1;
