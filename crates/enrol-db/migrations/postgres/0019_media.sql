-- Images staff upload for the site's content (issue 15): each kept in the
-- file store under its key and served at /media/<file_name>. The bytes
-- are the cleaned image (metadata dropped, SVG written again by usvg).
create table media (
    key text primary key,
    -- As served below /media/: uploads/<key>.<extension>.
    file_name text not null constraint media_file_name_key unique,
    content_type text not null
        constraint media_content_type_known check (content_type in ('image/jpeg', 'image/png', 'image/webp', 'image/svg+xml')),
    width bigint not null constraint media_width_positive check (width > 0),
    height bigint not null constraint media_height_positive check (height > 0),
    bytes bigint not null constraint media_bytes_positive check (bytes > 0),
    alt text not null constraint media_alt_given check (length(alt) between 1 and 300),
    uploaded_by text not null constraint media_uploaded_by_fk references staff_account (id),
    created_at timestamptz not null
);
create index media_newest_first on media (created_at, key);
