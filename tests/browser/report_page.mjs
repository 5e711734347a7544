// Opens a benchmark report (benchmarks/report) in headless Chromium,
// checks that it renders its charts without page errors, and saves a
// screenshot.
//
// node report_page.mjs REPORT.html SCREENSHOT_PATH [MIN_CHARTS]
import { pathToFileURL } from 'node:url';
import { withPage } from './headless_page.mjs';

const [report, screenshot, minCharts = '1'] = process.argv.slice(2);
if (!report || !screenshot) {
  console.error('usage: node report_page.mjs REPORT.html SCREENSHOT_PATH [MIN_CHARTS]');
  process.exit(2);
}
await withPage(async (page, errors) => {
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
});
