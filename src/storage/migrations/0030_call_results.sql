-- 0030, what a voice provider reports about a call when it ends, each
-- field as it was sent (the service drops a field over its size limit before the
-- write, see domain/call_result.hpp). structured_data is the text of a
-- JSON object, kept byte for byte. evaluation_verdict is what the domain
-- rule verdict_of reads in the success evaluation, the key the client
-- detail counts by.
ALTER TABLE calls
  ADD COLUMN summary            text NULL,
  ADD COLUMN transcript         text NULL,
  ADD COLUMN recording_url      text NULL,
  ADD COLUMN success_evaluation text NULL,
  ADD COLUMN structured_data    text NULL,
  ADD COLUMN ended_reason       text NULL,
  ADD COLUMN cost               numeric(12, 4) NULL CHECK (cost >= 0),
  ADD COLUMN evaluation_verdict text NULL
    CHECK (evaluation_verdict IN ('success', 'failure', 'unclear'));

-- The calls of each campaign and their evaluations since it was created
-- (retention deletes calls, not these counts), kept by triggers so that a
-- node of the previous version, still placing calls during an upgrade, is
-- counted too. Every statement that places or ends a call runs under its
-- campaign row lock, so one counter row per campaign adds no wait and no
-- lock order of its own.
CREATE TABLE campaign_call_counts (
  campaign_id       bigint PRIMARY KEY,
  tenant_id         bigint NOT NULL,
  calls             bigint NOT NULL DEFAULT 0,
  evaluated_success bigint NOT NULL DEFAULT 0,
  evaluated_failure bigint NOT NULL DEFAULT 0,
  evaluated_unclear bigint NOT NULL DEFAULT 0,
  FOREIGN KEY (tenant_id, campaign_id) REFERENCES campaigns (tenant_id, id) ON DELETE CASCADE
);

-- Writers wait while the calls are counted, so none goes uncounted or is
-- counted twice.
LOCK TABLE calls IN SHARE ROW EXCLUSIVE MODE;

INSERT INTO campaign_call_counts (campaign_id, tenant_id, calls)
SELECT campaign_id, tenant_id, count(*) FROM calls GROUP BY campaign_id, tenant_id;

CREATE FUNCTION vcs_count_call() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  placed bigint DEFAULT CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE 0 END;
  s bigint DEFAULT (NEW.evaluation_verdict IS NOT DISTINCT FROM 'success')::int;
  f bigint DEFAULT (NEW.evaluation_verdict IS NOT DISTINCT FROM 'failure')::int;
  u bigint DEFAULT (NEW.evaluation_verdict IS NOT DISTINCT FROM 'unclear')::int;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    s = s - (OLD.evaluation_verdict IS NOT DISTINCT FROM 'success')::int;
    f = f - (OLD.evaluation_verdict IS NOT DISTINCT FROM 'failure')::int;
    u = u - (OLD.evaluation_verdict IS NOT DISTINCT FROM 'unclear')::int;
  END IF;
  INSERT INTO campaign_call_counts AS t
    (campaign_id, tenant_id, calls, evaluated_success, evaluated_failure, evaluated_unclear)
  VALUES (NEW.campaign_id, NEW.tenant_id, placed, s, f, u)
  ON CONFLICT (campaign_id) DO UPDATE SET calls = t.calls + placed,
    evaluated_success = t.evaluated_success + s, evaluated_failure = t.evaluated_failure + f,
    evaluated_unclear = t.evaluated_unclear + u;
  RETURN NULL;
END
$$;
CREATE TRIGGER calls_counted AFTER INSERT ON calls
  FOR EACH ROW EXECUTE FUNCTION vcs_count_call();
CREATE TRIGGER calls_evaluation_counted AFTER UPDATE OF evaluation_verdict ON calls
  FOR EACH ROW WHEN (OLD.evaluation_verdict IS DISTINCT FROM NEW.evaluation_verdict)
  EXECUTE FUNCTION vcs_count_call();
