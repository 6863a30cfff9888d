-- Issue 27: an in-person course whose content names an online course as
-- its pre-course theory gives each student booked on it access to that
-- course with the booking, and a reminder a week before training when the
-- theory is not finished.

-- The online course a booking on this course gives, from its content.
alter table course add column online_theory text;

-- Access to a course's theory that came with a booking: one per booking and
-- course, ended when the booking is cancelled.
create table booking_theory (
    enrollment_id text not null constraint booking_theory_enrollment_fk references enrollment (id),
    course_id text not null,
    course_title text not null,
    -- Set once the booking joins an account (at once when bought signed in
    -- or with a proven address).
    user_id text constraint booking_theory_user_fk references user_account (id),
    starts_at text not null,
    ends_at text not null,
    revoked_at text,
    -- When the week-before reminder was sent: it is sent once.
    reminded_at text,
    primary key (enrollment_id, course_id)
);
create index booking_theory_by_user on booking_theory (user_id, course_id);
