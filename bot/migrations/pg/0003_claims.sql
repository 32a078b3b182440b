-- Escapade store on PostgreSQL, version 3 (kept in step with ../0003_claims.sql): notification claims.
ALTER TABLE notifications ADD COLUMN claimed_by TEXT;
ALTER TABLE notifications ADD COLUMN claimed_at DOUBLE PRECISION;
