// A campaign's live progress: leads by call status, answered, failed,
// calls in progress and the next dial, as the event stream sends it and
// read again every few seconds.

import { api, type Schemas } from '../api';
import type { Abilities } from './abilities';
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

// Keeps `target` showing campaign `id`'s progress: as the tenant's event
// stream sends it after each event of the campaign, and read every few
// seconds anyway (adding leads sends no event). The returned function stops
// it.
export function watchProgress(id: string, target: HTMLElement, can: Abilities, onRead?: (p: Progress) => void): () => void {
  let live = true;
  let timer = 0;
  const show = (p: Progress) => {
    replace(target, figures(p));
    onRead?.(p);
  };
  const tick = async () => {
    window.clearTimeout(timer);
    const p = await readProgress(id).catch(() => null);
    if (!live) return;
    if (p) show(p);
    timer = window.setTimeout(tick, refreshEvery);
  };
  const stream = followEvents(can, (p) => {
    if (live && p.id === id) show(p);
  });
  void tick();
  return () => {
    live = false;
    stream();
    window.clearTimeout(timer);
  };
}

// The progress of the campaigns the tenant's events name, as they commit
// (the campaign.progress frames of GET /api/v2/events/stream, with the
// session's cookie); the returned function closes the stream.
export function followEvents(can: Abilities, progress: (p: Progress) => void): () => void {
  if (!can.followEvents) return () => {};
  const source = new EventSource('/api/v2/events/stream');
  source.addEventListener('campaign.progress', (m: MessageEvent<string>) => {
    try {
      progress(JSON.parse(m.data) as Progress);
    } catch {
      // A frame that is not JSON: nothing to show.
    }
  });
  return () => source.close();
}
