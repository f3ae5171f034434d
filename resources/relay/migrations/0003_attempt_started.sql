-- The send a cron run is about to make or is making: the moment it started, cleared with its outcome.
-- A run stopped by its host in between (after LINE may have taken the message) leaves it set: the next
-- run that finds its lease over records that attempt (RUN_STOPPED), so it reaches the app's Deliveries,
-- before the delivery is tried again with the same retry key. Read through deliveries_next, as the lease.
ALTER TABLE deliveries ADD COLUMN attempt_started_at INTEGER;
UPDATE meta SET value = '3' WHERE key = 'schema_version';
