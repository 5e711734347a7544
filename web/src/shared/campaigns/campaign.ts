// One campaign: its live progress and forecast, status actions, schedule
// and settings, lead imports (CSV or JSON) with their progress and rejected
// rows, its leads page by page and its calls.

import { ApiError, api, attempt, ok, onSubmit, type Schemas } from '../api';
import { alertBox, field, h, replace, table, type Child } from '../dom';
import { when } from '../time';
import type { Abilities } from './abilities';
import { showForecast } from './forecast';
import { watchProgress, type Progress } from './progress';

type Status = Schemas['CampaignStatus'];
const days = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
// The status actions a campaign in each status offers.
const actions: Record<Status, [Status, string][]> = {
  DRAFT: [['ACTIVE', 'Start dialing'], ['SCHEDULED', 'Schedule'], ['ENDED', 'End']],
  SCHEDULED: [['ACTIVE', 'Start dialing'], ['PAUSED', 'Pause'], ['ENDED', 'End']],
  ACTIVE: [['PAUSED', 'Pause'], ['ENDED', 'End']],
  PAUSED: [['ACTIVE', 'Resume'], ['ENDED', 'End']],
  ENDED: [],
};

type CallsFrom = Pick<Schemas['CampaignBody'], 'dialer_type' | 'phone_number_pool_id'>;

const purposes: Record<Schemas['CallingPurpose'], string> = {
  TELEMARKETING: 'Telemarketing',
  INFORMATIONAL: 'Informational',
  NONE: 'None',
};

// What the campaign's calls are, and whether the tenant's default says so.
function purposeText(c: Progress): string {
  return `${purposes[c.calling_purpose]}${c.calling_purpose_from === 'tenant' ? ' (the tenant\'s default)' : ''}`;
}

// The campaign's purpose; "" keeps the tenant's default while the campaign
// names none (the API has no way back to it once named).
function purposePicker(c: Progress): HTMLSelectElement {
  const fromTenant = c.calling_purpose_from === 'tenant';
  return h(
    'select',
    {},
    fromTenant && h('option', { value: '', selected: true }, `Tenant's default (${purposes[c.calling_purpose]})`),
    ...(Object.keys(purposes) as Schemas['CallingPurpose'][]).map((p) =>
      h('option', { value: p, selected: !fromTenant && p === c.calling_purpose }, purposes[p]),
    ),
  ) as HTMLSelectElement;
}

// What holds a lead, with the calling rule and its source when one does.
function dialing(l: Schemas['Lead']): Child {
  const state = (l.dial_state ?? '—').replaceAll('_', ' ');
  const rule = l.dial_rule;
  if (!rule) return state;
  const cap = rule.cap ? ` (${rule.cap.calls} in ${rule.cap.window_hours} h)` : '';
  // The tenant's own cap has no jurisdiction and no source.
  if (!rule.source) return `${state}: the tenant's contact cap${cap}`;
  return h(
    'span',
    {},
    `${state}: `,
    h('a', { href: rule.source.url, target: '_blank', rel: 'noopener noreferrer' }, `${rule.jurisdiction} ${rule.kind.replaceAll('_', ' ')}${cap}`),
  );
}

// Whether the campaign calls from its phone number id or from one of the
// tenant's number pools, shown once the pools are read. Without them (an
// error answer) neither is offered nor sent.
function poolPicker(c: Progress): { element: HTMLElement; fields: () => CallsFrom } {
  const element = h('div');
  let fields = (): CallsFrom => ({});
  const offer = (pools: Schemas['PhoneNumberPool'][]) => {
    const current = c.phone_number_pool_id;
    const size = (n: number) => `${n} ${n === 1 ? 'number' : 'numbers'}`;
    const pool = h(
      'select',
      { required: true },
      ...pools.map((p) => h('option', { value: p.id, selected: p.id === current }, `${p.name} (${size(p.numbers.length)})`)),
      // Past the first 100 pools, the campaign's own stays chosen.
      current && !pools.some((p) => p.id === current) && h('option', { value: current, selected: true }, `The campaign's pool (${current})`),
    );
    const poolField = field('Number pool', pool, pools.length ? undefined : 'No number pools yet: make one under Number pools');
    const choice = h(
      'select',
      {},
      h('option', { value: 'SINGLE' }, 'One number (the phone number id)'),
      h('option', { value: 'POOL', selected: c.dialer_type === 'POOL' }, 'A number pool'),
    );
    // The pool's field is in the form, and required, only while a pool is chosen.
    const slot = h('div');
    const show = () => replace(slot, choice.value === 'POOL' && poolField);
    choice.addEventListener('change', show);
    show();
    replace(element, field('Calls from', choice), slot);
    fields = () =>
      choice.value === 'POOL' ? { dialer_type: 'POOL', phone_number_pool_id: pool.value } : { dialer_type: 'SINGLE' };
  };
  // An error answer or none: no choice, and the form is as it was.
  void api.GET('/api/v2/phone-number-pools', { params: { query: { page_size: 100 } } }).then(
    ({ data }) => {
      if (data) offer(data.data);
    },
    () => {},
  );
  return { element, fields: () => fields() };
}

