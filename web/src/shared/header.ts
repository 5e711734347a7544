// The top of every signed-in page of the console and the portal: the
// app's links (the current one marked), the time zone the user picks, who
// is signed in and the sign-out button.

import { alertBox, field, h, replace } from './dom';
import { chooseZone, zone, zones } from './time';

export interface HeaderParts {
  // The navigation's name for screen readers.
  label: string;
  links: [href: string, text: string][];
  who: string;
  // Ends the session on the server (DELETE of the session route).
  end: () => Promise<{ response: Response }>;
  forget: () => void;
  signInPath: string;
  // Draws the page again (after the zone changed, after signing out).
  redraw: () => void;
}

export function showHeader(top: HTMLElement, parts: HeaderParts): void {
  const here = location.pathname;
  const picker = h('select', {
    onchange: (e: Event) => {
      chooseZone((e.target as HTMLSelectElement).value);
      parts.redraw();
    },
  });
  const current = zone();
  const choices = zones();
  for (const z of choices.includes(current) ? choices : [current, ...choices])
    picker.append(h('option', { value: z, selected: z === current }, z));
  const problem = alertBox();
  replace(
    top,
    h(
      'nav',
      { 'aria-label': parts.label },
      h('span', { class: 'brand' }, 'Voice Campaigns'),
      ...parts.links.map(([href, text]) => h('a', { href, 'aria-current': here.startsWith(href) ? 'page' : undefined }, text)),
    ),
    h(
      'div',
      { class: 'who' },
      field('Show times in', picker),
      h('span', {}, parts.who),
      h(
        'button',
        {
          type: 'button',
          onclick: async () => {
            const { response } = await parts.end();
            if (!response.ok && response.status !== 401) {
              problem.textContent = `Signing out failed (${response.status}); try again.`;
              return;
            }
            parts.forget();
            history.pushState(null, '', parts.signInPath);
            parts.redraw();
          },
        },
        'Sign out',
      ),
      problem,
    ),
  );
}
