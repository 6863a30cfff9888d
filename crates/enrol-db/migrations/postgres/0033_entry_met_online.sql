-- An in-person course's entry requirements may be met by completing one of
-- the college's online courses: its id, from the course's content.
alter table course add column entry_online_course text;
