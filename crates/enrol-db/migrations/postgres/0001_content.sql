-- The college's content (spec §3): site data, sections, courses, events and
-- sessions, upsell offers, discount codes, pages, team, jobs, blog, pathway.

create table site (
    id smallint primary key constraint site_single_row check (id = 1),
    title text not null,
    footer_text text not null,
    address text not null,
    phone_number text not null,
    email_address text not null,
    support_email_address text not null,
    models_email_address text not null,
    clinic_url text not null,
    -- Presentation lists, kept as the JSON the pages read.
    social_media text not null,
    footer_logos text not null,
    footer_links text not null,
    logo text not null,
    hero text not null
);

create table section (
    slug text primary key,
    title text not null,
    summary text not null,
    intro text not null,
    image text not null,
    position bigint not null
);

create table course (
    id text primary key,
    section_slug text not null constraint course_section_fk references section (slug),
    url text not null constraint course_url_key unique,
    title text not null,
    summary text not null,
    description_html text not null,
    image text not null,
    online boolean not null,
    is_package boolean not null,
    is_new boolean not null,
    featured boolean not null,
    price_id text not null constraint course_price_id_key unique,
    unit_amount bigint not null constraint course_unit_amount_positive check (unit_amount > 0),
    was_amount bigint,
    duration text not null,
    level text not null,
    accreditation text not null,
    prerequisites text not null,
    includes text not null,
    kit_name text,
    kit_price bigint,
    kit_worth_price bigint,
    kit_note text,
    faqs text not null,
    position bigint not null
);

create table course_section (
    course_id text not null constraint course_section_course_fk references course (id) on delete cascade,
    section_slug text not null constraint course_section_section_fk references section (slug),
    position bigint not null,
    constraint course_section_pkey primary key (course_id, section_slug)
);

create index course_section_by_section on course_section (section_slug, position);

-- The bookable product of an in-person course; its sessions are the dates.
create table event (
    id text primary key,
    course_id text not null constraint event_course_key unique
        constraint event_course_fk references course (id) on delete cascade,
    standard_price bigint not null,
    was_price bigint,
    is_package boolean not null
);

create table session (
    id text primary key,
    event_id text not null constraint session_event_fk references event (id) on delete cascade,
    start_at timestamp not null,
    end_at timestamp not null,
    date date not null,
    price bigint not null,
    seat_price bigint not null,
    seats bigint not null constraint session_seats_positive check (seats > 0),
    registrations bigint not null default 0,
    type text not null constraint session_type_known check (type in ('onsite', 'virtual', 'blended')),
    status text not null default 'active',
    constraint session_not_oversold check (registrations between 0 and seats)
);

create index session_by_date on session (date);
create index session_by_event on session (event_id, date);

create table upsell (
    price_id text primary key constraint upsell_course_fk references course (price_id) on delete cascade,
    title text not null,
    description text not null,
    cta text not null,
    product_id text not null,
    unit_amount bigint not null constraint upsell_amount_positive check (unit_amount > 0)
);

create table discount_code (
    code text primary key,
    type text not null constraint discount_type_known check (type in ('pound', 'percent')),
    value bigint not null constraint discount_value_positive check (value > 0),
    expires_on date,
    max_uses bigint,
    uses bigint not null default 0,
    active boolean not null default true
);

create table page (
    slug text primary key,
    title text not null,
    description text not null,
    body_html text not null
);

create table team_member (
    id text primary key,
    name text not null,
    role text not null,
    bio text not null,
    image text not null,
    position bigint not null
);

create table job (
    id text primary key,
    title text not null,
    location text not null,
    kind text not null,
    summary text not null,
    description_html text not null,
    position bigint not null
);

create table blog_post (
    slug text primary key,
    title text not null,
    excerpt text not null,
    author text not null,
    published_on date not null,
    image text not null,
    tags text not null,
    body_html text not null
);

create index blog_post_by_date on blog_post (published_on desc);

create table pathway_level (
    level bigint primary key,
    title text not null,
    summary text not null,
    duration text not null,
    units text not null,
    price bigint not null
);

-- Bumped by every content load; page caches are keyed by it.
create table content_version (
    id smallint primary key constraint content_version_single_row check (id = 1),
    version bigint not null,
    loaded_at timestamptz not null
);
