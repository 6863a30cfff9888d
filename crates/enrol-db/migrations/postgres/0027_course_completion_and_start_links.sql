-- Issue 27: an online course completed issues its certificate once, and a
-- buyer without an account starts their course from a mailed link.

-- A completed online course's certificate (one without a session): at most
-- one in force per student and course, however many requests complete it.
create unique index certificate_course_once on certificate (user_id, course_id) where session_id is null and not revoked;

-- When the student completed the course, on each of their registrations.
alter table online_registration add column completed_at timestamptz;

-- A password link mailed with an online order to a buyer without an
-- account names the course it opens once the password is chosen.
alter table password_reset add column course_id text;
