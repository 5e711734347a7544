-- 0039, a voice provider configuration of kind simulated: its calls go to
-- the simulated provider on every node, live ones included, so a tenant can
-- dry-run a campaign (docs/decisions/voice-providers.md).
ALTER TABLE voice_providers DROP CONSTRAINT voice_providers_voice_provider_check;
ALTER TABLE voice_providers ADD CONSTRAINT voice_providers_voice_provider_check
  CHECK (voice_provider IN ('provider_a', 'provider_b', 'provider_c', 'provider_d', 'simulated'));
