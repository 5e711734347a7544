// The signed-in client user, as GET /api/v2/portal/session tells it, and
// the tenant whose portal this is (from the link the agency gave, kept in
// this browser).

import { actAsPortal, api, type Schemas } from '../shared/api';
import type { Abilities } from '../shared/campaigns/abilities';
import { sessionStore } from '../shared/session_store';

export type Session = Schemas['PortalSessionAnswer']['data'];
type Level = Session['access'][string];

actAsPortal();

export const { session, remember, forget, load } = sessionStore<Session>(async () => {
  const { data, response } = await api.GET('/api/v2/portal/session');
  return response.ok && data ? data.data : null;
});

const order: Level[] = ['no_access', 'view_only', 'view_and_add', 'full_access'];
// Whether the client's level for campaigns is at least `least`.
export function reaches(least: Level): boolean {
  return order.indexOf(session()?.access.campaign ?? 'no_access') >= order.indexOf(least);
}

// What the client's campaign level lets it do
// (docs/decisions/clients-and-billing.md#client-portal-client-users).
export const abilities = (): Abilities => ({
  base: '/portal',
  app: 'Client Portal',
  createCampaigns: false,
  changeCampaigns: reaches('full_access'),
  addLeads: reaches('view_and_add'),
  followEvents: false,
  choosePools: false,
  setWebhook: false,
});

const tenantKey = 'vcs-portal-tenant';
// The tenant of the portal: the link's ?tenant=, remembered for later.
export function portalTenant(): string {
  const given = new URLSearchParams(location.search).get('tenant');
  if (given) localStorage.setItem(tenantKey, given);
  return given ?? localStorage.getItem(tenantKey) ?? '';
}
