// Sign in with e-mail and password; the API throttles failures.

import { api, ok } from '../../shared/api';
import { h, replace } from '../../shared/dom';
import { go } from '../../shared/nav';
import { signInForm } from '../../shared/password_forms';
import { remember } from '../session';

export function signInPage(main: HTMLElement): void {
  const form = signInForm(async (email, password) => {
    const answer = await ok(api.POST('/api/v2/session', { body: { email, password } }));
    remember(answer.data);
    go('/console/campaigns');
  });
  replace(main, h('h1', {}, 'Sign in'), form);
}
