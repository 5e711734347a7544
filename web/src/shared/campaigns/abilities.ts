// What the signed-in user may do with campaigns, as its session says: a
// member's role in the console, a client user's level in the portal. The
// campaign pages show only what it may do; the API refuses the rest anyway.

export interface Abilities {
  // Where the pages live: '/console' or '/portal'.
  base: string;
  // The page title's suffix.
  app: string;
  createCampaigns: boolean;
  // Status actions, schedule and settings.
  changeCampaigns: boolean;
  addLeads: boolean;
  // The tenant's event stream (live progress without waiting for a read).
  followEvents: boolean;
  // Which of the tenant's number pools a campaign calls from (the pool
  // routes are not open to client users).
  choosePools: boolean;
  // Where the campaign's events go (webhook_url) and what its calls are
  // (calling_purpose, which decides the calling rules): the tenant's alone.
  setWebhook: boolean;
}
