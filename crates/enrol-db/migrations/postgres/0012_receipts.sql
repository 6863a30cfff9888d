-- Receipts and credit notes (issue 13, decision 016): every payment gets a
-- receipt and every refund made a credit note, numbered per prefix without
-- gaps. The next number is taken by updating the prefix's row in the
-- transaction of the payment or refund: a transaction rolled back gives its
-- number back, and the row lock makes concurrent issuers take turns.

create table document_sequence (
    prefix text primary key,
    last_number bigint not null
);

-- A document as issued: `document` is the JSON of everything it shows, so
-- it never changes when the catalogue, the site record or the
-- configuration do. Who may open it: the account of its payment, or whoever
-- holds the mailed link (the SHA-256 of its token is kept, never the token).
create table receipt (
    id text primary key,
    number text not null constraint receipt_number_key unique,
    prefix text not null,
    sequence bigint not null,
    kind text not null constraint receipt_kind_known check (kind in ('receipt', 'credit_note')),
    payment_id text not null constraint receipt_payment_fk references payment (id),
    refund_id text constraint receipt_refund_fk references refund (id) constraint receipt_refund_key unique,
    enrollment_id text constraint receipt_enrollment_fk references enrollment (id),
    online_order_id text constraint receipt_online_order_fk references online_order (id),
    amount bigint not null constraint receipt_amount_not_negative check (amount >= 0),
    issued_at timestamptz not null,
    access_token_hash text not null,
    document text not null,
    constraint receipt_sequence_key unique (prefix, sequence),
    constraint receipt_credit_note_has_refund check ((kind = 'credit_note') = (refund_id is not null))
);
-- One receipt per payment; its credit notes are found by its payment too.
create unique index receipt_one_per_payment on receipt (payment_id) where kind = 'receipt';
create index receipt_by_payment on receipt (payment_id, sequence);

-- Issued means never changed and never removed: a mistake is corrected by
-- a credit note, in the database as in the code.
create function receipt_immutable() returns trigger language plpgsql as $$
begin
    raise exception 'receipt % is issued: it is never changed or removed, only corrected by a credit note', old.number
        using errcode = 'restrict_violation';
end
$$;

create trigger receipt_never_changed before update or delete on receipt
    for each row execute function receipt_immutable();
