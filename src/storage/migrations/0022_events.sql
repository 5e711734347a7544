-- Every event the service announces, whether or not a webhook receives it:
-- the tenant's pull feed (GET /api/v2/events). txid is the writing
-- transaction's id: the feed serves only events of transactions older than
-- every one still running (pg_snapshot_xmin) in (txid, id) order, so an
-- event that commits late can never land behind a cursor already handed out.
CREATE TABLE events (
  tenant_id   bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  txid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
  id          bigint GENERATED ALWAYS AS IDENTITY,
  event_id    text NOT NULL,
  event_type  text NOT NULL,
  campaign_id bigint,
  payload     text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, txid, id)
);
