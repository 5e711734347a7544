// The tenant's campaigns, filtered by status, each with its live progress
// (from the event stream, and read every few seconds); a new campaign starts
// as a DRAFT.

import { ApiError, api, ok, onSubmit, type Schemas } from '../api';
import { alertBox, field, h, replace, table } from '../dom';
import { go } from '../nav';
import { when } from '../time';
import type { Abilities } from './abilities';
import { followEvents, readProgress, refreshEvery, type Progress } from './progress';

const statuses: Schemas['CampaignStatus'][] = ['DRAFT', 'SCHEDULED', 'ACTIVE', 'PAUSED', 'ENDED'];
const pageSize = 20;

export function campaignsPage(main: HTMLElement, can: Abilities): () => void {
  let page = 1;
  let status: Schemas['CampaignStatus'] | '' = '';
  let timer = 0;
  let live = true;
  const list = h('div', { 'aria-busy': 'true' });
  const problem = alertBox();
  // The progress cells of the campaigns shown, by id.
  let cells = new Map<string, HTMLElement[]>();
  const fill = (p: Progress) => {
    const spans = cells.get(p.id);
    if (!spans) return;
    const c = p.lead_counts;
    [c.IDLE, c.QUEUED, c.IN_PROGRESS, c.COMPLETED, c.FAILED, p.answered_count, when(p.next_dial_at)].forEach(
      (v, i) => (spans[i].textContent = String(v)),
    );
  };

  const filter = h('select', {
    onchange: () => {
      status = filter.value as typeof status;
      page = 1;
      void show();
    },
  });
  filter.append(h('option', { value: '' }, 'Every status'), ...statuses.map((s) => h('option', { value: s }, s)));

  const name = h('input', { type: 'text', maxlength: 255, required: true });
  const create = h(
    'form',
    {
      class: 'inline',
      onsubmit: onSubmit(problem, async () => {
        const made = await ok(api.POST('/api/v2/voice-campaigns', { body: { name: name.value } }));
        go(`${can.base}/campaigns/${encodeURIComponent(made.data.campaign_id)}`);
      }),
    },
    field('New campaign name', name),
    h('button', { type: 'submit' }, 'Create campaign'),
  );

  async function show(): Promise<void> {
    window.clearTimeout(timer);
    const { data, error, response } = await api.GET('/api/v2/voice-campaigns', {
      params: { query: { page, page_size: pageSize, ...(status ? { status } : {}) } },
    });
    if (!live) return;
    if (!data) {
      problem.textContent = new ApiError(response.status, error).message;
      return;
    }
    cells = new Map<string, HTMLElement[]>();
    const rows = data.data.map((c) => {
      const spans = ['IDLE', 'QUEUED', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'ANSWERED', 'NEXT'].map(() => h('span', {}, '…'));
      cells.set(c.id, spans);
      return [
        h('a', { href: `${can.base}/campaigns/${encodeURIComponent(c.id)}` }, c.name),
        h('span', { class: `badge ${c.status.toLowerCase()}` }, c.status),
        c.lead_count,
        ...spans,
      ];
    });
    // Past 10,000 campaigns the count stops (total_capped): more pages follow while pages are full.
    const more = data.meta.total_capped ? '+' : '';
    const pages = Math.max(1, Math.ceil(data.meta.total / pageSize));
    const last = data.meta.total_capped ? data.data.length < pageSize : page >= pages;
    replace(
      list,
      data.data.length
        ? table(
            ['Campaign', 'Status', 'Leads', 'Idle', 'Queued', 'In progress', 'Completed', 'Failed', 'Answered', 'Next dial'],
            rows,
            'Campaigns and their progress',
          )
        : h('p', {}, 'No campaign yet.'),
      h(
        'div',
        { class: 'pager' },
        h('button', { type: 'button', disabled: page <= 1, onclick: () => { page--; void show(); } }, 'Previous page'),
        h('span', {}, `Page ${page} of ${pages}${more} (${data.meta.total}${more} campaigns)`),
        h('button', { type: 'button', disabled: last, onclick: () => { page++; void show(); } }, 'Next page'),
      ),
    );
    list.setAttribute('aria-busy', 'false');
    const refresh = async () => {
      await Promise.all(
        [...cells.keys()].map(async (id) => {
          const p = await readProgress(id).catch(() => null);
          if (p && live) fill(p);
        }),
      );
      if (live) timer = window.setTimeout(refresh, refreshEvery);
    };
    void refresh();
  }

  replace(main, h('h1', {}, 'Campaigns'), can.createCampaigns && create, problem, field('Status', filter), list);
  void show();
  const stream = followEvents(can, (p) => live && fill(p));
  return () => {
    live = false;
    stream();
    window.clearTimeout(timer);
  };
}
