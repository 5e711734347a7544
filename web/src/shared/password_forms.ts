// The forms of signing in, setting a password from a one-time link and
// changing one's own password, for the console and the portal alike; what
// each submits is the caller's.

import { onSubmit } from './api';
import { alertBox, field, h, replace } from './dom';

// E-mail and password; the password field is emptied after each try.
export function signInForm(submit: (email: string, password: string) => Promise<void>): HTMLElement {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const problem = alertBox();
  return h(
    'form',
    {
      onsubmit: onSubmit(problem, async () => {
        try {
          await submit(email.value, password.value);
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
}

// The token of a one-time link (the address's #token=…), taken out of the
// address bar at once; empty when the address has none.
function takeLinkToken(path: string): string {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  history.replaceState(null, '', path);
  return token;
}

// A new password, typed twice.
export function setPasswordForm(submit: (password: string) => Promise<void>): HTMLElement {
  const password = h('input', { type: 'password', autocomplete: 'new-password', minlength: 8, maxlength: 128, required: true });
  const again = h('input', { type: 'password', autocomplete: 'new-password', required: true });
  const problem = alertBox();
  return h(
    'form',
    {
      onsubmit: onSubmit(problem, async () => {
        if (password.value !== again.value) {
          problem.textContent = 'The two passwords differ.';
          return;
        }
        await submit(password.value);
      }),
    },
    field('New password', password, '8 to 128 characters.'),
    field('The same password again', again),
    problem,
    h('button', { type: 'submit' }, 'Set password and sign in'),
  );
}

// The current password and a new one; every session ends after.
export function changePasswordForm(submit: (current: string, wanted: string) => Promise<void>): HTMLElement {
  const current = h('input', { type: 'password', autocomplete: 'current-password', required: true });
  const wanted = h('input', { type: 'password', autocomplete: 'new-password', minlength: 8, maxlength: 128, required: true });
  const problem = alertBox();
  return h(
    'form',
    { onsubmit: onSubmit(problem, () => submit(current.value, wanted.value)) },
    field('Current password', current),
    field('New password', wanted, '8 to 128 characters. Every session of yours ends; sign in again.'),
    problem,
    h('button', { type: 'submit' }, 'Change password'),
  );
}

// The page of a one-time link: the password form, or what to do without
// the link's token.
export function linkPage(main: HTMLElement, path: string, missing: string, submit: (token: string, password: string) => Promise<void>): void {
  const token = takeLinkToken(path);
  replace(
    main,
    h('h1', {}, 'Set your password'),
    token ? setPasswordForm((password) => submit(token, password)) : h('p', {}, missing),
  );
}
