// The client's billing: the banner of what is due, its plan with its
// status, prices and included minutes, its usage of the period, and its
// payment requests. Open while a payment is due, when nothing else is.

import { api, attempt, type Schemas } from '../../shared/api';
import { alertBox, h, replace, table } from '../../shared/dom';
import { when } from '../../shared/time';

type Billing = NonNullable<Awaited<ReturnType<typeof read>>>;

const read = (problem: HTMLElement) => attempt(problem, () => api.GET('/api/v2/portal/billing'));

const pageSize = 20;

export function billingPage(main: HTMLElement): void {
  const problem = alertBox();
  const body = h('div', { 'aria-busy': 'true' });
  replace(main, h('h1', {}, 'Billing'), problem, body);
  void read(problem).then((b) => {
    body.setAttribute('aria-busy', 'false');
    if (b) replace(body, ...parts(b.data, problem));
  });
}

function parts(b: Billing['data'], problem: HTMLElement): HTMLElement[] {
  const item = (label: string, value: string | number) => h('div', {}, h('dt', {}, label), h('dd', {}, value));
  const s = b.subscription;
  const u = b.usage;
  const out: HTMLElement[] = [];
  if (b.banner)
    out.push(
      h(
        'div',
        { class: `banner ${b.banner.kind}`, role: 'alert' },
        h('strong', {}, b.banner.title),
        b.banner.kind === 'outstanding_balance'
          ? ' A payment request is waiting for payment.'
          : ' Only billing is open until the payment is recorded; your campaigns are paused.',
      ),
    );
  out.push(
    h('h2', {}, 'Your plan'),
    s
      ? h(
          'div',
          { class: 'card' },
          h('p', {}, h('strong', {}, s.product.name), ' ', h('span', { class: `badge ${s.status}` }, s.status.replace('_', ' '))),
          h(
            'dl',
            { class: 'facts' },
            item('Price', `${s.pricing_details.subscription_price_formatted} / ${s.pricing_details.interval}`),
            item('Included minutes', s.pricing_details.min_minutes_included),
            item('Each further minute', s.pricing_details.additional_minute_price_formatted),
            item('Period', `${when(s.billing_cycle.current_period_start)} – ${when(s.billing_cycle.current_period_end)}`),
          ),
        )
      : h('p', {}, 'No subscription.'),
    h('h2', {}, 'Usage this period'),
    u
      ? h(
          'dl',
          { class: 'facts' },
          item('Included minutes used', `${u.minutes_included_used} of ${u.minutes_included_limit}`),
          item('Add-on balance', `${u.minutes_addon_balance} minutes`),
          item('Billable minutes', u.minutes_billable_used),
        )
      : h('p', {}, 'No usage yet.'),
    h('h2', {}, 'Payment requests'),
    requests(b.payment_requests, b.payment_requests_total, problem),
  );
  return out;
}

function requests(first: Schemas['PaymentRequest'][], total: number, problem: HTMLElement): HTMLElement {
  const list = h('div');
  const show = (rows: Schemas['PaymentRequest'][], page: number) => {
    const pages = Math.max(1, Math.ceil(total / pageSize));
    replace(
      list,
      table(
        ['Type', 'Amount', 'Due', 'Status', 'Paid'],
        rows.map((p) => [p.type, `${p.amount} ${p.currency}`, when(p.due_date), h('span', { class: `badge ${p.status.toLowerCase()}` }, p.status), when(p.paid_at)]),
        'Payment requests, newest first',
      ),
      pages > 1 &&
        h(
          'div',
          { class: 'pager' },
          h('button', { type: 'button', disabled: page <= 1, onclick: () => void turn(page - 1) }, 'Previous page'),
          h('span', {}, `Page ${page} of ${pages}`),
          h('button', { type: 'button', disabled: page >= pages, onclick: () => void turn(page + 1) }, 'Next page'),
        ),
    );
  };
  const turn = async (page: number) => {
    const d = await attempt(problem, () => api.GET('/api/v2/portal/payment-requests', { params: { query: { page, page_size: pageSize } } }));
    if (d) show(d.data, page);
  };
  show(first, 1);
  return list;
}
