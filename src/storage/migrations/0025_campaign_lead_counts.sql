-- The lead counts of each campaign, kept current by every statement that
-- changes leads, so that the campaign read, the client detail and the event
-- streams read one row (and its pending changes) instead of every lead.
-- Transactional, so exact on every node.

-- Writers wait while the counts are taken (reads go on), so that no lead or
-- campaign written by a node of the previous version between the count and
-- the triggers below goes uncounted.
LOCK TABLE campaigns, leads IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE campaign_lead_counts (
  campaign_id bigint PRIMARY KEY,
  tenant_id   bigint NOT NULL,
  idle        bigint NOT NULL DEFAULT 0,
  queued      bigint NOT NULL DEFAULT 0,
  in_progress bigint NOT NULL DEFAULT 0,
  completed   bigint NOT NULL DEFAULT 0,
  failed      bigint NOT NULL DEFAULT 0,
  answered    bigint NOT NULL DEFAULT 0,
  -- What leads_dialable_idx holds: IDLE, unanswered, not marked do-not-call,
  -- valid. The tenant do-not-call list is subtracted when read.
  dialable    bigint NOT NULL DEFAULT 0,
  FOREIGN KEY (tenant_id, campaign_id) REFERENCES campaigns (tenant_id, id) ON DELETE CASCADE
);

INSERT INTO campaign_lead_counts (campaign_id, tenant_id, idle, queued, in_progress, completed,
                                  failed, answered, dialable)
SELECT c.id, c.tenant_id,
       count(l.id) FILTER (WHERE l.call_status = 'IDLE'),
       count(l.id) FILTER (WHERE l.call_status = 'QUEUED'),
       count(l.id) FILTER (WHERE l.call_status = 'IN_PROGRESS'),
       count(l.id) FILTER (WHERE l.call_status = 'COMPLETED'),
       count(l.id) FILTER (WHERE l.call_status = 'FAILED'),
       count(l.id) FILTER (WHERE l.answered),
       count(l.id) FILTER (WHERE l.call_status = 'IDLE' AND NOT l.answered AND NOT l.do_not_call
                           AND NOT l.invalid)
FROM campaigns c LEFT JOIN leads l ON l.campaign_id = c.id
GROUP BY c.id, c.tenant_id;

-- What statements changed since the last fold into campaign_lead_counts, a
-- row per statement and campaign. Writers only insert here, so two of them
-- never wait for one another nor lock a row after their leads (a shared
-- counter row did deadlock, lead then counter in one transaction, counter
-- then lead in the next statement of another). A read adds the rows of its
-- campaign; maintenance folds them in every second (storage/lead_statistics.cpp).
-- No reference to campaigns, since the changes of a campaign deleted with its
-- leads are written in the same statement, and the fold drops them.
CREATE TABLE campaign_lead_count_changes (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  campaign_id bigint NOT NULL,
  idle        bigint NOT NULL,
  queued      bigint NOT NULL,
  in_progress bigint NOT NULL,
  completed   bigint NOT NULL,
  failed      bigint NOT NULL,
  answered    bigint NOT NULL,
  dialable    bigint NOT NULL
);
CREATE INDEX campaign_lead_count_changes_campaign ON campaign_lead_count_changes (campaign_id);

CREATE FUNCTION vcs_campaign_lead_counts_row() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO campaign_lead_counts (campaign_id, tenant_id) VALUES (NEW.id, NEW.tenant_id);
  RETURN NULL;
END
$$;
CREATE TRIGGER campaigns_lead_counts AFTER INSERT ON campaigns
  FOR EACH ROW EXECUTE FUNCTION vcs_campaign_lead_counts_row();

