// The tenant's clients: listed, made (with their first user and, when
// given, a product of the catalog), and each one's detail: subscription,
// usage, campaigns and form submissions.

import { api, attempt, ok, onSubmit } from '../api';
import type { paths } from '../generated/api';
import { alertBox, field, h, replace, table } from '../dom';
import { go } from '../nav';
import { may } from '../session';
import { when } from '../time';

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
    const u = d.usage as Record<string, unknown> | null;
    main.querySelector('h1')!.textContent = d.client.name;
    main.append(
      h('dl', { class: 'facts' }, item('E-mail', d.client.primary_email), item('Users', d.client.users.map((x) => x.email).join(', ')), item('Created', when(d.client.created_at))),
      h('h2', {}, 'Subscription'),
      s
        ? h('dl', { class: 'facts' }, item('Status', s.status), item('Product', s.product.name), item('Price', `${s.pricing_details.subscription_price_formatted} / ${s.pricing_details.interval}`), item('Included minutes', s.pricing_details.min_minutes_included))
        : h('p', {}, 'No subscription.'),
      h('h2', {}, 'Usage'),
      u ? h('dl', { class: 'facts' }, ...Object.entries(u).map(([k, v]) => item(k.replace(/_/g, ' '), typeof v === 'object' ? JSON.stringify(v) : String(v)))) : h('p', {}, 'No usage.'),
      h('h2', {}, 'Form submissions'),
      h('p', {}, `${d.form_submissions.length} shown.`),
    );
  });
}
