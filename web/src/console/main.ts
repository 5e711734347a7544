// The console: one page per path under /console, each a client of the
// public API with the member's session.

import { api, whenSignedOut } from './api';
import { alertBox, field, h, replace } from './dom';
import { accountPage } from './pages/account';
import { billingPage } from './pages/billing';
import { campaignPage } from './pages/campaign';
import { campaignsPage } from './pages/campaigns';
import { clientsPage } from './pages/clients';
import { keysPage } from './pages/keys';
import { membersPage } from './pages/members';
import { setupPage } from './pages/setup';
import { signInPage } from './pages/sign_in';
import { webhooksPage } from './pages/webhooks';
import { go, onNavigate } from './nav';
import { forget, load, may, session } from './session';
import { chooseZone, zone, zones } from './time';

// What a page leaves running (a refresh timer) is stopped when it goes.
export type Page = (main: HTMLElement, params: string[]) => (() => void) | void;

const routes: [RegExp, Page, boolean][] = [
  [/^\/console\/sign-in$/, signInPage, false],
  [/^\/console\/setup$/, setupPage, false],
  [/^\/console(?:\/campaigns)?\/?$/, campaignsPage, true],
  [/^\/console\/campaigns\/([^/]+)$/, campaignPage, true],
  [/^\/console\/webhooks$/, webhooksPage, true],
  [/^\/console\/clients$/, clientsPage, true],
  [/^\/console\/billing$/, billingPage, true],
  [/^\/console\/keys$/, keysPage, true],
  [/^\/console\/members$/, membersPage, true],
  [/^\/console\/account$/, accountPage, true],
];

let stop: (() => void) | void;

async function render(): Promise<void> {
  if (stop) stop();
  stop = undefined;
  const main = document.getElementById('main')!;
  const path = location.pathname;
  const found = routes.find(([pattern]) => pattern.test(path));
  if (!found) {
    replace(main, h('h1', {}, 'Not found'), h('p', {}, h('a', { href: '/console/campaigns' }, 'Go to the campaigns')));
    return;
  }
  const [pattern, page, signedIn] = found;
  if (signedIn && !session() && !(await load())) return go('/console/sign-in');
  header();
  replace(main);
  stop = page(main, (path.match(pattern) ?? []).slice(1).map(decodeURIComponent));
  main.focus();
}

function header(): void {
  const top = document.getElementById('top')!;
  const s = session();
  if (!s) return replace(top);
  const here = location.pathname;
  const link = (href: string, label: string) =>
    h('a', { href, 'aria-current': here.startsWith(href) ? 'page' : undefined }, label);
  const picker = h('select', {
    onchange: (e: Event) => {
      chooseZone((e.target as HTMLSelectElement).value);
      void render();
    },
  });
  const current = zone();
  const choices = zones();
  for (const z of choices.includes(current) ? choices : [current, ...choices])
    picker.append(h('option', { value: z, selected: z === current }, z));
  const problem = alertBox();
  replace(
    top,
    h(
      'nav',
      { 'aria-label': 'Console' },
      h('span', { class: 'brand' }, 'Voice Campaigns'),
      link('/console/campaigns', 'Campaigns'),
      may('webhooks:read') && link('/console/webhooks', 'Webhooks'),
      may('clients:read') && link('/console/clients', 'Clients'),
      may('billing:read') && link('/console/billing', 'Billing'),
      may('keys:read') && link('/console/keys', 'API keys'),
      may('members:read') && link('/console/members', 'Members'),
      link('/console/account', 'Account'),
    ),
    h(
      'div',
      { class: 'who' },
      field('Show times in', picker),
      h('span', {}, `${s.member.email} (${s.member.role})`),
      h(
        'button',
        {
          type: 'button',
          onclick: async () => {
            const { response } = await api.DELETE('/api/v2/session');
            if (!response.ok && response.status !== 401) {
              problem.textContent = `Signing out failed (${response.status}); try again.`;
              return;
            }
            forget();
            go('/console/sign-in');
          },
        },
        'Sign out',
      ),
      problem,
    ),
  );
}

// Links inside the console change the page without a reload.
document.addEventListener('click', (e) => {
  const a = (e.target as Element).closest?.('a');
  if (!a || a.target || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/console')) return;
  e.preventDefault();
  go(url.pathname + url.search);
});
onNavigate(() => void render());
window.addEventListener('popstate', () => void render());
whenSignedOut(() => {
  if (!session()) return;
  forget();
  go('/console/sign-in');
});

void render();
