-- SQLite twin of migrations/postgres/0035_shared_limits.sql.
-- Limits that every instance counts together, and that a classroom behind
-- one address does not trip over (decision 031).

-- The costly calls a browser and a client address may still make: a token
-- bucket per key kept as the instant it is full again (`ready_at`, in
-- microseconds since 1970), with the spacing between requests and the
-- burst it allows (both in microseconds). A row whose `ready_at` has
-- passed is a full bucket, the same as no row, and is swept.
create table write_allowance (
    client_key text primary key,
    ready_at bigint not null,
    spacing bigint not null,
    burst bigint not null
);

-- Unpaid orders are counted per browser as well as per address.
create index enrollment_by_owner on enrollment (owner_token_hash, status);
