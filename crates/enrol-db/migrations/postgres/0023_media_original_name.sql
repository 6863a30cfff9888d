-- The name an image had on the uploader's computer, shown in the media
-- library and its picker; none for rows from before it was kept.
alter table media add column original_name text
    constraint media_original_name_given check (length(original_name) between 1 and 120);
