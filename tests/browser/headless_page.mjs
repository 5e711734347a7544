// Debian's Chromium through playwright-core, for the page checks: a page
// whose errors are collected, handed to `use`, then the browser closed.
import { chromium } from 'playwright-core';

export async function withPage(use) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    return await use(page, errors);
  } finally {
    await browser.close();
  }
}
