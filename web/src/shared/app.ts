// The skeleton the console and the portal share: one page per path under
// the app's base, drawn without a reload when a link inside the app is
// followed; a page that needs a session sends to sign-in when there is
// none, and a session that ends elsewhere does too.

import { whenSignedOut } from './api';
import { h, replace } from './dom';
import { go, onNavigate } from './nav';

// What a page leaves running (a refresh timer) is stopped when it goes.
export type Page = (main: HTMLElement, params: string[]) => (() => void) | void;

export interface App {
  base: string;
  // Pattern, page, whether it needs a session.
  routes: [RegExp, Page, boolean][];
  // Whether a session is held, reading it once per page load when not.
  signedIn: () => Promise<boolean>;
  // Forgets the session; whether one was held.
  forget: () => boolean;
  // Draws the top of the page (nothing without a session).
  header: (redraw: () => void) => void;
  // Where a signed-in page must go instead, if anywhere (the portal while
  // a payment is due).
  redirect?: (path: string) => string | null;
}

export function startApp(app: App): void {
  let stop: (() => void) | void;
  async function render(): Promise<void> {
    if (stop) stop();
    stop = undefined;
    const main = document.getElementById('main')!;
    const path = location.pathname;
    const found = app.routes.find(([pattern]) => pattern.test(path));
    if (!found) {
      replace(main, h('h1', {}, 'Not found'), h('p', {}, h('a', { href: `${app.base}/campaigns` }, 'Go to the campaigns')));
      return;
    }
    const [pattern, page, needsSession] = found;
    if (needsSession && !(await app.signedIn())) return go(`${app.base}/sign-in${location.search}`);
    const elsewhere = needsSession && app.redirect?.(path);
    if (elsewhere) return go(elsewhere);
    app.header(() => void render());
    replace(main);
    stop = page(main, (path.match(pattern) ?? []).slice(1).map(decodeURIComponent));
    main.focus();
  }
  // Links inside the app change the page without a reload.
  document.addEventListener('click', (e) => {
    const a = (e.target as Element).closest?.('a');
    if (!a || a.target || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith(app.base)) return;
    e.preventDefault();
    go(url.pathname + url.search);
  });
  onNavigate(() => void render());
  window.addEventListener('popstate', () => void render());
  whenSignedOut(() => {
    if (app.forget()) go(`${app.base}/sign-in`);
  });
  void render();
}
