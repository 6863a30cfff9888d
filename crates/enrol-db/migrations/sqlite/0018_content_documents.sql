-- SQLite twin of migrations/postgres/0018_content_documents.sql.
-- Content edited in the back office (issue 15, decision 018): one document
-- per course, section, page, article, team member, job, Pathway level and
-- the site data, its published body and any draft (JSON, the pack's file
-- format), every published body kept as a revision, and the addresses a
-- renamed course answered at.

create table content_document (
    kind text not null constraint content_document_kind_known
        check (kind in ('site', 'section', 'course', 'pathway', 'page', 'blog', 'team', 'job')),
    key text not null,
    -- The body the site shows; every document is published when it is made.
    published text not null,
    -- The revision `published` is.
    version bigint not null,
    -- What staff are editing, until it is published or discarded.
    draft text,
    draft_by text constraint content_document_draft_by_fk references staff_account (id),
    draft_saved_at text,
    updated_at text not null,
    constraint content_document_pkey primary key (kind, key)
);

-- Append-only: a revert publishes an earlier body as a new revision.
create table content_revision (
    kind text not null,
    key text not null,
    version bigint not null,
    body text not null,
    action text not null constraint content_revision_action_known check (action in ('load', 'publish', 'revert')),
    staff_id text constraint content_revision_staff_fk references staff_account (id),
    created_at text not null,
    constraint content_revision_pkey primary key (kind, key, version),
    constraint content_revision_document_fk foreign key (kind, key) references content_document (kind, key)
);

create table content_redirect (
    from_path text primary key,
    to_path text not null,
    created_at text not null
);