-- The change a statement made, once per campaign, +1 for the new version
-- of each row and -1 for the old; nothing when no counted column changed
-- (custom fields, positions). Transition tables exist only for the event a
-- trigger fires on, hence one statement per event, as in the auditing
-- example of the manual.
CREATE FUNCTION vcs_count_leads() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO campaign_lead_count_changes
      (campaign_id, idle, queued, in_progress, completed, failed, answered, dialable)
    SELECT * FROM (
      SELECT campaign_id,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE'), 0) AS idle,
             coalesce(sum(n) FILTER (WHERE call_status = 'QUEUED'), 0) AS queued,
             coalesce(sum(n) FILTER (WHERE call_status = 'IN_PROGRESS'), 0) AS in_progress,
             coalesce(sum(n) FILTER (WHERE call_status = 'COMPLETED'), 0) AS completed,
             coalesce(sum(n) FILTER (WHERE call_status = 'FAILED'), 0) AS failed,
             coalesce(sum(n) FILTER (WHERE answered), 0) AS answered,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE' AND NOT answered
                                     AND NOT do_not_call AND NOT invalid), 0) AS dialable
      FROM (SELECT 1 AS n, campaign_id, call_status, answered, do_not_call, invalid FROM new_leads) changed
      GROUP BY campaign_id) d
    WHERE (idle, queued, in_progress, completed, failed, answered, dialable) <> (0, 0, 0, 0, 0, 0, 0);
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO campaign_lead_count_changes
      (campaign_id, idle, queued, in_progress, completed, failed, answered, dialable)
    SELECT * FROM (
      SELECT campaign_id,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE'), 0) AS idle,
             coalesce(sum(n) FILTER (WHERE call_status = 'QUEUED'), 0) AS queued,
             coalesce(sum(n) FILTER (WHERE call_status = 'IN_PROGRESS'), 0) AS in_progress,
             coalesce(sum(n) FILTER (WHERE call_status = 'COMPLETED'), 0) AS completed,
             coalesce(sum(n) FILTER (WHERE call_status = 'FAILED'), 0) AS failed,
             coalesce(sum(n) FILTER (WHERE answered), 0) AS answered,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE' AND NOT answered
                                     AND NOT do_not_call AND NOT invalid), 0) AS dialable
      FROM (SELECT -1 AS n, campaign_id, call_status, answered, do_not_call, invalid FROM old_leads
            UNION ALL SELECT 1, campaign_id, call_status, answered, do_not_call, invalid FROM new_leads) changed
      GROUP BY campaign_id) d
    WHERE (idle, queued, in_progress, completed, failed, answered, dialable) <> (0, 0, 0, 0, 0, 0, 0);
  ELSE
    INSERT INTO campaign_lead_count_changes
      (campaign_id, idle, queued, in_progress, completed, failed, answered, dialable)
    SELECT * FROM (
      SELECT campaign_id,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE'), 0) AS idle,
             coalesce(sum(n) FILTER (WHERE call_status = 'QUEUED'), 0) AS queued,
             coalesce(sum(n) FILTER (WHERE call_status = 'IN_PROGRESS'), 0) AS in_progress,
             coalesce(sum(n) FILTER (WHERE call_status = 'COMPLETED'), 0) AS completed,
             coalesce(sum(n) FILTER (WHERE call_status = 'FAILED'), 0) AS failed,
             coalesce(sum(n) FILTER (WHERE answered), 0) AS answered,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE' AND NOT answered
                                     AND NOT do_not_call AND NOT invalid), 0) AS dialable
      FROM (SELECT -1 AS n, campaign_id, call_status, answered, do_not_call, invalid FROM old_leads) changed
      GROUP BY campaign_id) d
    WHERE (idle, queued, in_progress, completed, failed, answered, dialable) <> (0, 0, 0, 0, 0, 0, 0);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER leads_count_inserted AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_leads FOR EACH STATEMENT EXECUTE FUNCTION vcs_count_leads();
CREATE TRIGGER leads_count_updated AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_leads NEW TABLE AS new_leads
  FOR EACH STATEMENT EXECUTE FUNCTION vcs_count_leads();
CREATE TRIGGER leads_count_deleted AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_leads FOR EACH STATEMENT EXECUTE FUNCTION vcs_count_leads();
