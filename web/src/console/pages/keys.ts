// The tenant's API keys: made with chosen permissions (the full key shown
// once, with a copy button), listed masked, enabled, disabled, deleted.

import { api, attempt, ok, onSubmit, type Schemas } from '../../shared/api';
import { alertBox, copyable, field, h, replace, table } from '../../shared/dom';
import { may } from '../session';
import { when } from '../../shared/time';

type Permission = Schemas['Permission'];
const areas = ['campaigns', 'leads', 'clients', 'billing', 'webhooks', 'keys', 'members'] as const;

const everything = areas.flatMap((a) => [`${a}:read`, `${a}:write`]);

function describePermissions(held: Permission[]): string {
  if (everything.every((p) => held.includes(p as Permission))) return 'everything';
  if (held.every((p) => p.endsWith(':read')) && areas.every((a) => held.includes(`${a}:read` as Permission)))
    return 'read only';
  return held.join(', ');
}

export function keysPage(main: HTMLElement): void {
  const problem = alertBox();
  const list = h('div');
  const made = h('div');

  const pageSize = 100;
  let page = 1;

  // Previous and next pages of the list, when there are any.
  function pager(total: number, shown: number): HTMLElement | false {
    if (total <= pageSize) return false;
    const first = (page - 1) * pageSize + 1;
    const turn = (to: number) => () => {
      page = to;
      void show();
    };
    return h(
      'nav',
      { class: 'pager', 'aria-label': 'API key pages' },
      h('span', {}, `Keys ${first}–${first + shown - 1} of ${total}`),
      page > 1 && h('button', { type: 'button', onclick: turn(page - 1) }, 'Previous keys'),
      first + shown - 1 < total && h('button', { type: 'button', onclick: turn(page + 1) }, 'Next keys'),
    );
  }

  async function show(): Promise<void> {
    const data = await attempt(problem, () => api.GET('/api/v2/api-keys', { params: { query: { page, page_size: pageSize } } }));
    if (!data) return;
    if (data.data.length === 0 && page > 1) {
      page -= 1;
      return show();
    }
    const writable = may('keys:write');
    replace(
      list,
      pager(data.meta.total, data.data.length),
      table(
        ['Name', 'Key', 'Status', 'Permissions', 'Expires', 'Created', 'Last used', 'Actions'],
        data.data.map((k) => [
          k.name,
          h('code', {}, k.masked_key),
          k.status,
          describePermissions(k.permissions),
          when(k.expires_at),
          when(k.created_at),
          when(k.last_used_at),
          writable &&
            h(
              'div',
              { class: 'row-actions' },
              h(
                'button',
                { type: 'button', onclick: () => void act(() => api.PATCH('/api/v2/api-keys/{key_id}', { params: { path: { key_id: k.id } }, body: { status: k.status === 'Active' ? 'Disabled' : 'Active' } })) },
                `${k.status === 'Active' ? 'Disable' : 'Enable'} ${k.name}`,
              ),
              h(
                'button',
                {
                  type: 'button',
                  class: 'danger',
                  onclick: () => {
                    if (confirm(`Delete the key ${k.name} for good? Whatever uses it stops working.`))
                      void act(() => api.DELETE('/api/v2/api-keys/{key_id}', { params: { path: { key_id: k.id } } }));
                  },
                },
                `Delete ${k.name}`,
              ),
            ),
        ]),
        'API keys',
      ),
    );
  }

  async function act(request: () => Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<void> {
    problem.textContent = '';
    if ((await attempt(problem, request)) !== null) await show();
  }

  const name = h('input', { type: 'text', maxlength: 100, required: true });
  const preset = h('select', {});
  preset.append(
    h('option', { value: 'all' }, 'Everything this session may do'),
    h('option', { value: 'read_only' }, 'Read only'),
    h('option', { value: 'chosen' }, 'Chosen permissions'),
  );
  const boxes = areas.flatMap((a) => (['read', 'write'] as const).map((v) => h('input', { type: 'checkbox', value: `${a}:${v}` })));
  const chooser = h(
    'fieldset',
    { class: 'choices', hidden: true },
    h('legend', {}, 'Permissions'),
    ...boxes.map((b) => {
      b.id = `perm-${b.value.replace(':', '-')}`;
      return h('label', { for: b.id }, b, b.value);
    }),
  );
  preset.addEventListener('change', () => (chooser.hidden = preset.value !== 'chosen'));
  const expires = h('input', { type: 'datetime-local' });
  const form = h(
    'form',
    {
      onsubmit: onSubmit(problem, async () => {
        replace(made);
        const body: Schemas['ApiKeyRequest'] = { name: name.value };
        if (preset.value === 'read_only') body.permissions = 'read_only';
        if (preset.value === 'chosen') body.permissions = boxes.filter((b) => b.checked).map((b) => b.value as Permission);
        if (expires.value) body.expires_at = new Date(expires.value).toISOString();
        const key = (await ok(api.POST('/api/v2/api-keys', { body }))).data;
        replace(
          made,
          h('p', { class: 'warning' }, `The key ${key.name} is shown only now: copy it and keep it safe.`),
          copyable(`API key ${key.name}`, key.key),
        );
        name.value = '';
        await show();
      }),
    },
    field('Key name', name),
    field('Access', preset),
    chooser,
    field('Expires (optional, your browser\'s time)', expires),
    h('button', { type: 'submit' }, 'Create key'),
  );

  replace(main, h('h1', {}, 'API keys'), may('keys:write') && form, made, problem, list);
  void show();
}
