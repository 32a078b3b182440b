-- Escapade store, version 3: notifications claimed by one process before it sends them (several bot
-- processes may share a store). claimed_by names the process; claimed_at is when it claimed.
ALTER TABLE notifications ADD COLUMN claimed_by TEXT;
ALTER TABLE notifications ADD COLUMN claimed_at REAL;
