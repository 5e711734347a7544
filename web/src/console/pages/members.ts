// The tenant's members: invited with a one-time set-up link (shown once),
// given another role, sent a new link, removed.

import { api, attempt, type Schemas } from '../../shared/api';
import { alertBox, copyable, field, h, replace, table } from '../../shared/dom';
import { may, session } from '../session';
import { when } from '../../shared/time';

type Role = Schemas['MemberInvitation']['role'];
const roles: Role[] = ['owner', 'admin', 'viewer'];

export function membersPage(main: HTMLElement): void {
  const problem = alertBox();
  const list = h('div');
  const link = h('div');

  function showLink(answer: Schemas['MemberLinkAnswer']): void {
    replace(
      link,
      h('p', { class: 'warning' }, `Give this link to ${answer.data.email}; it works once, until ${when(answer.setup_expires_at)}.`),
      copyable(`Set-up link for ${answer.data.email}`, answer.setup_url),
    );
  }

  async function act<T>(request: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T | null> {
    problem.textContent = '';
    const answer = await attempt(problem, request);
    if (answer !== null) await show();
    return answer;
  }

  async function show(): Promise<void> {
    const data = await attempt(problem, () => api.GET('/api/v2/members'));
    if (!data) return;
    const writable = may('members:write');
    const me = session()?.member.id;
    replace(
      list,
      table(
        ['E-mail', 'Role', 'Status', 'Last sign-in', 'Actions'],
        data.data.map((m) => {
          const role = h('select', { 'aria-label': `Role of ${m.email}`, disabled: !writable });
          for (const r of roles) role.append(h('option', { value: r, selected: r === m.role }, r));
          role.addEventListener('change', () => {
            void act(() => api.PATCH('/api/v2/members/{member_id}', { params: { path: { member_id: m.id } }, body: { role: role.value as Role } }));
          });
          return [
            m.email + (m.id === me ? ' (you)' : ''),
            role,
            m.status,
            when(m.last_sign_in_at),
            writable &&
              h(
                'div',
                { class: 'row-actions' },
                h(
                  'button',
                  {
                    type: 'button',
                    onclick: async () => {
                      const answer = await act(() => api.POST('/api/v2/members/{member_id}/setup-link', { params: { path: { member_id: m.id } } }));
                      if (answer) showLink(answer);
                    },
                  },
                  `New set-up link for ${m.email}`,
                ),
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'danger',
                    onclick: () => {
                      if (confirm(`Remove ${m.email}? Their sessions end at once.`))
                        void act(() => api.DELETE('/api/v2/members/{member_id}', { params: { path: { member_id: m.id } } }));
                    },
                  },
                  `Remove ${m.email}`,
                ),
              ),
          ];
        }),
        'Members',
      ),
    );
  }

  const email = h('input', { type: 'email', maxlength: 254, required: true, autocomplete: 'off' });
  const role = h('select', {});
  for (const r of roles) role.append(h('option', { value: r, selected: r === 'viewer' }, r));
  const form = h(
    'form',
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        replace(link);
        const answer = await act(() => api.POST('/api/v2/members', { body: { email: email.value, role: role.value as Role } }));
        if (answer) {
          showLink(answer);
          email.value = '';
        }
      },
    },
    field('E-mail', email),
    field('Role', role, 'Owner: everything. Admin: everything but members. Viewer: reads only.'),
    h('button', { type: 'submit' }, 'Invite'),
  );

  replace(main, h('h1', {}, 'Members'), may('members:write') && form, link, problem, list);
  void show();
}
