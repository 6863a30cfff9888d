-- SQLite twin of migrations/postgres/0020_withdrawn_content_and_pack_media.sql.
-- SQLite changes a check or a not-null only by writing the table again.

alter table content_document add column withdrawn_at text;

create table content_revision_next (
    kind text not null,
    key text not null,
    version bigint not null,
    body text not null,
    action text not null constraint content_revision_action_known check (action in ('load', 'publish', 'revert', 'withdraw')),
    staff_id text constraint content_revision_staff_fk references staff_account (id),
    created_at text not null,
    constraint content_revision_pkey primary key (kind, key, version),
    constraint content_revision_document_fk foreign key (kind, key) references content_document (kind, key)
);
insert into content_revision_next select kind, key, version, body, action, staff_id, created_at from content_revision;
drop table content_revision;
alter table content_revision_next rename to content_revision;

alter table course add column withdrawn boolean not null default false;

create table media_next (
    key text primary key,
    file_name text not null constraint media_file_name_key unique,
    content_type text not null
        constraint media_content_type_known check (content_type in ('image/jpeg', 'image/png', 'image/webp', 'image/svg+xml')),
    width bigint not null constraint media_width_positive check (width > 0),
    height bigint not null constraint media_height_positive check (height > 0),
    bytes bigint not null constraint media_bytes_positive check (bytes > 0),
    alt text not null constraint media_alt_given check (length(alt) between 1 and 300),
    uploaded_by text constraint media_uploaded_by_fk references staff_account (id),
    created_at text not null
);
insert into media_next select key, file_name, content_type, width, height, bytes, alt, uploaded_by, created_at from media;
drop table media;
alter table media_next rename to media;
create index media_newest_first on media (created_at, key);
