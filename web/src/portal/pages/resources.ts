// What the agency gave the client, kind by kind, at the level it granted;
// its campaigns by name, each a link to its page.

import { api, attempt } from '../../shared/api';
import { alertBox, h, replace, table, type Child } from '../../shared/dom';
import { kindName } from '../../shared/resource_kinds';
import { reaches } from '../session';

export function resourcesPage(main: HTMLElement): void {
  const problem = alertBox();
  const list = h('div', { 'aria-busy': 'true' });
  replace(main, h('h1', {}, 'Your resources'), problem, list);
  void Promise.all([
    attempt(problem, () => api.GET('/api/v2/portal/resources')),
    reaches('view_only') ? api.GET('/api/v2/voice-campaigns', { params: { query: { page_size: 100 } } }).then((r) => r.data?.data ?? []) : Promise.resolve([]),
  ]).then(([d, campaigns]) => {
    list.setAttribute('aria-busy', 'false');
    if (!d) return;
    const names = new Map(campaigns.map((c) => [c.id, c.name]));
    const assigned = (kind: string, ids: string[]): Child[] =>
      kind === 'campaign'
        ? ids.flatMap((id, i) => [i ? ', ' : '', h('a', { href: `/portal/campaigns/${encodeURIComponent(id)}` }, names.get(id) ?? id)])
        : [ids.join(', ')];
    const shown = d.data.filter((k) => k.level !== 'no_access');
    replace(
      list,
      table(
        ['Kind', 'Your access', 'Assigned'],
        shown.map((k) => [kindName(k.kind), k.level.replace(/_/g, ' '), k.ids.length ? h('span', {}, ...assigned(k.kind, k.ids)) : 'none']),
        'Resources assigned to you',
      ),
    );
  });
}
