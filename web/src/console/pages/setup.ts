// A one-time set-up link (an invitation, a new owner's, a new password's):
// choose a password and sign in. The token leaves the address bar at once.

import { api, ok, onSubmit } from '../api';
import { alertBox, field, h, replace } from '../dom';
import { go } from '../nav';
import { remember } from '../session';

export function setupPage(main: HTMLElement): void {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  history.replaceState(null, '', '/console/setup');
  if (!token) {
    replace(main, h('h1', {}, 'Set your password'), h('p', {}, 'This page needs the set-up link you were given, as it is.'));
    return;
  }
  const password = h('input', { type: 'password', autocomplete: 'new-password', minlength: 8, maxlength: 128, required: true });
  const again = h('input', { type: 'password', autocomplete: 'new-password', required: true });
  const problem = alertBox();
  const form = h(
    'form',
    {
      onsubmit: onSubmit(problem, async () => {
        if (password.value !== again.value) {
          problem.textContent = 'The two passwords differ.';
          return;
        }
        const answer = await ok(api.POST('/api/v2/session/setup', { body: { token, password: password.value } }));
        remember(answer.data);
        go('/console/campaigns');
      }),
    },
    field('New password', password, '8 to 128 characters.'),
    field('The same password again', again),
    problem,
    h('button', { type: 'submit' }, 'Set password and sign in'),
  );
  replace(main, h('h1', {}, 'Set your password'), form);
}
