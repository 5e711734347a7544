-- 0032, what the campaign forecast reads instead of every lead
-- (storage/forecast_repository.cpp, domain/forecast.hpp).
--
-- The counters of 0025 gain the lasting dial states in the order a lead is
-- refused (domain::can_dial): marked do-not-call, else invalid, else
-- answered (or COMPLETED), else in a call (QUEUED, IN_PROGRESS), else
-- FAILED; what is left is the dialable count of 0025. dialable_attempts
-- sums the attempts those dialable leads made, for the calls left.
-- Same rules as 0001 (no colon outside literals except casts, no
-- apostrophe in comments).

-- Writers wait while the new counts are taken (reads go on), as in 0025.
LOCK TABLE campaigns, leads IN SHARE ROW EXCLUSIVE MODE;

ALTER TABLE campaign_lead_counts
  ADD COLUMN state_do_not_call bigint NOT NULL DEFAULT 0,
  ADD COLUMN state_invalid     bigint NOT NULL DEFAULT 0,
  ADD COLUMN state_answered    bigint NOT NULL DEFAULT 0,
  ADD COLUMN state_in_call     bigint NOT NULL DEFAULT 0,
  ADD COLUMN state_failed      bigint NOT NULL DEFAULT 0,
  ADD COLUMN dialable_attempts bigint NOT NULL DEFAULT 0;

-- Changes recorded before this migration add nothing to the new columns:
-- the counts below already hold every lead.
ALTER TABLE campaign_lead_count_changes
  ADD COLUMN state_do_not_call bigint NOT NULL DEFAULT 0,
  ADD COLUMN state_invalid     bigint NOT NULL DEFAULT 0,
  ADD COLUMN state_answered    bigint NOT NULL DEFAULT 0,
  ADD COLUMN state_in_call     bigint NOT NULL DEFAULT 0,
  ADD COLUMN state_failed      bigint NOT NULL DEFAULT 0,
  ADD COLUMN dialable_attempts bigint NOT NULL DEFAULT 0;

UPDATE campaign_lead_counts t
SET state_do_not_call = s.state_do_not_call, state_invalid = s.state_invalid,
    state_answered = s.state_answered, state_in_call = s.state_in_call,
    state_failed = s.state_failed, dialable_attempts = s.dialable_attempts
FROM (SELECT campaign_id,
             count(*) FILTER (WHERE do_not_call) AS state_do_not_call,
             count(*) FILTER (WHERE NOT do_not_call AND invalid) AS state_invalid,
             count(*) FILTER (WHERE NOT do_not_call AND NOT invalid
                              AND (answered OR call_status = 'COMPLETED')) AS state_answered,
             count(*) FILTER (WHERE NOT do_not_call AND NOT invalid AND NOT answered
                              AND call_status IN ('QUEUED', 'IN_PROGRESS')) AS state_in_call,
             count(*) FILTER (WHERE NOT do_not_call AND NOT invalid AND NOT answered
                              AND call_status = 'FAILED') AS state_failed,
             coalesce(sum(attempts_made) FILTER (WHERE call_status = 'IDLE' AND NOT answered
                                                 AND NOT do_not_call AND NOT invalid), 0)
               AS dialable_attempts
      FROM leads GROUP BY campaign_id) s
WHERE t.campaign_id = s.campaign_id;

