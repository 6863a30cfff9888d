-- The back office's online orders are read newest first, a page at a time
-- after the last one's place (decision 039): from an index of their time
-- and id, so a page costs the same however many orders there are.
create index online_order_by_time on online_order (created_at, id);

-- A buyer's online orders, as a search by their name finds them.
create index online_order_by_user on online_order (user_id);
