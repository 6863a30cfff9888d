-- A course's own files (decision 028): lesson videos, recordings and PDFs,
-- known by their first bytes, kept in the file store under their key and
-- served only to students of a course whose published lessons name them
-- (as files/<key>.<extension>).
create table course_file (
    key text primary key,
    -- As content names it: files/<key>.<extension>.
    file_name text not null constraint course_file_file_name_key unique,
    content_type text not null
        constraint course_file_content_type_known check (content_type in ('video/mp4', 'video/webm', 'audio/mpeg', 'application/pdf')),
    bytes bigint not null constraint course_file_bytes_positive check (bytes > 0),
    -- The file's name on the uploader's computer: shown, and given to a download.
    original_name text not null constraint course_file_original_name_given check (length(original_name) between 1 and 120),
    -- None for a file loaded from the content pack.
    uploaded_by text constraint course_file_uploaded_by_fk references staff_account (id),
    created_at timestamptz not null
);
create index course_file_newest_first on course_file (created_at, key);
