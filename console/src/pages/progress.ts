// A campaign's live progress: leads by call status, answered, failed,
// calls in progress and the next dial, read again every few seconds.

import { api, type Schemas } from '../api';
import { h, replace } from '../dom';
import { when } from '../time';

export type Progress = Schemas['CampaignWithProgress'];
export const refreshEvery = 3000;

export async function readProgress(id: string): Promise<Progress | null> {
  const { data } = await api.GET('/api/v2/voice-campaigns/{campaign_id}', { params: { path: { campaign_id: id } } });
  return data?.data ?? null;
}

// The progress as a list of figures, each labelled.
export function figures(p: Progress): HTMLElement {
  const c = p.lead_counts;
  const item = (label: string, value: string | number) => h('div', {}, h('dt', {}, label), h('dd', {}, value));
  return h(
    'dl',
    { class: 'figures' },
    item('Leads', p.lead_count),
    item('Idle', c.IDLE),
    item('Queued', c.QUEUED),
    item('In progress', c.IN_PROGRESS),
    item('Completed', c.COMPLETED),
    item('Failed', c.FAILED),
    item('Answered', p.answered_count),
    item('Still to dial', p.dialable_count),
    item('Next dial', when(p.next_dial_at)),
  );
}

// Keeps `target` showing campaign `id`'s progress; the returned function
// stops it.
export function watchProgress(id: string, target: HTMLElement, onRead?: (p: Progress) => void): () => void {
  let live = true;
  const tick = async () => {
    const p = await readProgress(id).catch(() => null);
    if (!live) return;
    if (p) {
      replace(target, figures(p));
      onRead?.(p);
    }
    timer = window.setTimeout(tick, refreshEvery);
  };
  let timer = window.setTimeout(tick, 0);
  return () => {
    live = false;
    window.clearTimeout(timer);
  };
}
