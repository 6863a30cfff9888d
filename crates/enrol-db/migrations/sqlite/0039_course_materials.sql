-- SQLite twin of migrations/postgres/0039_course_materials.sql.
-- Course materials (decision 035): a document, video or link staff attach
-- to an in-person course (its event), for every date or for one
-- (`session_id`). A document, or an uploaded video, is a course file
-- (decision 028): `url` is its name as content gives it
-- (`files/<key>.<ext>`) and `course_file` its key, so the file cannot be
-- removed while a material names it; a link or a video elsewhere is an
-- `https://` address in `url`. Booked students read them once their
-- booking fee is paid.
alter table event_material add column session_id text
    constraint event_material_session_fk references session (id) on delete cascade;
alter table event_material add column course_file text
    constraint event_material_course_file_fk references course_file (key);
create index event_material_by_session on event_material (session_id);
create index event_material_by_course_file on event_material (course_file);
