// A page's hold on its session (a member's or a client user's): read once
// per page load, remembered with its CSRF token, forgotten on sign-out.

import { useCsrfToken } from './api';

export interface SessionStore<S> {
  session: () => S | null;
  remember: (s: S) => void;
  forget: () => void;
  // The session as the API reads it now; null when nobody is signed in.
  load: () => Promise<S | null>;
}

export function sessionStore<S extends { csrf_token: string }>(read: () => Promise<S | null>): SessionStore<S> {
  let current: S | null = null;
  const remember = (s: S) => {
    current = s;
    useCsrfToken(s.csrf_token);
  };
  return {
    session: () => current,
    remember,
    forget: () => {
      current = null;
      useCsrfToken('');
    },
    load: async () => {
      const s = await read();
      if (s) remember(s);
      return s;
    },
  };
}
