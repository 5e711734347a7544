// Webhooks: the endpoints the tenant's campaigns report to, the deliveries
// with replay, a test event, and the signing secret's rotation (the new
// secret shown once).

import { api, attempt, ok, onSubmit, type Schemas } from '../../shared/api';
import { alertBox, copyable, field, h, replace, table } from '../../shared/dom';
import { may } from '../session';
import { when } from '../../shared/time';

type DeliveryStatus = 'pending' | 'delivered' | 'dead';

export function webhooksPage(main: HTMLElement): void {
  const problem = alertBox();
  const endpoints = h('div');
  const deliveries = h('div');
  const done = h('p', { role: 'status' });
  const writable = may('webhooks:write');
  let status: DeliveryStatus | '' = '';

  async function act<T>(request: () => Promise<{ data?: T; error?: unknown; response: Response }>, said: (t: T) => string) {
    problem.textContent = '';
    done.textContent = '';
    const answer = await attempt(problem, request);
    if (answer === null) return;
    done.textContent = said(answer);
    await Promise.all([showEndpoints(), showDeliveries()]);
  }

  async function showEndpoints(): Promise<void> {
    const data = await attempt(problem, () => api.GET('/api/v2/webhook-endpoints', { params: { query: { page_size: 100 } } }));
    if (!data) return;
    replace(
      endpoints,
      data.data.length
        ? table(
            ['URL', 'Status', 'Failing since', 'Last success', 'Disabled because', 'Actions'],
            data.data.map((e) => [
              e.url,
              e.status,
              when(e.failing_since),
              when(e.last_success_at),
              e.disabled_reason ?? '—',
              writable &&
                e.status === 'disabled' &&
                h(
                  'button',
                  {
                    type: 'button',
                    onclick: () =>
                      void act(
                        () => api.POST('/api/v2/webhook-endpoints/{endpoint_id}/enable', { params: { path: { endpoint_id: e.id } } }),
                        (r) => r.message,
                      ),
                  },
                  `Enable ${e.url}`,
                ),
            ]),
            'Webhook endpoints',
          )
        : h('p', {}, 'No endpoint has been sent to yet: set a campaign\'s webhook_url.'),
    );
  }

  async function showDeliveries(): Promise<void> {
    const data = await attempt(problem, () =>
      api.GET('/api/v2/webhook-deliveries', { params: { query: { page_size: 50, ...(status ? { status } : {}) } } }),
    );
    if (!data) return;
    replace(
      deliveries,
      data.data.length
        ? table(
            ['Created', 'Event', 'URL', 'Status', 'Attempts', 'Last answer', 'Next attempt', 'Actions'],
            data.data.map((d) => [
              when(d.created_at),
              d.event_type,
              d.url,
              d.status,
              d.attempts,
              d.last_status ? String(d.last_status) : d.last_error ?? '—',
              when(d.next_attempt_at),
              writable &&
                d.status !== 'pending' &&
                h(
                  'button',
                  {
                    type: 'button',
                    onclick: () =>
                      void act(
                        () => api.POST('/api/v2/webhook-deliveries/{delivery_id}/replay', { params: { path: { delivery_id: d.id } } }),
                        (r) => r.message,
                      ),
                  },
                  `Replay ${d.event_type} of ${when(d.created_at)}`,
                ),
            ]),
            'Webhook deliveries, newest first',
          )
        : h('p', {}, 'No delivery.'),
    );
  }

  const filter = h('select', {
    onchange: () => {
      status = filter.value as typeof status;
      void showDeliveries();
    },
  });
  filter.append(...['', 'pending', 'delivered', 'dead'].map((s) => h('option', { value: s }, s || 'Every status')));

  // A test event to a campaign's webhook_url.
  const campaign = h('select', {});
  const test = h(
    'form',
    {
      class: 'inline',
      onsubmit: onSubmit(problem, async () => {
        const sent = await ok(api.POST('/api/v2/voice-campaigns/{campaign_id}/webhook-test', { params: { path: { campaign_id: campaign.value } } }));
        done.textContent = sent.message;
        await showDeliveries();
      }),
    },
    field('Campaign', campaign),
    h('button', { type: 'submit' }, 'Send a test event'),
  );
  void api.GET('/api/v2/voice-campaigns', { params: { query: { page_size: 100 } } }).then(({ data }) => {
    for (const c of data?.data ?? []) campaign.append(h('option', { value: c.id }, `${c.name}${c.webhook_url ? '' : ' (no webhook_url)'}`));
  });

  // The signing secret.
  const grace = h('input', { type: 'number', min: 0, max: 604800, value: 86400 });
  const secret = h('div');
  const rotate = h(
    'form',
    {
      class: 'inline',
      onsubmit: onSubmit(problem, async () => {
        const body: Schemas['WebhookSecretRotationBody'] = { grace_period_seconds: Number(grace.value) };
        const made = await ok(api.POST('/api/v2/webhook-secret', { body }));
        replace(
          secret,
          h(
            'p',
            { class: 'warning' },
            'The new signing secret is shown only now.',
            made.data.previous_secret_expires_at && ` The old one signs too until ${when(made.data.previous_secret_expires_at)}.`,
          ),
          copyable('Webhook signing secret', made.data.webhook_secret),
        );
      }),
    },
    field('Seconds the old secret still signs', grace),
    h('button', { type: 'submit' }, 'Make a new signing secret'),
  );

  replace(
    main,
    h('h1', {}, 'Webhooks'),
    problem,
    done,
    h('h2', {}, 'Endpoints'),
    endpoints,
    h('h2', {}, 'Deliveries'),
    field('Status', filter),
    deliveries,
    writable && h('h2', {}, 'Test event'),
    writable && test,
    writable && h('h2', {}, 'Signing secret'),
    writable && rotate,
    secret,
  );
  void showEndpoints();
  void showDeliveries();
}
