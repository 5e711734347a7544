// A one-time set-up link (an invitation, a new owner's, a new password's):
// choose a password and sign in. The token leaves the address bar at once.

import { api, ok } from '../../shared/api';
import { go } from '../../shared/nav';
import { linkPage } from '../../shared/password_forms';
import { remember } from '../session';

export function setupPage(main: HTMLElement): void {
  linkPage(main, '/console/setup', 'This page needs the set-up link you were given, as it is.', async (token, password) => {
    const answer = await ok(api.POST('/api/v2/session/setup', { body: { token, password } }));
    remember(answer.data);
    go('/console/campaigns');
  });
}