export function campaignPage(main: HTMLElement, [id]: string[], can: Abilities): () => void {
  const problem = alertBox();
  const title = h('h1', {}, 'Campaign');
  const badge = h('span', { class: 'badge' });
  const progress = h('section', { 'aria-labelledby': 'progress-h' });
  const forecast = h('section', { 'aria-labelledby': 'forecast-h' });
  const buttons = h('div', { class: 'actions' });
  const settings = h('section', { 'aria-labelledby': 'settings-h' });
  const imports = h('section', { 'aria-labelledby': 'import-h' });
  const leads = h('section', { 'aria-labelledby': 'leads-h' });
  const calls = h('section', { 'aria-labelledby': 'calls-h' });
  let shownStatus: Status | null = null;
  let importTimer = 0;
  const path = { campaign_id: id };

  const onRead = (p: Progress) => {
    title.textContent = p.name;
    document.title = `${p.name} · ${can.app}`;
    if (p.status === shownStatus) return;
    shownStatus = p.status;
    badge.textContent = p.status;
    badge.className = `badge ${p.status.toLowerCase()}`;
    replace(
      buttons,
      ...(can.changeCampaigns ? actions[p.status] : []).map(([to, label]) =>
        h('button', { type: 'button', onclick: () => void setStatus(to) }, label),
      ),
    );
    showSettings(p);
  };

  async function setStatus(status: Status): Promise<void> {
    problem.textContent = '';
    try {
      await ok(api.PATCH('/api/v2/voice-campaigns/{campaign_id}/status', { params: { path }, body: { status } }));
      shownStatus = null;
    } catch (err) {
      problem.textContent = err instanceof ApiError ? err.message : String(err);
    }
  }

  function showSettings(c: Progress): void {
    if (!can.changeCampaigns) return showSchedule(c);
    const name = h('input', { type: 'text', value: c.name, maxlength: 255, required: true });
    const zone = h('input', { type: 'text', value: c.timezone ?? '', placeholder: 'America/New_York' });
    const start = h('input', { type: 'time', value: c.daily_start_time ?? '' });
    const end = h('input', { type: 'time', value: c.daily_end_time ?? '' });
    const attempts = h('input', { type: 'number', min: 1, value: c.max_call_attempts ?? '' });
    const daily = h('input', { type: 'number', min: 1, value: c.max_daily_attempts ?? '' });
    const gap = h('input', { type: 'number', min: 0, value: c.min_gap_between_attempts ?? '' });
    const provider = h('input', { type: 'text', value: c.tenant_voice_provider_id ?? '' });
    const assistant = h('input', { type: 'text', value: c.assistant_id ?? '' });
    const number = h('input', { type: 'text', value: c.phone_number_id ?? '' });
    const callsFrom = can.choosePools ? poolPicker(c) : undefined;
    const hook = can.setWebhook ? h('input', { type: 'url', value: c.webhook_url ?? '', placeholder: 'https://hooks.example.com/calls' }) : undefined;
    const purpose = can.setWebhook ? purposePicker(c) : undefined;
    const chosen = new Set<string>(c.days_of_week ?? []);
    const boxes = days.map((d) => h('input', { type: 'checkbox', value: d, checked: chosen.has(d) }));
    const saved = h('p', { role: 'status' });
    const form = h(
      'form',
      {
        onsubmit: onSubmit(problem, async () => {
          saved.textContent = '';
          const count = (i: HTMLInputElement) => (i.value === '' ? undefined : Number(i.value));
          const text = (i: HTMLInputElement) => (i.value === '' ? undefined : i.value);
          await ok(
            api.PATCH('/api/v2/voice-campaigns/{campaign_id}', {
              params: { path },
              body: {
                name: name.value,
                ...(zone.value ? { timezone: zone.value } : {}),
                ...(start.value ? { daily_start_time: start.value } : {}),
                ...(end.value ? { daily_end_time: end.value } : {}),
                ...(boxes.some((b) => b.checked)
                  ? { days_of_week: boxes.filter((b) => b.checked).map((b) => b.value as (typeof days)[number]) }
                  : {}),
                max_call_attempts: count(attempts),
                max_daily_attempts: count(daily),
                min_gap_between_attempts: count(gap),
                tenant_voice_provider_id: text(provider),
                assistant_id: text(assistant),
                phone_number_id: text(number),
                ...callsFrom?.fields(),
                ...(hook ? { webhook_url: text(hook) } : {}),
                ...(purpose && purpose.value !== '' ? { calling_purpose: purpose.value as Schemas['CallingPurpose'] } : {}),
              },
            }),
          );
          saved.textContent = 'Saved.';
        }),
      },
      h('fieldset', {},
        h('legend', {}, 'Schedule and settings'),
        field('Name', name),
        field('Time zone', zone, 'An IANA zone; the daily window is in it.'),
        field('Daily start', start),
        field('Daily end', end),
        h('fieldset', { class: 'choices' }, h('legend', {}, 'Days of the week (none ticked: every day)'),
          ...boxes.map((b) => { b.id = `day-${b.value}`; return h('label', { for: b.id }, b, b.value.slice(0, 3)); })),
        field('Most calls per lead', attempts),
        field('Most calls per lead a day', daily),
        field('Minutes between calls to a lead', gap),
        field('Voice provider id', provider, 'The id POST /api/v2/voice-pod answered.'),
        field('Assistant id', assistant),
        field('Phone number id', number),
        callsFrom?.element,
        hook && field('Webhook URL', hook, 'Where the campaign\'s events are sent, signed with the tenant\'s secret.'),
        purpose && field('Calls are', purpose, 'Telemarketing or informational calls keep the calling rules of each lead\'s place (hours, contact caps); None applies none. A safety net, not legal advice.'),
        h('button', { type: 'submit' }, 'Save settings'),
      ),
      saved,
    );
    replace(settings, h('h2', { id: 'settings-h' }, 'Settings'), form);
  }

  // Who may not change the campaign reads its schedule.
  function showSchedule(c: Progress): void {
    const item = (label: string, value: string | number | null | undefined) =>
      h('div', {}, h('dt', {}, label), h('dd', {}, value === null || value === undefined || value === '' ? '—' : value));
    replace(
      settings,
      h('h2', { id: 'settings-h' }, 'Schedule'),
      h(
        'dl',
        { class: 'facts' },
        item('Time zone', c.timezone),
        item('Daily window', c.daily_start_time && c.daily_end_time ? `${c.daily_start_time} – ${c.daily_end_time}` : 'all day'),
        item('Days', c.days_of_week?.map((d) => d.slice(0, 3)).join(', ') || 'every day'),
        item('Most calls per lead', c.max_call_attempts),
        item('Most calls per lead a day', c.max_daily_attempts),
        item('Minutes between calls to a lead', c.min_gap_between_attempts),
        item('Calls from', c.dialer_type === 'POOL' ? 'A number pool' : 'One number'),
        item('Calling rules', purposeText(c)),
      ),
    );
  }

  // --- imports
  const file = h('input', { type: 'file', accept: '.csv,.json,text/csv,application/json' });
  const importState = h('div', { role: 'status' });
  const rejected = h('div');
  async function upload(e: Event): Promise<void> {
    e.preventDefault();
    problem.textContent = '';
    const chosen = file.files?.[0];
    if (!chosen) {
      problem.textContent = 'Choose a CSV or JSON file of leads first.';
      return;
    }
    const text = await chosen.text();
    const csv = !chosen.name.toLowerCase().endsWith('.json');
    try {
      const queued = await ok(
        api.POST('/api/v2/voice-campaigns/{campaign_id}/leads/bulk', {
          params: { path },
          body: csv ? text : (JSON.parse(text) as Schemas['LeadInput'][]),
          ...(csv ? { bodySerializer: (b: unknown) => b as string, headers: { 'Content-Type': 'text/csv' } } : {}),
        }),
      );
      importState.textContent = queued.message;
      void followImport(queued.import_id);
    } catch (err) {
      problem.textContent = err instanceof ApiError ? err.message : `The file could not be read: ${String(err)}`;
    }
  }
  async function followImport(importId: string): Promise<void> {
    const { data } = await api.GET('/api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}', {
      params: { path: { campaign_id: id, import_id: importId } },
    });
    if (!data) return;
    importState.textContent = `Import ${data.status}: ${data.inserted} of ${data.accepted} added, ${data.pending} pending, ${data.rejected} rejected${data.error ? ` (${data.error})` : ''}.`;
    if (data.status === 'queued' || data.status === 'running') {
      importTimer = window.setTimeout(() => void followImport(importId), 1000);
      return;
    }
    void showLeads(0);
    if (data.rejected === 0) return replace(rejected);
    const rows = await api.GET('/api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}/rejected-rows', {
      params: { path: { campaign_id: id, import_id: importId }, query: { page_size: 100 } },
    });
    replace(
      rejected,
      table(
        ['Row', 'Phone number', 'Reason', 'Message'],
        (rows.data?.data ?? []).map((r) => [r.index, r.phone_number ?? '', r.reason, r.message]),
        'Rejected rows of the import',
      ),
    );
  }
  replace(
    imports,
    h('h2', { id: 'import-h' }, 'Import leads'),
    can.addLeads
      ? h(
          'form',
          { onsubmit: (e: Event) => void upload(e) },
          field('CSV or JSON file', file, 'CSV: a header row (phone_number, first_name, last_name, email, custom_fields.<name>), then one lead a row.'),
          h('button', { type: 'submit' }, 'Import'),
        )
      : h('p', {}, 'Your access cannot add leads.'),
    importState,
    rejected,
  );

  // --- leads
  const leadPage = 25;
  let leadOffset = 0;
  const search = h('input', { type: 'search', placeholder: '+14155552671', autocomplete: 'off' });
  const searchForm = h(
    'form',
    { class: 'inline', role: 'search', onsubmit: onSubmit(problem, () => showLeads(0)) },
    field('Phone number (E.164; empty: every lead)', search),
    h('button', { type: 'submit' }, 'Search leads'),
  );
  // The form stays while the list under it is read again (typing is not
  // interrupted).
  const leadList = h('div');
  replace(leads, h('h2', { id: 'leads-h' }, 'Leads'), searchForm, leadList);
  async function showLeads(offset: number): Promise<void> {
    leadOffset = offset;
    const phone = search.value.trim();
    const data = await attempt(problem, () =>
      api.GET('/api/v2/voice-campaigns/{campaign_id}/leads/list', {
        params: {
          path,
          query: { limit: leadPage, offset, include: 'dial_state', ...(phone ? { phone_number: phone } : {}) },
        },
      }),
    );
    if (!data) return;
    const info = data.page_info;
    replace(
      leadList,
      table(
        ['Phone number', 'Name', 'Status', 'Answered', 'Attempts', 'Dialing', 'Next dial', 'Added'],
        data.leads.map((l) => [
          l.phone_number,
          `${l.first_name} ${l.last_name}`.trim(),
          l.call_status,
          l.answered ? l.answer_type || 'yes' : 'no',
          l.attempts_made,
          dialing(l),
          when(l.next_dial_at ?? null),
          when(l.created_at),
        ]),
        'Leads of this page',
      ),
      h(
        'div',
        { class: 'pager' },
        h('button', { type: 'button', disabled: !info.has_previous_page, onclick: () => void showLeads(Math.max(0, offset - leadPage)) }, 'Previous leads'),
        h('span', {}, `${info.total_count ? offset + 1 : 0}–${offset + data.leads.length} of ${info.total_count}`),
        h('button', { type: 'button', disabled: !info.has_next_page, onclick: () => void showLeads(offset + leadPage) }, 'Next leads'),
      ),
    );
  }

  // --- forecast: the heading stays while what is under it is read again.
  const forecastBody = h('div');
  replace(forecast, h('h2', { id: 'forecast-h' }, 'Forecast'), forecastBody);

  // --- calls
  async function showCalls(): Promise<void> {
    const { data } = await api.GET('/api/v2/voice-campaigns/{campaign_id}/calls', { params: { path, query: { page_size: 20 } } });
    if (!data) return;
    replace(
      calls,
      h('h2', { id: 'calls-h' }, 'Latest calls'),
      data.data.length
        ? table(
            ['Placed', 'Phone number', 'Attempt', 'Status', 'Outcome', 'Billed seconds', 'Ended reason', 'Evaluation', 'Summary'],
            data.data.map((c) => [
              when(c.started_at),
              c.phone_number,
              c.attempt,
              c.status,
              c.outcome ?? '—',
              c.billed_seconds,
              c.ended_reason ?? '—',
              c.success_evaluation ?? '—',
              c.summary ?? '—',
            ]),
            'Calls, newest first',
          )
        : h('p', {}, 'No call yet.'),
    );
  }

  replace(
    main,
    h('p', {}, h('a', { href: `${can.base}/campaigns` }, '← Campaigns')),
    h('div', { class: 'title' }, title, badge),
    problem,
    buttons,
    h('h2', { id: 'progress-h' }, 'Progress'),
    progress,
    forecast,
    settings,
    imports,
    leads,
    calls,
  );
  // The leads and calls are read again when the figures moved; the
  // forecast when anything of the campaign did (its figures, status,
  // settings or next dial), not only the time the figures were counted.
  let seen = '';
  let seenCampaign = '';
  const stopProgress = watchProgress(id, progress, can, (p) => {
    onRead(p);
    const campaign = JSON.stringify({ ...p, counts_as_of: undefined });
    if (campaign !== seenCampaign) {
      seenCampaign = campaign;
      void showForecast(id, forecastBody, problem);
    }
    const now = JSON.stringify([p.lead_counts, p.answered_count, p.lead_count]);
    if (now === seen) return;
    seen = now;
    void showCalls();
    void showLeads(leadOffset);
  });
  return () => {
    stopProgress();
    window.clearTimeout(importTimer);
  };
}
