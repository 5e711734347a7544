// The signed-in member, as GET /api/v2/session tells it.

import { api, type Schemas } from '../shared/api';
import { sessionStore } from '../shared/session_store';

export type Session = Schemas['SessionAnswer']['data'];

export const { session, remember, forget, load } = sessionStore<Session>(async () => {
  const { data, response } = await api.GET('/api/v2/session');
  return response.ok && data ? data.data : null;
});

export function may(permission: Schemas['Permission']): boolean {
  return session()?.permissions.includes(permission) ?? false;
}
