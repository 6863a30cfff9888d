-- The newsletter (§7, §9 'newsletter' conversion): an address joins only
-- once it confirms by a mailed link (double opt-in), and the words it
-- agreed to are kept with it.

create table newsletter_subscriber (
    email text primary key,
    -- The consent the visitor gave, as the form showed it.
    consent_text text not null,
    asked_at timestamptz not null,
    confirmed_at timestamptz
);

create table newsletter_confirmation (
    token_hash text primary key,
    email text not null constraint newsletter_confirmation_email_fk references newsletter_subscriber (email) on delete cascade,
    expires_at timestamptz not null
);
