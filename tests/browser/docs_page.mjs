// Opens a listener's API reference page in headless Chromium (Debian's,
// through playwright-core), checks that it lists every operation and
// webhook event of the OpenAPI document that listener serves and nothing
// else, and saves a screenshot.
//
// node docs_page.mjs BASE_URL SCREENSHOT_PATH   (CHROMIUM overrides the browser)
import { withPage } from './headless_page.mjs';

const [base, screenshot] = process.argv.slice(2);
if (!base || !screenshot) {
  console.error('usage: node docs_page.mjs BASE_URL SCREENSHOT_PATH');
  process.exit(2);
}

const methods = new Set(['get', 'put', 'post', 'patch', 'delete']);
const spec = await (await fetch(`${base}/openapi.json`)).json();
const expected = new Set();
for (const [path, item] of Object.entries(spec.paths))
  for (const method of Object.keys(item))
    if (methods.has(method)) expected.add(item[method].operationId ?? `(no operationId) ${method} ${path}`);
for (const [type, item] of Object.entries(spec['x-webhooks'] ?? {}))
  expected.add(item.post?.operationId ?? `(no operationId) webhook ${type}`);

await withPage(async (page, errors) => {
  await page.goto(`${base}/docs`, { waitUntil: 'networkidle' });
  await page.waitForSelector('[data-section-id*="/operation/"]', { timeout: 30000 });
  // Redoc gives each operation a section "tag/<tag>/operation/<operationId>"
  // (one tag each: its resource).
  const ids = await page.$$eval('[data-section-id*="/operation/"]', (els) =>
    els.map((e) => e.getAttribute('data-section-id')));
  const shown = new Set();
  for (const id of ids) {
    const m = id.match(/\/operation\/([^/]+)$/);
    if (m) shown.add(m[1]);
  }
  await page.screenshot({ path: screenshot });
  const missing = [...expected].filter((op) => !shown.has(op));
  const unknown = [...shown].filter((op) => !expected.has(op));
  console.log(`docs page: ${shown.size} of ${expected.size} operations shown; screenshot ${screenshot}`);
  if (missing.length || unknown.length || errors.length || expected.size === 0) {
    console.error('missing:', missing, 'unknown:', unknown, 'page errors:', errors);
    process.exit(1);
  }
});
