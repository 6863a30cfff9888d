-- What each booking holds of the student's money, its payments less what
-- was refunded or is being refunded, kept on the booking (issue 31): the
-- dashboard's balances owed, the order lists, the exports and the
-- reminders read it instead of adding up every booking's payments and
-- refunds each time. Triggers keep it, so every way money is recorded
-- keeps it: a new payment or refund moves it by its amount; a payment or
-- refund changed or removed (never in the product, but possible by hand)
-- counts the booking's money again. A migration that makes the payment or
-- refund table again must make these triggers again.
alter table enrollment add column paid bigint not null default 0;

create function enrollment_paid_counted(booking text) returns bigint language sql stable as $$
    select cast(coalesce((select sum(p.amount) from payment p where p.enrollment_id = booking), 0)
        - coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = booking), 0) as bigint)
$$;

update enrollment set paid = enrollment_paid_counted(id)
    where id in (select enrollment_id from payment where enrollment_id is not null);

create function enrollment_paid_by_payment() returns trigger language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        update enrollment set paid = paid + new.amount where id = new.enrollment_id;
        return null;
    end if;
    update enrollment set paid = enrollment_paid_counted(id) where id = old.enrollment_id;
    if tg_op = 'UPDATE' then
        update enrollment set paid = enrollment_paid_counted(id) where id = new.enrollment_id and id is distinct from old.enrollment_id;
    end if;
    return null;
end
$$;
create trigger enrollment_paid_by_payment after insert or update of amount, enrollment_id or delete on payment
    for each row execute function enrollment_paid_by_payment();

create function enrollment_paid_by_refund() returns trigger language plpgsql as $$
begin
    if tg_op = 'INSERT' then
        update enrollment set paid = paid - new.amount where id = (select enrollment_id from payment where id = new.payment_id);
        return null;
    end if;
    update enrollment set paid = enrollment_paid_counted(id) where id = (select enrollment_id from payment where id = old.payment_id);
    if tg_op = 'UPDATE' then
        update enrollment set paid = enrollment_paid_counted(id) where id = (select enrollment_id from payment where id = new.payment_id);
    end if;
    return null;
end
$$;
create trigger enrollment_paid_by_refund after insert or update of amount, payment_id or delete on refund
    for each row execute function enrollment_paid_by_refund();

-- The dashboard adds up the balances of the bookings on a deposit from
-- this index alone.
create index enrollment_deposit_owed on enrollment (balance_due_on, total, paid) where status = 'deposit';
