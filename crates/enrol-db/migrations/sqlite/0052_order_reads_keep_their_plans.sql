-- PostgreSQL's seats taken of a course now keep their plan in a function
-- (decision 050); SQLite keeps every prepared statement's plan and has
-- nothing to change.
select 1;
