-- What each booking holds of the student's money, its payments less what
-- was refunded or is being refunded, kept on the booking (issue 31): the
-- dashboard's balances owed, the order lists, the exports and the
-- reminders read it instead of adding up every booking's payments and
-- refunds each time. Triggers keep it, so every way money is recorded
-- keeps it: a new payment or refund moves it by its amount; a payment or
-- refund changed or removed (never in the product, but possible by hand)
-- counts the booking's money again. A migration that makes the payment or
-- refund table again (SQLite's way to change a table) must make these
-- triggers again.
alter table enrollment add column paid integer not null default 0;

update enrollment set paid = coalesce((select sum(p.amount) from payment p where p.enrollment_id = enrollment.id), 0)
    - coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = enrollment.id), 0)
    where id in (select enrollment_id from payment where enrollment_id is not null);

create trigger enrollment_paid_payment_insert after insert on payment begin
    update enrollment set paid = paid + new.amount where id = new.enrollment_id;
end;
create trigger enrollment_paid_payment_change after update of amount, enrollment_id on payment begin
    update enrollment set paid = coalesce((select sum(p.amount) from payment p where p.enrollment_id = enrollment.id), 0)
        - coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = enrollment.id), 0)
        where id in (old.enrollment_id, new.enrollment_id);
end;
create trigger enrollment_paid_payment_delete after delete on payment begin
    update enrollment set paid = coalesce((select sum(p.amount) from payment p where p.enrollment_id = enrollment.id), 0)
        - coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = enrollment.id), 0)
        where id = old.enrollment_id;
end;
create trigger enrollment_paid_refund_insert after insert on refund begin
    update enrollment set paid = paid - new.amount where id = (select enrollment_id from payment where id = new.payment_id);
end;
create trigger enrollment_paid_refund_change after update of amount, payment_id on refund begin
    update enrollment set paid = coalesce((select sum(p.amount) from payment p where p.enrollment_id = enrollment.id), 0)
        - coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = enrollment.id), 0)
        where id in (select enrollment_id from payment where id in (old.payment_id, new.payment_id));
end;
create trigger enrollment_paid_refund_delete after delete on refund begin
    update enrollment set paid = coalesce((select sum(p.amount) from payment p where p.enrollment_id = enrollment.id), 0)
        - coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = enrollment.id), 0)
        where id = (select enrollment_id from payment where id = old.payment_id);
end;

-- The dashboard adds up the balances of the bookings on a deposit from
-- this index alone.
create index enrollment_deposit_owed on enrollment (balance_due_on, total, paid) where status = 'deposit';
