-- Site search over courses and articles, enquiries sent through the site's
-- forms, and the mail outbox.

create table search_document (
    kind text not null constraint search_document_kind_known check (kind in ('course', 'article')),
    url text primary key,
    title text not null,
    summary text not null,
    body text not null,
    document tsvector generated always as (
        setweight(to_tsvector('simple', title), 'A') ||
        setweight(to_tsvector('simple', summary), 'B') ||
        setweight(to_tsvector('simple', body), 'C')
    ) stored
);

create index search_document_document on search_document using gin (document);

create table form_submission (
    id text primary key,
    kind text not null constraint form_submission_kind_known check (kind in ('contact', 'callback', 'business', 'models', 'finance')),
    data text not null,
    created_at timestamptz not null default current_timestamp
);

create table mail_outbox (
    id text primary key,
    to_address text not null,
    reply_to text,
    subject text not null,
    body_text text not null,
    created_at timestamptz not null default current_timestamp,
    sent_at timestamptz
);

create index mail_outbox_unsent on mail_outbox (created_at) where sent_at is null;
