/* browser_common.js: headless Debian chromium with the network cut off, shared by the HTML tests and benchmark. */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

const SKIP = Symbol('skip');
const CHROMIUM = process.env.RLI_CHROMIUM || '/usr/bin/chromium';
const REPO = path.resolve(__dirname, '..', '..');

function loadPlaywright() {
  try {
    return require(require.resolve('playwright-core', { paths: [REPO] }));
  } catch (error) {
    return null;
  }
}

/*
 * Resolves to SKIP when playwright-core (npm ci at the repo root) or chromium
 * is missing. Otherwise every request that is not file: is aborted and
 * recorded, as are console errors, page errors and dialogs: problems()
 * returns them all, and a clean page returns [].
 */
async function openBrowser(options = {}) {
  const playwright = loadPlaywright();
  if (!playwright) {
    console.log('skipped: playwright-core is not installed (run npm ci in ' + REPO + ')');
    return SKIP;
  }
  if (!fs.existsSync(CHROMIUM)) {
    console.log('skipped: ' + CHROMIUM + ' is not installed');
    return SKIP;
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rli-chromium-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    viewport: options.viewport || { width: 1400, height: 900 },
    deviceScaleFactor: options.deviceScaleFactor || 1,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const problems = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    problems.push('request left the file: ' + url);
    return route.abort();
  });
  context.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('file:') && !url.startsWith('blob:') && !url.startsWith('data:'))
      problems.push('request: ' + url);
  });

  return {
    context,
    problems: () => problems.slice(),
    /*
     * how.ready: the global to wait for instead of the browser's (null: do not wait, the page is
     * not meant to start); how.missingFiles: files it names are absent on purpose, so the
     * console's errors about them are expected and not problems.
     */
    async open(file, how = {}) {
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' && !how.missingFiles)
          problems.push('console ' + message.type() + ': ' + message.text());
      });
      page.on('pageerror', (error) => problems.push('page error: ' + error.message));
      page.on('dialog', (dialog) => {
        problems.push('dialog: ' + dialog.message());
        dialog.dismiss().catch(() => {});
      });
      await page.goto('file://' + path.resolve(file));
      /* the global a page sets once it has started: the timeline's, or another page's (options.ready) */
      const ready = how.ready !== undefined ? how.ready : options.ready || 'rliTimeline';
      if (ready === null)
        return page;
      try {
        await page.waitForFunction((name) => window[name] !== undefined, ready, { timeout: options.startTimeout || 15000 });
      } catch (error) {
        throw new Error(path.basename(file) + ' never started (' + ready + '); problems so far: ' + JSON.stringify(problems));
      }
      return page;
    },
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/*
 * Named checks that report and count their failures instead of stopping at the first:
 * check(name, async body) prints "ok" or "FAIL" with the first lines of the error.
 */
function makeChecks() {
  let failed = 0;
  async function check(name, body) {
    try {
      await body();
      console.log('ok   ' + name);
    } catch (error) {
      failed++;
      console.log('FAIL ' + name + '\n     ' + String(error && error.stack || error).split('\n').slice(0, 6).join('\n     '));
    }
  }
  return { check, failures: () => failed };
}

module.exports = { openBrowser, SKIP, REPO, makeChecks };
