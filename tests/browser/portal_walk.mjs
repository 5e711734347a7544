// Walks the client portal in headless Chromium as a client user would: a
// tenant's client with one of two campaigns assigned signs in from its
// agency's link, sees that campaign and not the other, adds leads from a
// CSV at view_and_add, finds no way to add any at view_only (and the API
// refuses it 403), reads its resources and form submissions; a payment
// request goes overdue in the billing sweep and the portal shows the
// banner and only billing; the payment is recorded and everything returns.
// Each page passes axe-core with no serious or critical violation, fits
// 390 pixels without sideways scrolling, and logs no error; screenshots
// are kept.
//
// node portal_walk.mjs PUBLIC_URL OPERATOR_URL OPERATOR_TOKEN SCREENSHOT_DIR
import { fail, finish, json, openWalk } from './walk_support.mjs';

const [base, operator, token, shots] = process.argv.slice(2);
if (!base || !operator || !token || !shots) {
  console.error('usage: node portal_walk.mjs PUBLIC_URL OPERATOR_URL OPERATOR_TOKEN SCREENSHOT_DIR');
  process.exit(2);
}

// The agency: a tenant with a product, two campaigns, a client holding one
// of them at view_and_add, and a form submission of the client.
const stamp = Date.now();
const tenant = await json(`${operator}/admin/v1/tenants`, 'POST', token, { name: `Portal walk ${stamp}`, plan: 'PRO' });
const key = tenant.body?.api_key?.key;
const product = await json(`${operator}/admin/v1/tenants/${tenant.body?.tenant_id}/products`, 'POST', token, {
  product_id: 'prod_portal',
  name: 'Portal plan',
  pricing_model: 'flat_plus_usage',
  min_minutes_included: 200,
  additional_minute_price: '0.04',
  prices: [{ price_id: 'price_portal', billing_type: 'recurring', usage_type: 'licensed', unit_amount: '39.00', currency: 'USD', interval: 'month' }],
});
const mine = await json(`${base}/api/v2/voice-campaigns`, 'POST', key, { name: 'Spring outreach' });
const theirs = await json(`${base}/api/v2/voice-campaigns`, 'POST', key, { name: 'Not yours' });
const email = `client-${stamp}@example.com`;
const client = await json(`${base}/api/v2/clients/create`, 'POST', key, {
  client_users: [{ email, password: 'a portal password' }],
  client_details: { name: 'Walk client', email },
  client_asset_group: { name: 'Main' },
  billing_provider: { type: 'processor', selected_product: { product_id: 'prod_portal', price_ids: ['price_portal'] } },
  client_access: { campaign: 'view_and_add', assistant: 'view_only' },
  assigned_resources: { campaign: [mine.body?.data?.campaign_id], assistant: ['asst_portal'] },
});
const form = await json(`${operator}/admin/v1/tenants/${tenant.body?.tenant_id}/client-forms`, 'POST', token, { title: 'Intake' });
const submission = await json(`${operator}/admin/v1/client-forms/${form.body?.client_form_id}/submissions`, 'POST', token, {
  client_id: client.body?.data?.client_id,
  response_data: { company: 'Walk client', seats: 12 },
});
if ([product, mine, theirs, client, form, submission].some((r) => r.status !== 201)) {
  console.error('set-up failed', { product, mine, theirs, client, form, submission });
  process.exit(1);
}
const clientId = client.body.data.client_id;
const setAccess = (level) =>
  json(`${base}/api/v2/clients/${encodeURIComponent(clientId)}/access`, 'PUT', key, { client_access: { campaign: level, assistant: 'view_only' } });

