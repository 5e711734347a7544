// Walks the tenant console in headless Chromium (Debian's, through
// playwright-core) as a new owner would: sets a password from the set-up
// link, creates a campaign, imports CSV leads, watches the progress change
// while the simulated dialer calls them and reads the forecast, makes a
// number pool, gives it a third number and deletes it, makes another that
// the campaign calls from, chosen in its settings, makes a
// read-only key and sees it refused a write, disables it, replays a webhook
// delivery, sends a test
// event and rotates the signing secret, makes a client with a subscription
// and assigns it the campaign, marks its payment request paid, invites a
// member and signs out. Each page
// passes axe-core with no serious or critical violation, fits 390 pixels
// without sideways scrolling, and logs no error; screenshots are kept.
//
// node console_walk.mjs PUBLIC_URL OPERATOR_URL OPERATOR_TOKEN SCREENSHOT_DIR
import { createServer } from 'node:http';
import { fail, finish, json, openWalk, waitFor } from './walk_support.mjs';

const [base, operator, token, shots] = process.argv.slice(2);
if (!base || !operator || !token || !shots) {
  console.error('usage: node console_walk.mjs PUBLIC_URL OPERATOR_URL OPERATOR_TOKEN SCREENSHOT_DIR');
  process.exit(2);
}

// A tenant, its owner's set-up link and a voice provider to dial with.
const stamp = Date.now();
const tenant = await json(`${operator}/admin/v1/tenants`, 'POST', token, { name: `Console walk ${stamp}`, plan: 'PRO' });
const owner = await json(`${operator}/admin/v1/tenants/${tenant.body.tenant_id}/members`, 'POST', token, {
  email: `walk-${stamp}@example.com`,
});
const provider = await json(`${base}/api/v2/voice-pod`, 'POST', tenant.body.api_key.key, {
  voice_provider: 'provider_b',
  provider_b_api_key: 'console-walk',
});
// A product the client subscribes to.
const product = await json(`${operator}/admin/v1/tenants/${tenant.body.tenant_id}/products`, 'POST', token, {
  product_id: `prod_walk_${stamp}`,
  name: 'Walk plan',
  pricing_model: 'flat_plus_usage',
  min_minutes_included: 100,
  additional_minute_price: '0.05',
  prices: [{ price_id: `price_walk_${stamp}`, billing_type: 'recurring', usage_type: 'licensed', unit_amount: '29.00', currency: 'USD', interval: 'month' }],
});
if (owner.status !== 201 || provider.status !== 201 || product.status !== 201) {
  console.error('set-up failed', owner, provider, product);
  process.exit(1);
}
const setupUrl = owner.body.setup_url;
const providerId = provider.body.data.voice_provider_id;
// The campaign's webhook receiver: every delivery's webhook-id and type.
const received = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ id: req.headers['webhook-id'], type: JSON.parse(body || '{}').type });
    res.end('ok');
  });
});
await new Promise((done) => receiver.listen(0, '127.0.0.1', done));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

const { browser, context, page, look, stopped } = await openWalk(shots, 'console');
const figure = async (label) =>
  Number(await page.locator('.figures div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd').innerText());

