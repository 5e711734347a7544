// Billing: the clients' subscriptions, their payment requests (with the
// status update a payment processor's webhook would make) and usage.

import { api, attempt, type Schemas } from '../../shared/api';
import { alertBox, h, replace, table } from '../../shared/dom';
import { may } from '../session';
import { when } from '../../shared/time';

type PaymentStatus = Schemas['PaymentRequest']['status'];
const paymentStatuses = ['PENDING', 'PAID', 'FAILED', 'CANCELED', 'OVERDUE'] as const;

export function billingPage(main: HTMLElement): void {
  const problem = alertBox();
  const done = h('p', { role: 'status' });
  const subscriptions = h('div');
  const requests = h('div');
  const usage = h('div');

  async function showSubscriptions(): Promise<void> {
    const data = await attempt(problem, () => api.GET('/api/v2/external-billing/subscriptions', { params: { query: { page_size: 100 } } }));
    if (!data) return;
    replace(
      subscriptions,
      table(
        ['Client', 'Product', 'Status', 'Period'],
        data.data.map((s) => [s.client_name, s.product_name, s.status, `${when(s.current_period_start)} – ${when(s.current_period_end)}`]),
        'Subscriptions',
      ),
    );
  }

  async function showRequests(): Promise<void> {
    const data = await attempt(problem, () => api.GET('/api/v2/external-billing/payment-requests', { params: { query: { page_size: 100 } } }));
    if (!data) return;
    const writable = may('billing:write');
    replace(
      requests,
      table(
        ['Client', 'Type', 'Amount', 'Due', 'Status', 'Paid'],
        data.data.map((p) => {
          const status = h('select', { 'aria-label': `Status of ${p.client_name}'s ${p.type} request due ${p.due_date}`, disabled: !writable });
          for (const s of paymentStatuses) status.append(h('option', { value: s, selected: s === p.status }, s));
          status.addEventListener('change', async () => {
            problem.textContent = '';
            const answer = await attempt(problem, () =>
              api.PATCH('/api/v2/external-billing/payment-requests/{payment_request_id}/update', {
                params: { path: { payment_request_id: p.id } },
                body: { status: status.value as PaymentStatus },
              }),
            );
            done.textContent = answer ? answer.message : '';
            await Promise.all([showRequests(), showSubscriptions()]);
          });
          return [p.client_name, p.type, `${p.amount} ${p.currency}`, when(p.due_date), status, when(p.paid_at)];
        }),
        'Payment requests',
      ),
    );
  }

  async function showUsage(): Promise<void> {
    const data = await attempt(problem, () => api.GET('/api/v2/external-billing/usage', { params: { query: { page_size: 100 } } }));
    if (!data) return;
    replace(
      usage,
      table(
        ['Client', 'Included used', 'Included limit', 'Add-on balance', 'Billable'],
        data.data.map((u) => [u.client_name, u.minutes_included_used, u.minutes_included_limit, u.minutes_addon_balance, u.minutes_billable_used]),
        'Usage in minutes',
      ),
    );
  }

  replace(main, h('h1', {}, 'Billing'), problem, done, h('h2', {}, 'Subscriptions'), subscriptions, h('h2', {}, 'Payment requests'), requests, h('h2', {}, 'Usage'), usage);
  void showSubscriptions();
  void showRequests();
  void showUsage();
}
