// Walks the tenant console in headless Chromium (Debian's, through
// playwright-core) as a new owner would: sets a password from the set-up
// link, creates a campaign, imports CSV leads, watches the progress change
// while the simulated dialer calls them, makes a read-only key and sees it
// refused a write, disables it, looks at webhooks, makes a client, looks at
// billing, invites a member and signs out. Each page
// passes axe-core with no serious or critical violation, fits 390 pixels
// without sideways scrolling, and logs no error; screenshots are kept.
//
// node console_walk.mjs PUBLIC_URL OPERATOR_URL OPERATOR_TOKEN SCREENSHOT_DIR
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [base, operator, token, shots] = process.argv.slice(2);
if (!base || !operator || !token || !shots) {
  console.error('usage: node console_walk.mjs PUBLIC_URL OPERATOR_URL OPERATOR_TOKEN SCREENSHOT_DIR');
  process.exit(2);
}
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const problems = [];
const fail = (what) => {
  problems.push(what);
  console.error(`FAIL ${what}`);
};

async function json(url, method, bearer, body) {
  const res = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
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
if (owner.status !== 201 || provider.status !== 201) {
  console.error('set-up failed', owner, provider);
  process.exit(1);
}
const setupUrl = owner.body.setup_url;
const providerId = provider.body.data.voice_provider_id;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
page.setDefaultTimeout(15000);
// The browser asks for /favicon.ico by itself; the console has none.
const favicon = (url) => url?.endsWith('/favicon.ico');
page.on('console', (m) => {
  if (m.type() === 'error' && !favicon(m.location()?.url)) fail(`console error on ${page.url()}: ${m.text()}`);
});
page.on('pageerror', (e) => fail(`page error on ${page.url()}: ${e}`));
page.on('response', (r) => {
  if (r.status() >= 400 && !favicon(r.url()))
    fail(`${r.request().method()} ${r.url()} answered ${r.status()}`);
});

// axe-core runs through the DevTools protocol, which the page's
// Content-Security-Policy does not govern.
async function accessible(name) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ['violations'] }));
  for (const v of result.violations)
    if (v.impact === 'serious' || v.impact === 'critical')
      fail(`${name}: axe ${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}
async function narrow(name) {
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 1) fail(`${name}: ${overflow} px wider than 390`);
  await page.screenshot({ path: `${shots}/console-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}
async function look(name) {
  await page.screenshot({ path: `${shots}/console-${name}.png`, fullPage: true });
  await accessible(name);
  await narrow(name);
}
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
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Saved.').waitFor();

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

  // 5. A read-only key: refused a write, then disabled.
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

  // 6. Webhooks, a client, billing: each page reads the API and passes axe.
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
  await look('webhooks');
  await page.getByRole('link', { name: 'Clients' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Walk client');
  await page.getByLabel('Billing e-mail').fill(`billing-${stamp}@example.com`);
  await page.getByLabel("First user's e-mail").fill(`client-${stamp}@example.com`);
  await page.getByLabel("First user's password").fill('a client password');
  await page.getByRole('button', { name: 'Create client' }).click();
  await page.getByRole('heading', { name: 'Walk client' }).waitFor();
  await page.getByRole('heading', { name: 'Subscription' }).waitFor();
  await look('client');
  await page.getByRole('link', { name: 'Billing' }).click();
  await page.getByRole('heading', { name: 'Payment requests' }).waitFor();
  await look('billing');

  // 7. A member invited; the link is shown once.
  await page.getByRole('link', { name: 'Members' }).click();
  await page.getByLabel('E-mail').fill(`viewer-${stamp}@example.com`);
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = await page.getByLabel(`Set-up link for viewer-${stamp}@example.com`).inputValue();
  if (!link.includes('/console/setup#token=')) fail(`an invitation's link: ${link}`);
  await look('members');

  // 8. Signing out by keyboard ends the session on the server.
  const session = (await context.cookies()).find((c) => c.name === '__Host-vcs_session');
  if (!session?.httpOnly || !session.secure || session.sameSite !== 'Lax') fail(`the session cookie: ${JSON.stringify(session)}`);
  await page.getByRole('button', { name: 'Sign out' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await look('sign-in');
  const after = await fetch(`${base}/api/v2/session`, { headers: { Cookie: `__Host-vcs_session=${session?.value}` } });
  if (after.status !== 401) fail(`the signed-out session answered ${after.status}`);
} catch (e) {
  fail(`the walk stopped: ${e}`);
  await page.screenshot({ path: `${shots}/console-stopped.png`, fullPage: true }).catch(() => {});
} finally {
  await browser.close();
}
console.log(`console walk: ${problems.length ? `${problems.length} problems` : 'every step as expected'}; screenshots in ${shots}`);
process.exit(problems.length ? 1 : 0);