try {
  // 1. The set-up link: a password, and the campaigns page.
  await page.goto(setupUrl);
  if (page.url().includes('token=')) fail('the set-up token stayed in the address bar');
  await look('setup');
  await page.getByLabel('New password').fill('a console walk password');
  await page.getByLabel('The same password again').fill('a console walk password');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('heading', { name: 'Campaigns' }).waitFor();

  // 2. A campaign, set up to dial.
  await page.getByLabel('New campaign name').fill('Walk campaign');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await page.getByRole('heading', { name: 'Walk campaign' }).waitFor();
  await page.getByLabel('Voice provider id').fill(providerId);
  await page.getByLabel('Assistant id').fill('asst_walk');
  await page.getByLabel('Phone number id').fill('pn_walk');
  await page.getByLabel('Webhook URL').fill(hookUrl);
  // What the calls are (the calling rules): the tenant's default until chosen.
  const purposeShown = await page.getByLabel('Calls are').evaluate((s) => s.selectedOptions[0]?.text);
  if (!purposeShown?.startsWith("Tenant's default")) fail(`the Calls are select first shows ${purposeShown}`);
  await page.getByLabel('Calls are').selectOption({ label: 'Informational' });
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Saved.').waitFor();
  {
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop());
    const read = await json(`${base}/api/v2/voice-campaigns/${encodeURIComponent(id)}`, 'GET', tenant.body.api_key.key);
    const { calling_purpose: purpose, calling_purpose_from: from } = read.body?.data ?? {};
    if (purpose !== 'INFORMATIONAL' || from !== 'campaign') fail(`the campaign after choosing Informational: ${purpose} from ${from}`);
  }

  // 3. CSV leads, one of them malformed.
  const csv = [
    'phone_number,first_name,custom_fields.simulated_outcomes',
    '+14155550101,Ada,human',
    '+14155550102,Grace,human',
    '+14155550103,Linus,voicemail',
    'not-a-number,Nobody,human',
  ].join('\n');
  await page.getByLabel('CSV or JSON file').setInputFiles({ name: 'leads.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByText(/Import done: 3 of 4 added/).waitFor();
  await page.getByRole('region', { name: 'Rejected rows of the import' }).getByText('not-a-number').waitFor();
  // The figures are read every few seconds.
  let idle = 0;
  for (const stop = Date.now() + 10000; Date.now() < stop && (idle = await figure('Idle')) !== 3; )
    await page.waitForTimeout(250);
  if (idle !== 3) fail(`3 idle leads expected, the page shows ${idle}`);
  await look('campaign');

  // 4. Dialing: the progress changes without a reload.
  await page.getByRole('button', { name: 'Start dialing' }).click();
  const until = Date.now() + 30000;
  let answered = 0;
  while (Date.now() < until && (answered = await figure('Answered')) < 2) await page.waitForTimeout(250);
  if (answered < 2) fail(`2 answered leads expected while dialing, the page shows ${answered}`);
  const calls = page.getByRole('region', { name: 'Calls, newest first' });
  await calls.waitFor();
  // What the provider reported, and why each lead is or is not called.
  await calls.getByText('customer-ended-call').first().waitFor();
  await calls.getByText(/a person answered/).first().waitFor();
  await page.getByRole('region', { name: 'Leads of this page' }).getByText('answered', { exact: true }).first().waitFor();
  // The forecast: the answered leads among those not called now, and when
  // the campaign may finish or why that cannot be told.
  const forecast = page.getByRole('region', { name: 'Forecast', exact: true });
  await forecast.waitFor();
  const whyNot = forecast.getByRole('region', { name: 'Why leads are not called now' });
  const answeredRow = whyNot.locator('tbody tr', { has: page.locator('td', { hasText: /^answered$/ }) });
  const answeredSkips = async () => ((await answeredRow.count()) ? Number(await answeredRow.locator('td').nth(1).innerText()) : 0);
  let skipped = 0;
  for (const stop = Date.now() + 10000; Date.now() < stop && (skipped = await answeredSkips()) < 1; ) await page.waitForTimeout(250);
  if (!(skipped >= 1)) fail(`the forecast's answered leads not called now: ${skipped}, at least 1 expected`);
  const outlook = await forecast.locator('.outlook').innerText();
  if (!/^(Estimated finish: [^—]|Nothing left to dial$|Past the end date: \d+ calls? would remain$|No calling hours$|No voice provider$|Campaign ended$|More than a year at this pace$)/.test(outlook))
    fail(`the forecast's outlook: ${outlook}`);
  await page.screenshot({ path: `${shots}/console-campaign-dialed.png`, fullPage: true });
  // Times show in the zone the user picks.
  const placed = () => calls.locator('tbody tr').first().locator('td').first().innerText();
  const before = await placed();
  const zone = (await page.getByLabel('Show times in').inputValue()) === 'Asia/Tokyo' ? 'America/Los_Angeles' : 'Asia/Tokyo';
  await page.getByLabel('Show times in').selectOption(zone);
  await calls.waitFor();
  let moved = before;
  for (const stop = Date.now() + 10000; Date.now() < stop && (moved = await placed().catch(() => before)) === before; )
    await page.waitForTimeout(250);
  if (moved === before) fail(`a call's time stayed ${before} in ${zone}`);

  // 5. A number pool: made with two numbers, given a third, deleted.
  await page.getByRole('link', { name: 'Number pools' }).click();
  await page.getByRole('heading', { name: 'Number pools' }).waitFor();
  const cap = 40;
  const newPool = page.getByRole('group', { name: 'New number pool' });
  await newPool.getByLabel('Name', { exact: true }).fill('Walk pool');
  await newPool.getByLabel('Phone number ids').fill('pn_walk_a\npn_walk_b');
  await newPool.getByLabel('Daily cap per number').fill(String(cap));
  await newPool.getByRole('button', { name: 'Create pool' }).click();
  await page.getByText('Phone number pool created').waitFor();
  const pools = page.getByRole('region', { name: 'Number pools', exact: true });
  const pool = pools.locator('tbody tr', { has: page.locator('td', { hasText: /^Walk pool$/ }) });
  const cell = async (header) => pool.locator('td').nth((await pools.locator('th').allInnerTexts()).indexOf(header)).innerText();
  await pool.waitFor();
  const listed = async (ids, what) => {
    const numbers = await cell('Numbers');
    for (const id of ids) if (!numbers.includes(id)) fail(`the pool ${what} lists no ${id}: ${numbers}`);
    const left = Number(await cell('Calls left today'));
    if (left !== ids.length * cap) fail(`the pool ${what}: ${left} calls left today, ${ids.length * cap} expected`);
  };
  await listed(['pn_walk_a', 'pn_walk_b'], 'made');
  await pool.getByRole('button', { name: 'Edit Walk pool' }).click();
  const editPool = page.getByRole('group', { name: 'Edit Walk pool' });
  await editPool.getByLabel('Phone number ids').fill('pn_walk_a\npn_walk_b\npn_walk_c');
  await editPool.getByRole('button', { name: 'Save Walk pool' }).click();
  await page.getByText('Phone number pool updated').waitFor();
  await pool.getByText('pn_walk_c', { exact: true }).waitFor();
  await listed(['pn_walk_a', 'pn_walk_b', 'pn_walk_c'], 'changed');
  await look('pools');
  page.once('dialog', (d) => d.accept());
  await pool.getByRole('button', { name: 'Delete Walk pool' }).click();
  await page.getByText('Phone number pool deleted').waitFor();
  await pool.waitFor({ state: 'detached' }).catch(() => fail('the deleted pool is still listed'));
  const remaining = await json(`${base}/api/v2/phone-number-pools`, 'GET', tenant.body.api_key.key);
  if (remaining.status !== 200 || remaining.body?.data?.length !== 0)
    fail(`the pools after the deletion: ${remaining.status} ${JSON.stringify(remaining.body)}`);
  // Another pool, which the campaign calls from as its settings choose, then
  // from its one number again. The pool stays: a campaign that has not ended
  // names it (its pool id is kept, not cleared).
  await newPool.getByLabel('Name', { exact: true }).fill('Picker pool');
  await newPool.getByLabel('Phone number ids').fill('pn_picker_a\npn_picker_b');
  await newPool.getByRole('button', { name: 'Create pool' }).click();
  await page.getByText('Phone number pool created').waitFor();
  const pickerPools = await json(`${base}/api/v2/phone-number-pools`, 'GET', tenant.body.api_key.key);
  const pickerPool = pickerPools.body?.data?.find((p) => p.name === 'Picker pool');
  if (!pickerPool) fail(`the pools after making Picker pool: ${pickerPools.status} ${JSON.stringify(pickerPools.body)}`);
  await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
  await page.getByRole('region', { name: 'Campaigns and their progress' }).getByRole('link', { name: 'Walk campaign' }).click();
  await page.getByRole('heading', { name: 'Walk campaign' }).waitFor();
  const campaignId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop());
  const callsFrom = async (what) => {
    const read = await json(`${base}/api/v2/voice-campaigns/${encodeURIComponent(campaignId)}`, 'GET', tenant.body.api_key.key);
    const { dialer_type: dialer, phone_number_pool_id: poolId } = read.body?.data ?? {};
    if (dialer !== what || poolId !== pickerPool?.id)
      fail(`the campaign after choosing ${what}: ${read.status} dialer_type ${dialer}, phone_number_pool_id ${poolId} (Picker pool: ${pickerPool?.id})`);
  };
  const callsFromChoice = page.getByLabel('Calls from', { exact: true });
  const poolChoice = page.getByLabel('Number pool', { exact: true });
  await callsFromChoice.selectOption({ label: 'A number pool' });
  await poolChoice.selectOption({ label: 'Picker pool (2 numbers)' });
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Saved.').waitFor();
  await callsFrom('POOL');
  await page.reload();
  const shownPool = await poolChoice.evaluate((s) => s.selectedOptions[0]?.text);
  if (shownPool !== 'Picker pool (2 numbers)') fail(`the Number pool select after a reload shows ${shownPool}`);
  await look('campaign-pool');
  await callsFromChoice.selectOption({ label: 'One number (the phone number id)' });
  if (await poolChoice.count()) fail('the Number pool select stays with one number chosen');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Saved.').waitFor();
  await callsFrom('SINGLE');

  // 6. A read-only key: refused a write, then disabled.
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  await page.getByLabel('Key name').fill('reports');
  await page.getByLabel('Access').selectOption('read_only');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = await page.getByLabel('API key reports').inputValue();
  const write = await json(`${base}/api/v2/voice-campaigns`, 'POST', key, { name: 'not allowed' });
  if (write.status !== 403 || write.body?.message !== 'This API key lacks the permission campaigns:write')
    fail(`a read-only key's write: ${write.status} ${JSON.stringify(write.body)}`);
  await look('keys');
  await page.getByRole('button', { name: 'Disable reports' }).click();
  await page.getByRole('button', { name: 'Enable reports' }).waitFor();
  const disabled = await json(`${base}/api/v2/voice-campaigns`, 'GET', key);
  if (disabled.status !== 401) fail(`a disabled key answered ${disabled.status}`);

  // 7. Webhooks: the tenant has no signing secret yet, so the dialing's
  // deliveries wait unsent (saying so); a secret is made and they are
  // received, one is replayed, and a test event sent.
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
  await page.getByText(/^waiting: the tenant has no webhook signing secret yet/).first().waitFor();
  if (received.length) fail(`deliveries were sent without a secret: ${JSON.stringify(received)}`);
  await page.getByRole('button', { name: 'Make a new signing secret' }).click();
  const secret = await page.getByLabel('Webhook signing secret').inputValue();
  if (!secret.startsWith('whsec_')) fail(`the new signing secret: ${secret}`);
  await waitFor('the waiting deliveries', () => received.some((r) => r.type?.startsWith('call.')));
  const sent = received.length;
  const replay = page.getByRole('button', { name: /^Replay call\./ });
  for (const stop = Date.now() + 10000; Date.now() < stop && !(await replay.count()); ) {
    await page.waitForTimeout(500);
    const filter = page.getByLabel('Status', { exact: true });
    await filter.selectOption('');
    await filter.selectOption('delivered');
  }
  await replay.first().click();
  await page.getByText('Webhook delivery queued again').waitFor();
  await waitFor('the replayed delivery', () => received.length > sent);
  await page.getByLabel('Campaign', { exact: true }).selectOption({ label: 'Walk campaign' });
  await page.getByRole('button', { name: 'Send a test event' }).click();
  await waitFor('the test event', () => received.some((r) => r.type === 'webhook.test'));
  await look('webhooks');

  // 8. A client with a subscription to the product, assigned the campaign.
  await page.getByRole('link', { name: 'Clients' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Walk client');
  await page.getByLabel('Billing e-mail').fill(`billing-${stamp}@example.com`);
  await page.getByLabel("First user's e-mail").fill(`client-${stamp}@example.com`);
  await page.getByLabel("First user's password").fill('a client password');
  await page.getByLabel('Product id (optional)').fill(`prod_walk_${stamp}`);
  await page.getByLabel('Price id').fill(`price_walk_${stamp}`);
  await page.getByRole('button', { name: 'Create client' }).click();
  await page.getByRole('heading', { name: 'Walk client' }).waitFor();
  await page.getByRole('heading', { name: 'Subscription' }).waitFor();
  const resources = page.getByRole('region', { name: /^Assigned resources of / });
  await resources.getByText('Change the assigned resources').click();
  await resources.getByRole('checkbox', { name: 'Walk campaign' }).check();
  await resources.getByLabel('Assistants').fill('asst_walk');
  await resources.getByRole('button', { name: 'Save assigned resources' }).click();
  await resources.locator('dd', { hasText: /^Walk campaign$/ }).waitFor();
  await resources.locator('dd', { hasText: /^asst_walk$/ }).waitFor();
  // Its portal: a one-time password link for its user, then the user
  // disabled.
  const clientUser = `client-${stamp}@example.com`;
  await page.getByRole('button', { name: `Password link for ${clientUser}` }).click();
  const portalLink = await page.getByLabel(`Password link for ${clientUser}`).inputValue();
  if (!portalLink.includes('/portal/setup#token=')) fail(`a client user's password link: ${portalLink}`);
  await page.getByRole('button', { name: `Disable ${clientUser}` }).click();
  await page.getByRole('button', { name: `Enable ${clientUser}` }).waitFor();
  await look('client');

  // 9. Billing: the client's payment request marked paid.
  // The operator's API takes the client's plain id (its global id is the
  // base64 of "Client:<id>").
  const clientId = Buffer.from(new URL(page.url()).searchParams.get('id') ?? '', 'base64').toString().split(':')[1];
  const subs = await json(`${base}/api/v2/external-billing/subscriptions`, 'GET', tenant.body.api_key.key);
  const subscription = subs.body?.data?.find((x) => x.client_name === 'Walk client');
  const due = new Date(Date.now() + 7 * 86400e3).toISOString();
  const request = await json(`${operator}/admin/v1/payment-requests`, 'POST', token, {
    client_id: clientId,
    subscription_id: subscription?.id,
    type: 'SUBSCRIPTION',
    amount: '29.00',
    currency: 'USD',
    due_date: due,
    period_start: new Date().toISOString(),
    period_end: due,
  });
  if (request.status !== 201) fail(`a payment request: ${request.status} ${JSON.stringify(request.body)}`);
  await page.getByRole('link', { name: 'Billing' }).click();
  await page.getByRole('heading', { name: 'Payment requests' }).waitFor();
  await page.getByLabel(/^Status of Walk client's SUBSCRIPTION request/).selectOption('PAID');
  await page.getByRole('status').filter({ hasText: /./ }).first().waitFor();
  const paid = await json(`${base}/api/v2/external-billing/payment-requests/${request.body?.id}/`, 'GET', tenant.body.api_key.key);
  if (paid.body?.status !== 'PAID') fail(`the request after marking it paid: ${JSON.stringify(paid.body)}`);
  await look('billing');

  // 10. A member invited; the link is shown once.
  await page.getByRole('link', { name: 'Members' }).click();
  await page.getByLabel('E-mail').fill(`viewer-${stamp}@example.com`);
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = await page.getByLabel(`Set-up link for viewer-${stamp}@example.com`).inputValue();
  if (!link.includes('/console/setup#token=')) fail(`an invitation's link: ${link}`);
  await look('members');

  // 11. Signing out by keyboard ends the session on the server.
  const session = (await context.cookies()).find((c) => c.name === '__Host-vcs_session');
  if (!session?.httpOnly || !session.secure || session.sameSite !== 'Lax') fail(`the session cookie: ${JSON.stringify(session)}`);
  await page.getByRole('button', { name: 'Sign out' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await look('sign-in');
  const after = await fetch(`${base}/api/v2/session`, { headers: { Cookie: `__Host-vcs_session=${session?.value}` } });
  if (after.status !== 401) fail(`the signed-out session answered ${after.status}`);
} catch (e) {
  await stopped(e);
} finally {
  await browser.close();
  receiver.close();
}
finish('console walk', shots);
