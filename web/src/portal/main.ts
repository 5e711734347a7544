// The client portal: one page per path under /portal, each a client of the
// public API with the client user's session. While a payment is due only
// billing and the account are open (the API refuses the rest anyway).

import { api } from '../shared/api';
import { startApp, type Page } from '../shared/app';
import { campaignPage } from '../shared/campaigns/campaign';
import { campaignsPage } from '../shared/campaigns/campaigns';
import { replace } from '../shared/dom';
import { showHeader } from '../shared/header';
import { accountPage } from './pages/account';
import { billingPage } from './pages/billing';
import { formsPage } from './pages/forms';
import { resourcesPage } from './pages/resources';
import { setupPage } from './pages/setup';
import { signInPage } from './pages/sign_in';
import { abilities, forget, load, reaches, session } from './session';

const routes: [RegExp, Page, boolean][] = [
  [/^\/portal\/sign-in$/, signInPage, false],
  [/^\/portal\/setup$/, setupPage, false],
  [/^\/portal(?:\/campaigns)?\/?$/, (main) => campaignsPage(main, abilities()), true],
  [/^\/portal\/campaigns\/([^/]+)$/, (main, params) => campaignPage(main, params, abilities()), true],
  [/^\/portal\/resources$/, resourcesPage, true],
  [/^\/portal\/billing$/, billingPage, true],
  [/^\/portal\/forms$/, formsPage, true],
  [/^\/portal\/account$/, accountPage, true],
];

// Open while a payment is due.
const alwaysOpen = ['/portal/billing', '/portal/account'];

function header(redraw: () => void): void {
  const top = document.getElementById('top')!;
  const s = session();
  if (!s) return replace(top);
  const open = !s.portal_blocked;
  showHeader(top, {
    label: 'Portal',
    links: [
      ...(open && reaches('view_only') ? [['/portal/campaigns', 'Campaigns'] as [string, string]] : []),
      ...(open ? [['/portal/resources', 'Resources'] as [string, string]] : []),
      ['/portal/billing', 'Billing'],
      ...(open ? [['/portal/forms', 'Forms'] as [string, string]] : []),
      ['/portal/account', 'Account'],
    ],
    who: `${s.user.email} (${s.client.name})`,
    end: () => api.DELETE('/api/v2/portal/session'),
    forget,
    signInPath: '/portal/sign-in',
    redraw,
  });
}

startApp({
  base: '/portal',
  routes,
  // Read on every page: the session says whether a payment is due, and a
  // payment recorded elsewhere opens the portal at the next page.
  signedIn: async () => !!(await load()),
  forget: () => {
    const held = !!session();
    forget();
    return held;
  },
  header,
  redirect: (path) => {
    const s = session();
    if (s?.portal_blocked && !alwaysOpen.includes(path)) return '/portal/billing';
    if (!s?.portal_blocked && !reaches('view_only') && /^\/portal(\/campaigns.*)?\/?$/.test(path)) return '/portal/resources';
    return null;
  },
});
