// The signed-in member, as GET /api/v2/session tells it.

import { api, useCsrfToken, type Schemas } from './api';

export type Session = Schemas['SessionAnswer']['data'];

let current: Session | null = null;

export function session(): Session | null {
  return current;
}

export function remember(s: Session): void {
  current = s;
  useCsrfToken(s.csrf_token);
}

export function forget(): void {
  current = null;
  useCsrfToken('');
}

// The session, read once per page load; null when nobody is signed in.
export async function load(): Promise<Session | null> {
  const { data, response } = await api.GET('/api/v2/session');
  if (!response.ok || !data) return null;
  remember(data.data);
  return current;
}

export function may(permission: Schemas['Permission']): boolean {
  return current?.permissions.includes(permission) ?? false;
}