const { browser, context, page, look, stopped } = await openWalk(shots, 'portal');
try {
  // 1. The agency's link, then the one assigned campaign.
  await page.goto(`${base}/portal/sign-in?tenant=${encodeURIComponent(tenant.body.tenant_id)}`);
  await look('sign-in');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('a portal password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
  const campaigns = page.getByRole('region', { name: 'Campaigns and their progress' });
  await campaigns.getByRole('link', { name: 'Spring outreach' }).waitFor();
  if (await campaigns.getByRole('link', { name: 'Not yours' }).count()) fail('the portal lists a campaign not assigned to the client');
  if (await page.getByRole('button', { name: 'Create campaign' }).count()) fail('the portal offers to create a campaign');
  await look('campaigns');

  // 2. view_and_add: leads from a CSV file.
  await campaigns.getByRole('link', { name: 'Spring outreach' }).click();
  await page.getByRole('heading', { name: 'Spring outreach' }).waitFor();
  const csv = ['phone_number,first_name', '+14155550171,Ada', '+14155550172,Grace'].join('\n');
  await page.getByLabel('CSV or JSON file').setInputFiles({ name: 'leads.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByText(/Import done: 2 of 2 added/).waitFor();
  if (await page.getByRole('button', { name: 'Start dialing' }).count()) fail('view_and_add is offered status actions');
  await look('campaign');

  // 3. view_only: no way to add leads, and the API refuses it.
  if ((await setAccess('view_only')).status !== 200) fail('the access level could not be changed');
  await page.reload();
  await page.getByRole('heading', { name: 'Spring outreach' }).waitFor();
  await page.getByText('Your access cannot add leads.').waitFor();
  if (await page.getByRole('button', { name: 'Import' }).count()) fail('view_only is offered an import');
  const cookie = (await context.cookies()).find((c) => c.name === '__Host-vcs_portal');
  if (!cookie?.httpOnly || !cookie.secure || cookie.sameSite !== 'Lax') fail(`the portal cookie: ${JSON.stringify(cookie)}`);
  const browserHeaders = { Cookie: `${cookie?.name}=${cookie?.value}`, Origin: base };
  const me = await json(`${base}/api/v2/portal/session`, 'GET', null, undefined, browserHeaders);
  const added = await json(
    `${base}/api/v2/voice-campaigns/${encodeURIComponent(mine.body.data.campaign_id)}/leads`,
    'POST',
    null,
    { phone_number: '+14155550173' },
    { ...browserHeaders, 'X-CSRF-Token': me.body?.data?.csrf_token },
  );
  if (added.status !== 403) fail(`a view_only client added a lead: ${added.status} ${JSON.stringify(added.body)}`);
  await look('campaign-view-only');

  // 4. What it was given, and its form submissions.
  await page.getByRole('link', { name: 'Resources' }).click();
  await page.getByRole('region', { name: 'Resources assigned to you' }).getByText('asst_portal').waitFor();
  await look('resources');
  await page.getByRole('link', { name: 'Forms' }).click();
  await page.getByRole('region', { name: 'Form submissions, newest first' }).getByText('Walk client').waitFor();
  await look('forms');

  // 5. A payment request goes overdue in the billing sweep: the banner, and
  // only billing.
  const subscription = (await json(`${base}/api/v2/external-billing/subscriptions`, 'GET', key)).body?.data?.[0];
  const plainClient = Buffer.from(clientId, 'base64').toString().split(':')[1];
  const due = new Date(Date.now() - 2 * 86400e3).toISOString();
  const request = await json(`${operator}/admin/v1/payment-requests`, 'POST', token, {
    client_id: plainClient,
    subscription_id: subscription?.id,
    type: 'SUBSCRIPTION',
    amount: '39.00',
    currency: 'USD',
    due_date: due,
    grace_period_ends_at: new Date(Date.now() + 7 * 86400e3).toISOString(),
    period_start: due,
    period_end: new Date(Date.now() + 28 * 86400e3).toISOString(),
  });
  const swept = await json(`${operator}/admin/v1/billing/sweep`, 'POST', token, { now: new Date().toISOString() });
  if (request.status !== 201 || swept.status !== 200) fail(`the overdue request: ${request.status} ${swept.status} ${JSON.stringify(swept.body)}`);
  await page.goto(`${base}/portal/campaigns`);
  await page.getByRole('heading', { name: 'Billing' }).waitFor();
  await page.getByRole('alert').filter({ hasText: 'Payment overdue – access restricted' }).waitFor();
  if (await page.getByRole('link', { name: 'Campaigns' }).count()) fail('a client whose payment is due is offered its campaigns');
  await page.getByRole('region', { name: 'Payment requests, newest first' }).getByText('OVERDUE').waitFor();
  await look('billing-overdue');

  // 6. The payment recorded: everything returns.
  const paid = await json(`${base}/api/v2/external-billing/payment-requests/${request.body?.id}/update`, 'PATCH', key, { status: 'PAID' });
  if (paid.status !== 200) fail(`marking the request paid: ${paid.status} ${JSON.stringify(paid.body)}`);
  await page.goto(`${base}/portal/campaigns`);
  await page.getByRole('region', { name: 'Campaigns and their progress' }).getByRole('link', { name: 'Spring outreach' }).waitFor();
  await page.getByRole('link', { name: 'Billing' }).click();
  await page.getByRole('heading', { name: 'Your plan' }).waitFor();
  if (await page.getByRole('alert').filter({ hasText: /overdue|suspended/ }).count()) fail('the overdue banner stayed after the payment');
  await look('billing');

  // 7. Signing out ends the session on the server.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to your portal' }).waitFor();
  const after = await json(`${base}/api/v2/portal/session`, 'GET', null, undefined, browserHeaders);
  if (after.status !== 401) fail(`the signed-out portal session answered ${after.status}`);
} catch (e) {
  await stopped(e);
} finally {
  await browser.close();
}
finish('portal walk', shots);