-- As 0025, with the new columns.
CREATE OR REPLACE FUNCTION vcs_count_leads() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO campaign_lead_count_changes
      (campaign_id, idle, queued, in_progress, completed, failed, answered, dialable,
       state_do_not_call, state_invalid, state_answered, state_in_call, state_failed,
       dialable_attempts)
    SELECT * FROM (
      SELECT campaign_id,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE'), 0) AS idle,
             coalesce(sum(n) FILTER (WHERE call_status = 'QUEUED'), 0) AS queued,
             coalesce(sum(n) FILTER (WHERE call_status = 'IN_PROGRESS'), 0) AS in_progress,
             coalesce(sum(n) FILTER (WHERE call_status = 'COMPLETED'), 0) AS completed,
             coalesce(sum(n) FILTER (WHERE call_status = 'FAILED'), 0) AS failed,
             coalesce(sum(n) FILTER (WHERE answered), 0) AS answered,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE' AND NOT answered
                                     AND NOT do_not_call AND NOT invalid), 0) AS dialable,
             coalesce(sum(n) FILTER (WHERE do_not_call), 0) AS state_do_not_call,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND invalid), 0) AS state_invalid,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND NOT invalid
                                     AND (answered OR call_status = 'COMPLETED')), 0)
               AS state_answered,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND NOT invalid AND NOT answered
                                     AND call_status IN ('QUEUED', 'IN_PROGRESS')), 0)
               AS state_in_call,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND NOT invalid AND NOT answered
                                     AND call_status = 'FAILED'), 0) AS state_failed,
             coalesce(sum(n * attempts_made) FILTER (WHERE call_status = 'IDLE' AND NOT answered
                                                     AND NOT do_not_call AND NOT invalid), 0)
               AS dialable_attempts
      FROM (SELECT 1 AS n, campaign_id, call_status, answered, do_not_call, invalid, attempts_made
            FROM new_leads) changed
      GROUP BY campaign_id) d
    WHERE (idle, queued, in_progress, completed, failed, answered, dialable, state_do_not_call,
           state_invalid, state_answered, state_in_call, state_failed, dialable_attempts)
          <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO campaign_lead_count_changes
      (campaign_id, idle, queued, in_progress, completed, failed, answered, dialable,
       state_do_not_call, state_invalid, state_answered, state_in_call, state_failed,
       dialable_attempts)
    SELECT * FROM (
      SELECT campaign_id,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE'), 0) AS idle,
             coalesce(sum(n) FILTER (WHERE call_status = 'QUEUED'), 0) AS queued,
             coalesce(sum(n) FILTER (WHERE call_status = 'IN_PROGRESS'), 0) AS in_progress,
             coalesce(sum(n) FILTER (WHERE call_status = 'COMPLETED'), 0) AS completed,
             coalesce(sum(n) FILTER (WHERE call_status = 'FAILED'), 0) AS failed,
             coalesce(sum(n) FILTER (WHERE answered), 0) AS answered,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE' AND NOT answered
                                     AND NOT do_not_call AND NOT invalid), 0) AS dialable,
             coalesce(sum(n) FILTER (WHERE do_not_call), 0) AS state_do_not_call,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND invalid), 0) AS state_invalid,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND NOT invalid
                                     AND (answered OR call_status = 'COMPLETED')), 0)
               AS state_answered,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND NOT invalid AND NOT answered
                                     AND call_status IN ('QUEUED', 'IN_PROGRESS')), 0)
               AS state_in_call,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND NOT invalid AND NOT answered
                                     AND call_status = 'FAILED'), 0) AS state_failed,
             coalesce(sum(n * attempts_made) FILTER (WHERE call_status = 'IDLE' AND NOT answered
                                                     AND NOT do_not_call AND NOT invalid), 0)
               AS dialable_attempts
      FROM (SELECT -1 AS n, campaign_id, call_status, answered, do_not_call, invalid,
                   attempts_made FROM old_leads
            UNION ALL SELECT 1, campaign_id, call_status, answered, do_not_call, invalid,
                   attempts_made FROM new_leads) changed
      GROUP BY campaign_id) d
    WHERE (idle, queued, in_progress, completed, failed, answered, dialable, state_do_not_call,
           state_invalid, state_answered, state_in_call, state_failed, dialable_attempts)
          <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  ELSE
    INSERT INTO campaign_lead_count_changes
      (campaign_id, idle, queued, in_progress, completed, failed, answered, dialable,
       state_do_not_call, state_invalid, state_answered, state_in_call, state_failed,
       dialable_attempts)
    SELECT * FROM (
      SELECT campaign_id,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE'), 0) AS idle,
             coalesce(sum(n) FILTER (WHERE call_status = 'QUEUED'), 0) AS queued,
             coalesce(sum(n) FILTER (WHERE call_status = 'IN_PROGRESS'), 0) AS in_progress,
             coalesce(sum(n) FILTER (WHERE call_status = 'COMPLETED'), 0) AS completed,
             coalesce(sum(n) FILTER (WHERE call_status = 'FAILED'), 0) AS failed,
             coalesce(sum(n) FILTER (WHERE answered), 0) AS answered,
             coalesce(sum(n) FILTER (WHERE call_status = 'IDLE' AND NOT answered
                                     AND NOT do_not_call AND NOT invalid), 0) AS dialable,
             coalesce(sum(n) FILTER (WHERE do_not_call), 0) AS state_do_not_call,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND invalid), 0) AS state_invalid,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND NOT invalid
                                     AND (answered OR call_status = 'COMPLETED')), 0)
               AS state_answered,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND NOT invalid AND NOT answered
                                     AND call_status IN ('QUEUED', 'IN_PROGRESS')), 0)
               AS state_in_call,
             coalesce(sum(n) FILTER (WHERE NOT do_not_call AND NOT invalid AND NOT answered
                                     AND call_status = 'FAILED'), 0) AS state_failed,
             coalesce(sum(n * attempts_made) FILTER (WHERE call_status = 'IDLE' AND NOT answered
                                                     AND NOT do_not_call AND NOT invalid), 0)
               AS dialable_attempts
      FROM (SELECT -1 AS n, campaign_id, call_status, answered, do_not_call, invalid,
                   attempts_made FROM old_leads) changed
      GROUP BY campaign_id) d
    WHERE (idle, queued, in_progress, completed, failed, answered, dialable, state_do_not_call,
           state_invalid, state_answered, state_in_call, state_failed, dialable_attempts)
          <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  END IF;
  RETURN NULL;
END
$$;

-- The dialable leads with a next attempt (called before, or whose call
-- could not be placed), by attempts made and next attempt: the forecast
-- counts those with every attempt used (one range) and, per number of
-- attempts, those called since the start of the local day or still within
-- their gap (one range each). What it reads grows with the calls of a day,
-- never with the leads of the campaign.
CREATE INDEX leads_attempted_idx ON leads (campaign_id, attempts_made, next_attempt_after)
  WHERE call_status = 'IDLE' AND NOT answered AND NOT do_not_call AND NOT invalid
    AND next_attempt_after IS NOT NULL;
