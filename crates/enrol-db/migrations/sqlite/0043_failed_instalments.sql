-- A plan whose part the bank refused for good no longer keeps the
-- balance reminders away (decision 036); the reminders' run finds those
-- parts through this index, the size of what is failed, not of every
-- instalment over the years.
create index plan_instalment_failed on plan_instalment (plan_id) where status = 'failed';
