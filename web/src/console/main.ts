// The console: one page per path under /console, each a client of the
// public API with the member's session.

import { api } from '../shared/api';
import { startApp, type Page } from '../shared/app';
import type { Abilities } from '../shared/campaigns/abilities';
import { campaignPage } from '../shared/campaigns/campaign';
import { campaignsPage } from '../shared/campaigns/campaigns';
import { replace } from '../shared/dom';
import { showHeader } from '../shared/header';
import { accountPage } from './pages/account';
import { billingPage } from './pages/billing';
import { clientsPage } from './pages/clients';
import { keysPage } from './pages/keys';
import { membersPage } from './pages/members';
import { poolsPage } from './pages/pools';
import { setupPage } from './pages/setup';
import { signInPage } from './pages/sign_in';
import { webhooksPage } from './pages/webhooks';
import { forget, load, may, session } from './session';

// What the member's role lets it do with campaigns.
const abilities = (): Abilities => ({
  base: '/console',
  app: 'Voice Campaign Console',
  createCampaigns: may('campaigns:write'),
  changeCampaigns: may('campaigns:write'),
  addLeads: may('leads:write'),
  followEvents: may('webhooks:read'),
  choosePools: may('campaigns:read'),
  setWebhook: true,
});

const routes: [RegExp, Page, boolean][] = [
  [/^\/console\/sign-in$/, signInPage, false],
  [/^\/console\/setup$/, setupPage, false],
  [/^\/console(?:\/campaigns)?\/?$/, (main) => campaignsPage(main, abilities()), true],
  [/^\/console\/campaigns\/([^/]+)$/, (main, params) => campaignPage(main, params, abilities()), true],
  [/^\/console\/pools$/, poolsPage, true],
  [/^\/console\/webhooks$/, webhooksPage, true],
  [/^\/console\/clients$/, clientsPage, true],
  [/^\/console\/billing$/, billingPage, true],
  [/^\/console\/keys$/, keysPage, true],
  [/^\/console\/members$/, membersPage, true],
  [/^\/console\/account$/, accountPage, true],
];

function header(redraw: () => void): void {
  const top = document.getElementById('top')!;
  const s = session();
  if (!s) return replace(top);
  const link = (permission: Parameters<typeof may>[0], href: string, text: string): [string, string][] =>
    may(permission) ? [[href, text]] : [];
  showHeader(top, {
    label: 'Console',
    links: [
      ['/console/campaigns', 'Campaigns'],
      ...link('campaigns:read', '/console/pools', 'Number pools'),
      ...link('webhooks:read', '/console/webhooks', 'Webhooks'),
      ...link('clients:read', '/console/clients', 'Clients'),
      ...link('billing:read', '/console/billing', 'Billing'),
      ...link('keys:read', '/console/keys', 'API keys'),
      ...link('members:read', '/console/members', 'Members'),
      ['/console/account', 'Account'],
    ],
    who: `${s.member.email} (${s.member.role})`,
    end: () => api.DELETE('/api/v2/session'),
    forget,
    signInPath: '/console/sign-in',
    redraw,
  });
}

startApp({
  base: '/console',
  routes,
  signedIn: async () => !!session() || !!(await load()),
  forget: () => {
    const held = !!session();
    forget();
    return held;
  },
  header,
});
