-- The back office's online orders are read newest first, a page at a time
-- after the last one's place (decision 039): from an index of their time
-- and id, so a page costs the same however many orders there are.
create index online_order_by_time on online_order (created_at, id);

-- Found by text: the trigrams of an order's reference, address, id and
-- lines, and of its buyer's name (pg_trgm, migration 0041), so a search
-- reads the orders that match, not every order and every account.
create index online_order_search on online_order
    using gin (lower(reference || ' ' || coalesce(email, '') || ' ' || id || ' ' || lines) gin_trgm_ops);
create index user_account_name_search on user_account using gin (lower(given_name || ' ' || family_name) gin_trgm_ops);
create index online_order_by_user on online_order (user_id);
