// A one-time link from the agency: choose a password and sign in. The token
// leaves the address bar at once.

import { api, ok } from '../../shared/api';
import { go } from '../../shared/nav';
import { linkPage } from '../../shared/password_forms';
import { remember } from '../session';

export function setupPage(main: HTMLElement): void {
  linkPage(main, '/portal/setup', 'This page needs the link your agency gave you, as it is.', async (token, password) => {
    const answer = await ok(api.POST('/api/v2/portal/session/setup', { body: { token, password } }));
    remember(answer.data);
    go('/portal/campaigns');
  });
}
