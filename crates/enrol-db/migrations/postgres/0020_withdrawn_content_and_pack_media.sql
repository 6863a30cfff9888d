-- Issue 15, decision 018: a document taken off the site keeps its history
-- (a 'withdraw' revision) and comes back when it is published again; a
-- withdrawn course keeps its row, which sessions, orders and codes point
-- at, but no page or checkout shows it. Images loaded from a content pack
-- were uploaded by nobody on this site's staff.

alter table content_document add column withdrawn_at timestamptz;

alter table content_revision drop constraint content_revision_action_known;
alter table content_revision add constraint content_revision_action_known
    check (action in ('load', 'publish', 'revert', 'withdraw'));

alter table course add column withdrawn boolean not null default false;

alter table media alter column uploaded_by drop not null;
