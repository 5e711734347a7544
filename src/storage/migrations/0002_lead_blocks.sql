-- Live lead counts per block of 1024 positions, per campaign. A list page at
-- offset N locates its first lead by summing block counts from the newest
-- block down (a few hundred small rows even at offset 500000) instead of an
-- OFFSET scan over N leads, while removing a lead only decrements one count.
-- Maintained in the same transactions that insert and delete leads.
CREATE TABLE lead_blocks (
  campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  block       bigint NOT NULL CHECK (block >= 0),
  live_count  integer NOT NULL CHECK (live_count >= 0),
  PRIMARY KEY (campaign_id, block)
);

-- Import progress: items of payload before next_index are done. Advanced in
-- the same transaction as the leads of each chunk, so a crash repeats no
-- chunk and loses none.
ALTER TABLE lead_import_jobs
  ADD COLUMN next_index integer NOT NULL DEFAULT 0 CHECK (next_index >= 0);
