// A client user signs in to its agency's portal: the tenant comes from the
// link the agency gave; the API throttles failures.

import { api, ok } from '../../shared/api';
import { h, replace } from '../../shared/dom';
import { go } from '../../shared/nav';
import { signInForm } from '../../shared/password_forms';
import { portalTenant, remember } from '../session';

export function signInPage(main: HTMLElement): void {
  const tenant = portalTenant();
  if (!tenant) {
    replace(main, h('h1', {}, 'Sign in'), h('p', {}, 'Open the portal from the link your agency gave you.'));
    return;
  }
  const form = signInForm(async (email, password) => {
    const answer = await ok(api.POST('/api/v2/portal/session', { body: { tenant_id: tenant, email, password } }));
    remember(answer.data);
    go(answer.data.portal_blocked ? '/portal/billing' : '/portal/campaigns');
  });
  replace(main, h('h1', {}, 'Sign in to your portal'), form);
}
