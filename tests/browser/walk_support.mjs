// What the walks of the web pages share (console_walk.mjs, portal_walk.mjs):
// problems collected rather than thrown, JSON calls of the API, and a
// headless Chromium page whose console errors, page errors and failed
// answers are problems, with each page looked at: a screenshot at 1280 and
// 390 pixels, axe-core with no serious or critical violation, and no
// sideways scrolling at 390.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const problems = [];
export const fail = (what) => {
  problems.push(what);
  console.error(`FAIL ${what}`);
};

export async function json(url, method, bearer, body, headers = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}), 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

export const waitFor = async (what, test, ms = 15000) => {
  for (const stop = Date.now() + ms; Date.now() < stop; await new Promise((r) => setTimeout(r, 100))) if (await test()) return;
  fail(`${what} within ${ms} ms`);
};

// A browser and its page; `prefix` names the screenshots (console-…).
export async function openWalk(shots, prefix) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  // The browser asks for /favicon.ico by itself; the pages have none.
  const favicon = (url) => url?.endsWith('/favicon.ico');
  page.on('console', (m) => {
    if (m.type() === 'error' && !favicon(m.location()?.url)) fail(`console error on ${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => fail(`page error on ${page.url()}: ${e}`));
  page.on('response', (r) => {
    if (r.status() >= 400 && !favicon(r.url())) fail(`${r.request().method()} ${r.url()} answered ${r.status()}`);
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
    await page.screenshot({ path: `${shots}/${prefix}-${name}-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  async function look(name) {
    await page.screenshot({ path: `${shots}/${prefix}-${name}.png`, fullPage: true });
    await accessible(name);
    await narrow(name);
  }
  async function stopped(e) {
    fail(`the walk stopped: ${e}`);
    await page.screenshot({ path: `${shots}/${prefix}-stopped.png`, fullPage: true }).catch(() => {});
  }
  return { browser, context, page, look, stopped };
}

// The walk's last line, and its exit status.
export function finish(name, shots) {
  console.log(`${name}: ${problems.length ? `${problems.length} problems` : 'every step as expected'}; screenshots in ${shots}`);
  process.exit(problems.length ? 1 : 0);
}
