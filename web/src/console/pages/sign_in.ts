// Sign in with e-mail and password; the API throttles failures.

import { api, ok, onSubmit } from '../api';
import { alertBox, field, h, replace } from '../dom';
import { go } from '../nav';
import { remember } from '../session';

export function signInPage(main: HTMLElement): void {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const problem = alertBox();
  const form = h(
    'form',
    {
      onsubmit: onSubmit(problem, async () => {
        try {
          const answer = await ok(api.POST('/api/v2/session', { body: { email: email.value, password: password.value } }));
          remember(answer.data);
          go('/console/campaigns');
        } finally {
          password.value = '';
        }
      }),
    },
    field('E-mail', email),
    field('Password', password),
    problem,
    h('button', { type: 'submit' }, 'Sign in'),
  );
  replace(main, h('h1', {}, 'Sign in'), form);
}
