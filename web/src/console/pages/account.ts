// The member's own password; changing it signs out everywhere.

import { api, ok, onSubmit } from '../api';
import { alertBox, field, h, replace } from '../dom';
import { go } from '../nav';
import { forget } from '../session';

export function accountPage(main: HTMLElement): void {
  const current = h('input', { type: 'password', autocomplete: 'current-password', required: true });
  const wanted = h('input', { type: 'password', autocomplete: 'new-password', minlength: 8, maxlength: 128, required: true });
  const problem = alertBox();
  const form = h(
    'form',
    {
      onsubmit: onSubmit(problem, async () => {
        await ok(api.POST('/api/v2/session/password', { body: { current_password: current.value, new_password: wanted.value } }));
        forget();
        go('/console/sign-in');
      }),
    },
    field('Current password', current),
    field('New password', wanted, '8 to 128 characters. Every session of yours ends; sign in again.'),
    problem,
    h('button', { type: 'submit' }, 'Change password'),
  );
  replace(main, h('h1', {}, 'Your account'), form);
}
