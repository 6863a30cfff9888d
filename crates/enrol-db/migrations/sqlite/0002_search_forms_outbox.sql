-- SQLite twin of migrations/postgres/0002_search_forms_outbox.sql.
-- Site search over courses and articles, enquiries sent through the site's
-- forms, and the mail outbox.

create virtual table search_document using fts5 (
    kind unindexed,
    url unindexed,
    title,
    summary,
    body,
    tokenize = 'unicode61 remove_diacritics 2'
);

create table form_submission (
    id text primary key,
    kind text not null constraint form_submission_kind_known check (kind in ('contact', 'callback', 'business', 'models', 'finance')),
    data text not null,
    created_at text not null default current_timestamp
);

create table mail_outbox (
    id text primary key,
    to_address text not null,
    reply_to text,
    subject text not null,
    body_text text not null,
    created_at text not null default current_timestamp,
    sent_at text
);

create index mail_outbox_unsent on mail_outbox (created_at) where sent_at is null;
