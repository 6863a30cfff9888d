-- no-transaction
-- SQLite twin of migrations/postgres/0034_waiting_list_confirmed.sql. The
-- entries are rebuilt (SQLite cannot change a check), which needs foreign
-- keys off outside a transaction; the rest runs in one transaction of its
-- own. The rows are copied before the counting triggers exist again, so
-- `session.waiting` and `session.offered` stay as they were.
pragma foreign_keys = off;
begin;

create table waiting_list_entry_new (
    id text primary key,
    session_id text not null constraint waiting_list_entry_session_fk references session (id),
    name text not null,
    email text not null,
    phone text,
    status text not null default 'waiting'
        constraint waiting_list_entry_status_known check (status in ('unconfirmed', 'waiting', 'offered', 'claimed', 'left', 'lapsed')),
    created_at text not null,
    offered_at text,
    offer_expires_at text,
    claim_token_hash text constraint waiting_list_entry_claim_key unique,
    leave_token_hash text not null constraint waiting_list_entry_leave_key unique,
    enrollment_id text constraint waiting_list_entry_enrollment_fk references enrollment (id),
    confirm_token_hash text constraint waiting_list_entry_confirm_key unique,
    confirm_mailed_at text,
    confirmed_at text,
    client_key text,
    offer_open_by text,
    offer_opened_at text
);
insert into waiting_list_entry_new
select id, session_id, name, email, phone, status, created_at, offered_at, offer_expires_at, claim_token_hash, leave_token_hash,
       enrollment_id, null, null, created_at, null, null, null
from waiting_list_entry;
drop table waiting_list_entry;
alter table waiting_list_entry_new rename to waiting_list_entry;

create unique index waiting_list_entry_once on waiting_list_entry (session_id, email) where status in ('unconfirmed', 'waiting', 'offered');
create index waiting_list_entry_queue on waiting_list_entry (session_id, status, confirmed_at);
create index waiting_list_entry_by_client on waiting_list_entry (client_key, created_at);

create trigger waiting_list_joined after insert on waiting_list_entry
begin
    update session set waiting = waiting + (new.status = 'waiting'), offered = offered + (new.status = 'offered') where id = new.session_id;
end;

create trigger waiting_list_moved after update of status on waiting_list_entry
begin
    update session set waiting = waiting - (old.status = 'waiting') + (new.status = 'waiting'),
        offered = offered - (old.status = 'offered') + (new.status = 'offered') where id = new.session_id;
end;

create trigger waiting_list_removed after delete on waiting_list_entry
begin
    update session set waiting = waiting - (old.status = 'waiting'), offered = offered - (old.status = 'offered') where id = old.session_id;
end;

commit;
pragma foreign_keys = on;
