// What the agency gave the client, kind by kind, at the level it granted.

import { api, attempt } from '../../shared/api';
import { alertBox, h, replace, table } from '../../shared/dom';
import { kindName } from '../../shared/resource_kinds';


export function resourcesPage(main: HTMLElement): void {
  const problem = alertBox();
  const list = h('div', { 'aria-busy': 'true' });
  replace(main, h('h1', {}, 'Your resources'), problem, list);
  void attempt(problem, () => api.GET('/api/v2/portal/resources')).then((d) => {
    list.setAttribute('aria-busy', 'false');
    if (!d) return;
    const shown = d.data.filter((k) => k.level !== 'no_access');
    replace(
      list,
      table(
        ['Kind', 'Your access', 'Assigned'],
        shown.map((k) => [kindName(k.kind), k.level.replace(/_/g, ' '), k.ids.join(', ') || 'none']),
        'Resources assigned to you',
      ),
    );
  });
}
