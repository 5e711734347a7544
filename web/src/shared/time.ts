// Times shown in the zone the user picks (kept in this browser), the
// browser's own by default.

const key = 'vcs-console-zone';

export function zones(): string[] {
  const all = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone');
  return all && all.length ? all : ['UTC'];
}

export function zone(): string {
  const chosen = localStorage.getItem(key);
  const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return chosen && (chosen === browser || zones().includes(chosen)) ? chosen : browser;
}

export function chooseZone(z: string): void {
  localStorage.setItem(key, z);
}

// A time of the API in the chosen zone. Billing timestamps carry no zone:
// they are UTC, so one without an offset is read as UTC, not as local time.
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const t = new Date(/T[\d:.]+$/.test(iso) ? `${iso}Z` : iso);
  if (Number.isNaN(t.getTime())) return iso;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium', timeZone: zone() }).format(t);
}
