-- 0031, the failure breaker of each campaign (domain/failure_breaker.hpp):
-- the campaign pauses with the reason failure_breaker when provider
-- failures reach failure_breaker_percent of its last failure_breaker_calls
-- ended calls. Null fields take the defaults (20 calls, 50 percent); 0
-- calls turns the breaker off. failure_breaker_after is the call that last
-- tripped it: the breaker counts only later calls, so a campaign resumed
-- by hand starts with an empty window. Adding these columns rewrites
-- nothing. Same rules as 0001 (no colon outside literals except casts, no
-- apostrophe in comments).
ALTER TABLE campaigns
  ADD COLUMN failure_breaker_calls integer NULL
    CHECK (failure_breaker_calls BETWEEN 0 AND 1000),
  ADD COLUMN failure_breaker_percent integer NULL
    CHECK (failure_breaker_percent BETWEEN 1 AND 100),
  ADD COLUMN failure_breaker_after bigint NOT NULL DEFAULT 0;
