// The member's own password; changing it signs out everywhere.

import { api, ok } from '../../shared/api';
import { h, replace } from '../../shared/dom';
import { go } from '../../shared/nav';
import { changePasswordForm } from '../../shared/password_forms';
import { forget } from '../session';

export function accountPage(main: HTMLElement): void {
  const form = changePasswordForm(async (current, wanted) => {
    await ok(api.POST('/api/v2/session/password', { body: { current_password: current, new_password: wanted } }));
    forget();
    go('/console/sign-in');
  });
  replace(main, h('h1', {}, 'Your account'), form);
}
