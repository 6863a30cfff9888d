-- Waiting lists (issue 13, decision 015): people waiting for a full
-- session, in the order they joined; a freed seat is offered to the first,
-- held for them for 48 hours behind a single-use claim link. Each session
-- counts its people waiting and its open offers (kept by a trigger, as
-- session.holds is): an offer holds a seat, and while anyone waits the
-- session is full to everyone else.

alter table session add column waiting bigint not null default 0
    constraint session_waiting_not_negative check (waiting >= 0);
alter table session add column offered bigint not null default 0
    constraint session_offered_not_negative check (offered >= 0);

create table waiting_list_entry (
    id text primary key,
    session_id text not null constraint waiting_list_entry_session_fk references session (id),
    name text not null,
    email text not null,
    phone text,
    status text not null default 'waiting'
        constraint waiting_list_entry_status_known check (status in ('waiting', 'offered', 'claimed', 'left', 'lapsed')),
    created_at timestamptz not null,
    offered_at timestamptz,
    offer_expires_at timestamptz,
    claim_token_hash text constraint waiting_list_entry_claim_key unique,
    leave_token_hash text not null constraint waiting_list_entry_leave_key unique,
    enrollment_id text constraint waiting_list_entry_enrollment_fk references enrollment (id)
);

-- One place in a session's queue per address.
create unique index waiting_list_entry_once on waiting_list_entry (session_id, email) where status in ('waiting', 'offered');
create index waiting_list_entry_queue on waiting_list_entry (session_id, status, created_at);

create function waiting_list_count() returns trigger language plpgsql as $$
begin
    if tg_op in ('UPDATE', 'DELETE') then
        update session set waiting = waiting - (old.status = 'waiting')::int, offered = offered - (old.status = 'offered')::int
            where id = old.session_id;
    end if;
    if tg_op in ('INSERT', 'UPDATE') then
        update session set waiting = waiting + (new.status = 'waiting')::int, offered = offered + (new.status = 'offered')::int
            where id = new.session_id;
    end if;
    return null;
end
$$;

create trigger waiting_list_counted after insert or update of status or delete on waiting_list_entry
    for each row execute function waiting_list_count();
