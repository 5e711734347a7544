-- Rows past their retention are deleted oldest first, a batch at a time
-- (storage/retention.cpp); each index below lets a batch read only the rows
-- it deletes. Partial where only some rows may ever go.
CREATE INDEX calls_retention_idx ON calls (ended_at) WHERE usage_recorded;
CREATE INDEX webhook_deliveries_retention_idx ON webhook_deliveries (updated_at)
  WHERE status <> 'pending';
CREATE INDEX events_retention_idx ON events (created_at);
CREATE INDEX lead_import_jobs_retention_idx ON lead_import_jobs (finished_at)
  WHERE finished_at IS NOT NULL;
