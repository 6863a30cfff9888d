-- SQLite twin of migrations/postgres/0028_scorm_packages.sql.
-- SCORM packages (decision 026): a course taught by a package made in an
-- authoring tool. Its files are in the file store, each under a key of
-- its own; a student opens it through a launch whose token is in the
-- package's address (the package's sandboxed frame sends no cookie); what
-- its runtime commits is kept per student and course.

-- A course's package: one a course, replaced whole by a new upload.
create table scorm_package (
    course_id text primary key,
    -- In the file rows, so a new upload never mixes with the files it replaces.
    id text not null constraint scorm_package_id_unique unique,
    version text not null constraint scorm_package_version check (version in ('1.2', '2004')),
    title text not null,
    -- The page to open, a path inside the package with any query.
    launch text not null,
    files bigint not null,
    bytes bigint not null,
    -- The zip's name on the uploader's computer, or the pack's folder.
    original_name text not null,
    -- None for a package loaded from the content pack.
    uploaded_by text,
    uploaded_at text not null
);

create table scorm_file (
    package_id text not null,
    path text not null,
    file_key text not null,
    content_type text not null,
    bytes bigint not null,
    primary key (package_id, path)
);

-- A student's opening of a course's package, by the hash of the token in
-- its address; it opens the files until it expires, while the sign-in
-- that started it lasts and the student may still study the course.
create table scorm_launch (
    token_hash text primary key,
    -- The hash of the sign-in's session token: signing out closes the package.
    session_hash text not null,
    user_id text not null constraint scorm_launch_user_fk references user_account (id) on delete cascade,
    course_id text not null,
    expires_at text not null
);
create index scorm_launch_by_student on scorm_launch (user_id, course_id);

-- What the package's runtime last committed for a student, and when it
-- first completed the course (kept whatever later commits say).
create table scorm_cmi (
    user_id text not null constraint scorm_cmi_user_fk references user_account (id) on delete cascade,
    course_id text not null,
    -- The package the values belong to: a new package resumes from its start.
    package_id text not null,
    lesson_status text,
    completion_status text,
    success_status text,
    progress_measure text,
    score_raw text,
    score_min text,
    score_max text,
    score_scaled text,
    location text,
    suspend_data text,
    session_time text,
    total_time text,
    committed_at text not null,
    completed_at text,
    primary key (user_id, course_id)
);
