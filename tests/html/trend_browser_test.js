/* trend_browser_test.js: trend.html of generated nights, offline: no request and no console error, the figure drawn, a run's numbers on hover, and its links open the run's own outputs while its folder still holds them. */
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');

function run(bin, args) {
  try {
    execFileSync(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    if (error.status !== 6) throw error; // the last night regresses on purpose
  }
}

/* The table of runs as the page shows it: each row's cells, and the link of its Outputs cell. */
async function tableRows(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('.rli-trend-table tbody tr')).map((tr) => ({
    cells: Array.from(tr.cells).map((td) => td.textContent),
    href: tr.querySelector('a') ? tr.querySelector('a').href : null,
    regressed: tr.classList.contains('rli-regressed'),
  })));
}

async function main() {
  const [bin, synth, outDir] = process.argv.slice(2);
  const browser = await openBrowser({ viewport: { width: 1280, height: 800 }, ready: 'rliTrend' });
  if (browser === SKIP) return 77;
  const { check, failures } = makeChecks();
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const prof = path.join(outDir, 'prof'), db = path.join(outDir, 'nightly.db');
  /* Five nights, each into a folder of its own (night 3's folder used again by night 4), then a slow sixth. */
  const folders = ['n1', 'n2', 'n3', 'n3', 'n5', 'tonight'];
  for (let k = 1; k <= 6; k++) {
    const pair = path.join(outDir, 'pair' + k);
    const kind = k === 6 ? ['--pair', 'slowdown', '--slow-rank', 'all', '--slow-factor', '1.3'] : ['--pair', 'identical'];
    execFileSync(synth, kind.concat(['--jitter', '0.05', '--jitter-seed', String(k), '--format', 'mstx', '--ranks', '4',
      '--roles', '3', '--steps', '5', '--output', pair]), { stdio: 'ignore' });
    fs.rmSync(prof, { recursive: true, force: true });
    fs.cpSync(path.join(pair, 'current'), prof, { recursive: true });
    run(bin, ['-q', '--input-path', prof, '--history', db, '--run-label', 'nightly:c' + k, '--fail-on-regression', '5%',
      '--vis-type', k === 6 ? 'html,trend' : 'html', '--output-path', path.join(outDir, folders[k - 1])]);
  }
  const trend = path.join(outDir, 'tonight', 'trend.html');

  try {
    const page = await browser.open(trend);

    await check('the page opens with no request and no console error', async () => {
      assert.deepStrictEqual(browser.problems(), []);
    });

    await check('the figure is drawn: a canvas with ink, four panels and six runs', async () => {
      const s = await page.evaluate(() => {
        const t = window.rliTrend, c = t.canvas, ctx = c.getContext('2d');
        const data = ctx.getImageData(0, 0, c.width, c.height).data;
        let ink = 0;
        for (let i = 0; i < data.length; i += 4 * 97) if (data[i] < 200 || data[i + 1] < 200 || data[i + 2] < 200) ink++;
        return { ink, panels: t.panels.length, runs: t.count, width: c.getBoundingClientRect().width };
      });
      assert.ok(s.ink > 200, 'ink ' + s.ink);
      assert.strictEqual(s.panels, 4, 'three roles and the strip');
      assert.strictEqual(s.runs, 6);
      assert.ok(s.width <= 1280 && s.width > 1000, 'fits the window: ' + s.width);
    });

    await check('the table lists the runs newest first, the regressed one marked', async () => {
      const rows = await tableRows(page);
      assert.strictEqual(rows.length, 6);
      assert.strictEqual(rows[0].cells[0], 'this run');
      assert.ok(rows[0].regressed);
      assert.strictEqual(rows[0].cells[3], 'nightly:c6');
      assert.deepStrictEqual(rows.slice(1).map((r) => r.cells[0]), ['#5', '#4', '#3', '#2', '#1']);
    });

    await check('runs whose folder was used again, or is this run\'s, say so instead of a link', async () => {
      const rows = await tableRows(page);
      const byRun = Object.fromEntries(rows.map((r) => [r.cells[0], r]));
      assert.strictEqual(byRun['#3'].href, null);
      assert.match(byRun['#3'].cells[5], /replaced by a later run/);
      assert.ok(byRun['#4'].href && byRun['#4'].href.endsWith('/n3/rl_timeline.html'), byRun['#4'].href);
      for (const id of ['#1', '#2', '#5'])
        assert.ok(byRun[id].href && byRun[id].href.endsWith('/rl_timeline.html'), id + ': ' + byRun[id].href);
    });

    await check('hovering a run shows its numbers and its guide', async () => {
      const box = await page.evaluate(() => {
        const t = window.rliTrend, p = t.panels[0], r = t.canvas.getBoundingClientRect();
        return { x: r.left + p.px(5) * t.scale, y: r.top + (p.spec.plot[1] + p.spec.plot[3] / 2) * t.scale };
      });
      await page.mouse.move(box.x, box.y);
      const tip = await page.evaluate(() => {
        const tip = document.querySelector('.rli-trend-tip');
        return { shown: getComputedStyle(tip).display !== 'none', text: tip.textContent, picked: window.rliTrend.picked };
      });
      assert.ok(tip.shown);
      assert.strictEqual(tip.picked, 5);
      assert.match(tip.text, /^This run/);
      assert.match(tip.text, /actor_update: 16\.5 s .*regression/);
    });

    await check('the page links to the run\'s home page, which lists the trend', async () => {
      assert.strictEqual(await page.getAttribute('.rli-run-nav a', 'href'), 'index.html');
      const home = fs.readFileSync(path.join(outDir, 'tonight', 'index.html'), 'utf8');
      assert.ok(home.includes('href="trend.html"'), 'index.html does not link trend.html');
    });

    await check('a run\'s link opens its own outputs', async () => {
      const rows = await tableRows(page);
      const first = rows.find((r) => r.cells[0] === '#1');
      await Promise.all([page.waitForNavigation(), page.click('.rli-trend-table tbody tr:nth-child(6) a')]);
      assert.strictEqual(page.url(), first.href);
      assert.ok(page.url().endsWith('/n1/rl_timeline.html'), page.url());
      await page.waitForFunction(() => window.rliTimeline !== undefined, null, { timeout: 15000 });
      assert.match(await page.title(), /^RL Timeline/);
      assert.deepStrictEqual(browser.problems(), []);
    });

    await check('clicking a run in the figure opens its outputs too', async () => {
      const back = await browser.open(trend);
      const box = await back.evaluate(() => {
        const t = window.rliTrend, p = t.panels[0], r = t.canvas.getBoundingClientRect();
        return { x: r.left + p.px(1) * t.scale, y: r.top + (p.spec.plot[1] + 10) * t.scale };
      });
      await Promise.all([back.waitForNavigation(), back.mouse.click(box.x, box.y)]);
      assert.ok(back.url().endsWith('/n2/rl_timeline.html'), back.url());
      await back.close();
    });
  } finally {
    await browser.close();
  }
  return failures() ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
