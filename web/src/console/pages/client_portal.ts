// A client's portal, as its agency manages it: the link its users sign in
// from, its users (status, last sign-in, disable or enable, a one-time
// password link) and its access levels, kind by kind.

import { api, attempt, ok, onSubmit, type Schemas } from '../../shared/api';
import { alertBox, copyable, field, h, replace, table } from '../../shared/dom';
import { resourceKinds } from '../../shared/resource_kinds';
import { when } from '../../shared/time';
import { may, session } from '../session';

type Level = 'no_access' | 'view_only' | 'view_and_add' | 'full_access';
const levels: Level[] = ['no_access', 'view_only', 'view_and_add', 'full_access'];

export function portalSection(clientId: string, access: Record<string, string>): HTMLElement {
  const section = h('section', { 'aria-labelledby': 'portal-h' });
  const problem = alertBox();
  const users = h('div');
  const shown = h('div');
  const writable = may('clients:write');
  const path = { client_id: clientId };
  const link = `${location.origin}/portal/sign-in?tenant=${encodeURIComponent(session()?.tenant_id ?? '')}`;

  async function showUsers(): Promise<void> {
    const d = await attempt(problem, () => api.GET('/api/v2/clients/{client_id}/users', { params: { path } }));
    if (!d) return;
    replace(
      users,
      table(
        ['User', 'Status', 'Last sign-in', 'Actions'],
        d.data.map((u) => [u.email, u.status, when(u.last_sign_in_at), writable && actions(u)]),
        'Portal users',
      ),
    );
  }

  function actions(u: Schemas['ClientUser']): HTMLElement {
    const change = async (status: 'Active' | 'Disabled') => {
      problem.textContent = '';
      const done = await attempt(problem, () =>
        api.PATCH('/api/v2/clients/{client_id}/users/{user_id}', { params: { path: { ...path, user_id: u.id } }, body: { status } }),
      );
      if (done) await showUsers();
    };
    const newLink = async () => {
      problem.textContent = '';
      const made = await attempt(problem, () =>
        api.POST('/api/v2/clients/{client_id}/users/{user_id}/setup-link', { params: { path: { ...path, user_id: u.id } } }),
      );
      if (made)
        replace(
          shown,
          h('p', { class: 'warning' }, `Give this link to ${u.email}; it is shown only now and works once, until ${when(made.data.setup_expires_at)}.`),
          copyable(`Password link for ${u.email}`, made.data.setup_url),
        );
    };
    return h(
      'div',
      { class: 'actions' },
      u.status === 'Active'
        ? h('button', { type: 'button', onclick: () => void change('Disabled') }, `Disable ${u.email}`)
        : h('button', { type: 'button', onclick: () => void change('Active') }, `Enable ${u.email}`),
      h('button', { type: 'button', onclick: () => void newLink() }, `Password link for ${u.email}`),
    );
  }

  const selects = new Map(
    resourceKinds.map(([kind]) => {
      const select = h('select', {});
      for (const l of levels) select.append(h('option', { value: l, selected: (access[kind] ?? 'view_only') === l }, l.replace(/_/g, ' ')));
      return [kind, select] as const;
    }),
  );
  const saved = h('p', { role: 'status' });
  const levelsForm = h(
    'form',
    {
      onsubmit: onSubmit(problem, async () => {
        saved.textContent = '';
        const client_access = Object.fromEntries([...selects].map(([kind, s]) => [kind, s.value as Level]));
        await ok(api.PUT('/api/v2/clients/{client_id}/access', { params: { path }, body: { client_access } }));
        saved.textContent = 'Saved: the client\'s users act with these levels from their next request.';
      }),
    },
    h(
      'details',
      {},
      h('summary', {}, 'Change the access levels'),
      h('p', {}, 'Campaigns: view only reads progress, leads and calls; view and add also adds leads; full access also changes leads, settings and status. Other kinds: any level but no access shows the assigned ids.'),
      ...resourceKinds.map(([kind, label]) => field(label, selects.get(kind)!)),
      h('button', { type: 'submit' }, 'Save access levels'),
    ),
    saved,
  );

  replace(
    section,
    h('h2', { id: 'portal-h' }, 'Portal'),
    copyable('Portal link for this client\'s users', link),
    problem,
    users,
    shown,
    writable && levelsForm,
  );
  void showUsers();
  return section;
}
