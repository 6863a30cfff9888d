-- Waiting lists that made-up addresses cannot fill (issue 28): someone
-- joins as `unconfirmed` and counts as waiting (in the queue, and in
-- `session.waiting`, which makes a date full to the public) only once they
-- confirm by the link mailed to them, queued by when they confirmed. Each
-- entry keeps the client that asked for it, so joins per client can be
-- capped. An offer must be opened by `offer_open_by` or it passes on;
-- offers made before keep their 48 hours. People already waiting joined
-- before there was anything to confirm, and stay waiting.

alter table waiting_list_entry drop constraint waiting_list_entry_status_known;
alter table waiting_list_entry add constraint waiting_list_entry_status_known
    check (status in ('unconfirmed', 'waiting', 'offered', 'claimed', 'left', 'lapsed'));
alter table waiting_list_entry add column confirm_token_hash text constraint waiting_list_entry_confirm_key unique;
alter table waiting_list_entry add column confirm_mailed_at timestamptz;
alter table waiting_list_entry add column confirmed_at timestamptz;
alter table waiting_list_entry add column client_key text;
alter table waiting_list_entry add column offer_open_by timestamptz;
alter table waiting_list_entry add column offer_opened_at timestamptz;
update waiting_list_entry set confirmed_at = created_at;

drop index waiting_list_entry_once;
create unique index waiting_list_entry_once on waiting_list_entry (session_id, email) where status in ('unconfirmed', 'waiting', 'offered');
drop index waiting_list_entry_queue;
create index waiting_list_entry_queue on waiting_list_entry (session_id, status, confirmed_at);
create index waiting_list_entry_by_client on waiting_list_entry (client_key, created_at);
