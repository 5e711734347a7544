// The tenant's clients: listed, made (with their first user and, when
// given, a product of the catalog), and each one's detail: access levels,
// assigned resources (replaced whole), subscription, usage, campaigns and
// form submissions.

import { api, attempt, ok, onSubmit, type Schemas } from '../../shared/api';
import type { paths } from '../../generated/api';
import { alertBox, field, h, replace, table } from '../../shared/dom';
import { go } from '../../shared/nav';
import { may } from '../session';
import { when } from '../../shared/time';
import { type Kind, resourceKinds } from '../../shared/resource_kinds';
import { portalSection } from './client_portal';

type ClientCreate = NonNullable<paths['/api/v2/clients/create']['post']['requestBody']>['content']['application/json'];

export function clientsPage(main: HTMLElement): void {
  const id = new URLSearchParams(location.search).get('id');
  if (id) return clientPage(main, id);
  const problem = alertBox();
  const list = h('div');

  async function show(): Promise<void> {
    const data = await attempt(problem, () => api.GET('/api/v2/clients', { params: { query: { page_size: 100 } } }));
    if (!data) return;
    replace(
      list,
      data.clients.length
        ? table(
            ['Client', 'E-mail', 'Users', 'Created'],
            data.clients.map((c) => [
              h('a', { href: `/console/clients?id=${encodeURIComponent(c.id)}` }, c.name),
              c.primary_email,
              c.users.map((u) => u.email).join(', '),
              when(c.created_at),
            ]),
            'Clients',
          )
        : h('p', {}, 'No client yet.'),
    );
  }

  const name = h('input', { type: 'text', required: true, maxlength: 255 });
  const email = h('input', { type: 'email', required: true });
  const userEmail = h('input', { type: 'email', required: true, autocomplete: 'off' });
  const userPassword = h('input', { type: 'password', required: true, minlength: 8, autocomplete: 'new-password' });
  const group = h('input', { type: 'text', required: true, value: 'Main' });
  const product = h('input', { type: 'text' });
  const price = h('input', { type: 'text' });
  const create = h(
    'form',
    {
      onsubmit: onSubmit(problem, async () => {
        const body: ClientCreate = {
          client_users: [{ email: userEmail.value, password: userPassword.value }],
          client_details: { name: name.value, email: email.value },
          client_asset_group: { name: group.value },
          ...(product.value
            ? { billing_provider: { type: 'processor', selected_product: { product_id: product.value, price_ids: price.value ? [price.value] : [] } } }
            : {}),
        };
        const made = await ok(api.POST('/api/v2/clients/create', { body }));
        go(`/console/clients?id=${encodeURIComponent(made.data.client_id)}`);
      }),
    },
    h(
      'fieldset',
      {},
      h('legend', {}, 'New client'),
      field('Name', name),
      field('Billing e-mail', email),
      field("First user's e-mail", userEmail),
      field("First user's password", userPassword, '8 to 128 characters; the user signs in with it.'),
      field('Resource group name', group),
      field('Product id (optional)', product, "A product of your catalog; its price below."),
      field('Price id', price),
      h('button', { type: 'submit' }, 'Create client'),
    ),
  );
  replace(main, h('h1', {}, 'Clients'), problem, list, may('clients:write') && create);
  void show();
}

function clientPage(main: HTMLElement, id: string): void {
  const problem = alertBox();
  replace(main, h('p', {}, h('a', { href: '/console/clients' }, '← Clients')), h('h1', {}, 'Client'), problem);
  void attempt(problem, () => api.GET('/api/v2/clients/{client_id}', { params: { path: { client_id: id } } })).then((d) => {
    if (!d) return;
    const item = (label: string, value: string | number) => h('div', {}, h('dt', {}, label), h('dd', {}, value));
    const s = d.subscription;
    const u = d.usage;
    const unix = (seconds: number) => when(new Date(seconds * 1000).toISOString());
    main.querySelector('h1')!.textContent = d.client.name;
    const access = Object.entries(d.client_access);
    main.append(
      h('dl', { class: 'facts' }, item('E-mail', d.client.primary_email), item('Users', d.client.users.map((x) => x.email).join(', ')), item('Created', when(d.client.created_at))),
      h('h2', {}, 'Access levels'),
      access.length ? h('dl', { class: 'facts' }, ...access.map(([kind, level]) => item(kind.replace(/_/g, ' '), level.replace(/_/g, ' ')))) : h('p', {}, 'None given: every kind is view only.'),
      portalSection(id, d.client_access),
      ...d.account_configurations.map((g) => assignedResources(g.asset_group_id, g.name)),
      h('h2', {}, 'Subscription'),
      s
        ? h('dl', { class: 'facts' }, item('Status', s.status), item('Product', s.product.name), item('Price', `${s.pricing_details.subscription_price_formatted} / ${s.pricing_details.interval}`), item('Included minutes', s.pricing_details.min_minutes_included))
        : h('p', {}, 'No subscription.'),
      h('h2', {}, 'Usage'),
      u
        ? h('dl', { class: 'facts' }, item('Minutes used', u.minutes_used), item('Billing period', `${unix(u.billing_period_start)} – ${unix(u.billing_period_end)}`), item('Meter', u.meter_id), item('Source', u.source))
        : h('p', {}, 'No usage.'),
      h('h2', {}, 'Form submissions'),
      h('p', {}, `${d.form_submissions.length} shown.`),
    );
  });
}

