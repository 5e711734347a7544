-- Bumped by every write transaction of the campaign's actor: the row lock
-- that serialises those writes across nodes is this update
-- (storage::begin_locking_campaign). A node may serve a lead page it
-- rendered earlier while the version read with the caller's key, in the
-- same round trip, is still the one the page was rendered at.
ALTER TABLE campaigns ADD COLUMN leads_version bigint NOT NULL DEFAULT 0;

-- A version bump alone is not a change to the campaign: its updated_at stays.
DROP TRIGGER campaigns_touch ON campaigns;
CREATE TRIGGER campaigns_touch BEFORE UPDATE ON campaigns
  FOR EACH ROW WHEN (OLD.leads_version = NEW.leads_version)
  EXECUTE FUNCTION vcs_touch_updated_at();
