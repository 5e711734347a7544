// A campaign's forecast (GET /api/v2/voice-campaigns/{campaign_id}/forecast):
// when it may finish at the pace it can dial, or why that cannot be told;
// the figures the estimate rests on; and why the leads not called now are
// not.

import { api, attempt } from '../api';
import type { paths } from '../../generated/api';
import { h, replace, table, type Child } from '../dom';
import { when } from '../time';

type Answer = paths['/api/v2/voice-campaigns/{campaign_id}/forecast']['get']['responses'][200]['content']['application/json'];
export type Forecast = NonNullable<Answer['data']>;

// The outlooks that carry no finish time, in plain words.
const outlooks: Record<string, string> = {
  nothing_to_dial: 'Nothing left to dial',
  campaign_ended: 'Campaign ended',
  no_voice_provider: 'No voice provider',
  no_phone_number: 'No phone number in its pool',
  no_calling_window: 'No calling hours',
  beyond_horizon: 'More than a year at this pace',
};

function summary(f: Forecast): string {
  if (f.outlook === 'finishing') {
    // A DRAFT or PAUSED campaign is forecast as if it dialed from now on.
    const idle = f.campaign_status === 'DRAFT' || f.campaign_status === 'PAUSED';
    return `Estimated finish: ${when(f.estimated_finish_at)}${idle ? ' (if dialing starts now)' : ''}`;
  }
  if (f.outlook === 'past_end_date') {
    const n = f.calls_left_at_end;
    return `Past the end date: ${n} ${n === 1 ? 'call' : 'calls'} would remain`;
  }
  return outlooks[f.outlook] ?? f.outlook.replaceAll('_', ' ');
}

// The forecast: its summary line, its figures, and the leads not called
// now by the first reason that holds.
export function forecastView(f: Forecast): Child[] {
  const item = (label: string, value: string | number) => h('div', {}, h('dt', {}, label), h('dd', {}, value));
  const assumed = (measured: boolean) => (measured ? '' : ' (assumed)');
  const reasons = Object.entries(f.skipped).filter(([, n]) => (n ?? 0) > 0);
  return [
    h('p', { class: 'outlook' }, summary(f)),
    h(
      'dl',
      { class: 'facts' },
      item('Eligible now', f.eligible_now),
      item('Open leads', f.open_leads),
      item('Calls per hour', f.calls_per_hour),
      item('Expected calls', f.expected_calls),
      item('Average call (s)', `${f.average_call_seconds}${assumed(f.call_seconds_measured)}`),
      item('Answer rate', `${Math.round(f.answer_rate * 1000) / 10}%${assumed(f.answer_rate_measured)}`),
      item('Lines', f.concurrency),
    ),
    h('h3', {}, 'Why leads are not called now'),
    reasons.length
      ? table(['Reason', 'Leads'], reasons.map(([reason, n]) => [reason.replaceAll('_', ' '), n]), 'Why leads are not called now')
      : h('p', {}, f.total_leads ? 'Every open lead may be called now.' : 'No lead yet.'),
  ];
}

// Reads campaign `id`'s forecast into `target`; what went wrong shows in
// `problem`, and `target` keeps what it showed.
export async function showForecast(id: string, target: HTMLElement, problem: HTMLElement): Promise<void> {
  const answer = await attempt(problem, () =>
    api.GET('/api/v2/voice-campaigns/{campaign_id}/forecast', { params: { path: { campaign_id: id } } }),
  );
  if (!answer?.data) return;
  replace(target, ...forecastView(answer.data));
}
