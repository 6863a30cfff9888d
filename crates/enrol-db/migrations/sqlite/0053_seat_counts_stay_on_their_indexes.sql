-- PostgreSQL's seat counts keep plans on their indexes and its sessions'
-- pages keep room for their counts' new versions (decision 051). SQLite
-- plans each kept statement once on its connection, with no statistics
-- unless analysed, and writes a row in place: nothing to change.
select 1;