// One account configuration's assigned resources, and with clients:write a
// form that replaces them whole: the tenant's campaigns as check boxes, the
// other kinds as ids separated by commas.
function assignedResources(groupId: string, name: string): HTMLElement {
  const section = h('section', { 'aria-label': `Assigned resources of ${name}` });
  const problem = alertBox();
  const path = { params: { path: { client_account_configuration_id: groupId } } };

  async function show(): Promise<void> {
    const [got, campaigns] = await Promise.all([
      attempt(problem, () => api.GET('/api/v2/client-account-configurations/{client_account_configuration_id}/resources', path)),
      may('campaigns:read') ? api.GET('/api/v2/voice-campaigns', { params: { query: { page_size: 100 } } }).then((r) => r.data?.data ?? []) : Promise.resolve([]),
    ]);
    if (!got) return;
    const now = got.data.assigned_resources;
    const names = new Map(campaigns.map((c) => [c.id, c.name]));
    const shown = (kind: Kind, ids: string[]) => (kind === 'campaign' ? ids.map((id) => names.get(id) ?? id) : ids).join(', ') || 'none';
    const list = h('dl', { class: 'facts' }, ...resourceKinds.map(([kind, label]) => h('div', {}, h('dt', {}, label), h('dd', {}, shown(kind, now[kind] ?? [])))));
    replace(section, h('h2', {}, `Assigned resources: ${name}`), problem, list, may('clients:write') && editor(now, campaigns));
  }

  function editor(now: Schemas['AssignedResources'], campaigns: Schemas['Campaign'][]): HTMLElement {
    const chosen = new Set(now.campaign ?? []);
    // The tenant's first 100 campaigns, and any assigned one beyond them.
    const offered = new Map(campaigns.map((c) => [c.id, c.name]));
    for (const id of chosen) if (!offered.has(id)) offered.set(id, id);
    const boxes = [...offered].map(([id]) => h('input', { type: 'checkbox', value: id, checked: chosen.has(id) }));
    const inputs = new Map(
      resourceKinds
        .filter(([kind]) => kind !== 'campaign')
        .map(([kind]) => [kind, h('input', { type: 'text', value: (now[kind] ?? []).join(', ') })] as const),
    );
    return h(
      'form',
      {
        onsubmit: onSubmit(problem, async () => {
          const body: Schemas['AssignedResources'] = {
            campaign: boxes.filter((b) => b.checked).map((b) => b.value),
          };
          for (const [kind, input] of inputs) body[kind] = input.value.split(',').map((x) => x.trim()).filter(Boolean);
          await ok(api.POST('/api/v2/client-account-configurations/{client_account_configuration_id}/resources/assign', { ...path, body: { assigned_resources: body } }));
          await show();
        }),
      },
      h(
        'details',
        {},
        h('summary', {}, 'Change the assigned resources'),
        h('fieldset', { class: 'choices' }, h('legend', {}, 'Campaigns'), ...(boxes.length ? boxes.map((b) => h('label', {}, b, offered.get(b.value)!)) : [h('p', {}, 'No campaign yet.')])),
        ...resourceKinds.filter(([kind]) => kind !== 'campaign').map(([kind, label]) => field(label, inputs.get(kind)!, 'Ids separated by commas.')),
        h('button', { type: 'submit' }, 'Save assigned resources'),
      ),
    );
  }

  void show();
  return section;
}
