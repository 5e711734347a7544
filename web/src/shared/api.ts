// The typed client of the public API (types generated from docs/openapi.yaml
// at build time, so the pages and the API cannot drift apart), with the
// session's CSRF token on every change; the portal's requests say they are
// the portal's (a browser may hold the console's cookie too).

import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../generated/api';

export type Schemas = components['schemas'];

let csrfToken = '';
export function useCsrfToken(token: string): void {
  csrfToken = token;
}

let portal = false;
export function actAsPortal(): void {
  portal = true;
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    if (portal) request.headers.set('X-Session-Kind', 'portal');
    return request;
  },
};

let onSignedOut: () => void = () => {};
export function whenSignedOut(f: () => void): void {
  onSignedOut = f;
}
// A session that ended elsewhere (signed out, password changed, removed)
// sends the page back to sign-in.
const ended: Middleware = {
  onResponse({ request, response }) {
    const url = new URL(request.url);
    const sessionRoute = url.pathname.startsWith('/api/v2/session') || url.pathname.startsWith('/api/v2/portal/session');
    if (response.status === 401 && !sessionRoute) onSignedOut();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: location.origin });
api.use(csrf, ended);

// The API's own words: its message, then each field's problems.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    body: unknown,
  ) {
    super(describe(status, body));
  }
}

function describe(status: number, body: unknown): string {
  if (!body || typeof body !== 'object') return `The service answered ${status}.`;
  const b = body as { message?: unknown; errors?: unknown; error?: unknown };
  const lines: string[] = [typeof b.message === 'string' ? b.message : `The service answered ${status}.`];
  if (Array.isArray(b.errors)) lines.push(...b.errors.map(String));
  else if (b.errors && typeof b.errors === 'object')
    for (const [name, problems] of Object.entries(b.errors as Record<string, unknown>))
      lines.push(`${name}: ${Array.isArray(problems) ? problems.join(' ') : String(problems)}`);
  if (typeof b.error === 'string') lines.push(b.error);
  else if (Array.isArray(b.error)) lines.push(...b.error.map(String));
  return lines.join('\n');
}

// The answer's data, or an ApiError with the service's message.
export async function ok<T>(answer: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await answer;
  if (!response.ok || data === undefined) throw new ApiError(response.status, error);
  return data;
}

// A form's submit handler: runs `act`, showing what went wrong in `problem`.
export function onSubmit(problem: HTMLElement, act: () => Promise<void>): (e: Event) => Promise<void> {
  return async (e: Event) => {
    e.preventDefault();
    problem.textContent = '';
    try {
      await act();
    } catch (err) {
      problem.textContent = err instanceof ApiError ? err.message : `The service could not be reached: ${String(err)}`;
    }
  };
}

// One request; its data, or null with the service's words in `problem`.
export async function attempt<T>(
  problem: HTMLElement,
  request: () => Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T | null> {
  try {
    return await ok(request());
  } catch (err) {
    problem.textContent = err instanceof ApiError ? err.message : `The service could not be reached: ${String(err)}`;
    return null;
  }
}
