// Opens a benchmark report (benchmarks/report) in headless Chromium,
// checks that it renders its charts without page errors, and saves a
// screenshot.
//
// node report_page.mjs REPORT.html SCREENSHOT_PATH [MIN_CHARTS]
import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';

const [report, screenshot, minCharts = '1'] = process.argv.slice(2);
if (!report || !screenshot) {
  console.error('usage: node report_page.mjs REPORT.html SCREENSHOT_PATH [MIN_CHARTS]');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
  // A chart is an inline SVG with at least one drawn path.
  const charts = await page.$$eval('figure svg', (svgs) =>
    svgs.filter((s) => s.querySelector('path') && s.getBoundingClientRect().width > 100).length);
  const rows = await page.$$eval('table tr', (trs) => trs.length - 1);
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`report page: ${charts} charts, ${rows} result rows; screenshot ${screenshot}`);
  if (errors.length || charts < Number(minCharts) || rows < 1) {
    console.error('page errors:', errors);
    process.exit(1);
  }
} finally {
  await browser.close();
}
