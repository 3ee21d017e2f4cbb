/* aside_browser_test.js: the timeline's statistics side panel at a laptop's sizes: every role listed, beside the chart, rank links that scroll to their row. */
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');

const ROLES = ['compute_log_prob', 'generate_sequences', 'update_actor'];
const RANKS = 32;
const STEPS = 4;
const STRAGGLER = 29; // slow in every step of update_actor: the outlier and the role's straggler

/*
 * An NVTX capture of RANKS worker files: each step runs the three roles in 10 s
 * slots, 5 s each with a few tens of ms of jitter by rank; rank 29's
 * update_actor takes 8 s.
 */
function nvtxTree(dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (let rank = 0; rank < RANKS; rank++) {
    const lines = ROLES.map((value, i) => JSON.stringify({ id: i + 1, table: 'StringIds', value }));
    lines.push(JSON.stringify({ startTime: 1000000, table: 'ANALYSIS_DETAILS' }));
    lines.push(JSON.stringify({ name: 'ENVIRONMENT_VARIABLE', table: 'META_DATA_CAPTURE', value: 'RANK=' + rank }));
    for (let step = 0; step < STEPS; step++) {
      ROLES.forEach((role, i) => {
        const start = (step * ROLES.length + i) * 10e9;
        const duration = role === 'update_actor' && rank === STRAGGLER ? 8e9 : 5e9 + (rank % 7) * 1e7;
        lines.push(JSON.stringify({ eventType: 60, start, end: start + duration, textId: i + 1 }));
      });
    }
    fs.writeFileSync(path.join(dir, 'worker_process_' + (1000 + rank) + '.1.jsonl'), lines.join('\n') + '\n');
  }
}

/* The panel's and the chart's client rectangles, and what the page says of itself. */
async function geometry(page) {
  return page.evaluate(() => {
    const panel = document.querySelector('.rli-aside');
    const legend = document.querySelector('.rli-legend').getBoundingClientRect();
    const r = panel.getBoundingClientRect();
    return {
      layout: window.rliTimeline.layout(), aside: window.rliTimeline.aside(),
      panel: { left: r.left, right: r.right, top: r.top, bottom: r.bottom, shown: getComputedStyle(panel).display !== 'none' },
      legendRight: legend.width > 0 ? legend.right : 0, windowWidth: window.innerWidth
    };
  });
}

/* The chart (plot, scrollbar, legend) ends left of the open panel. */
function assertBeside(g) {
  assert.ok(g.panel.shown, 'the panel is open');
  assert.ok(g.layout.canvas.right <= g.panel.left + 0.5,
    'the chart (to x ' + g.layout.canvas.right + ') runs under the panel (from x ' + g.panel.left + ')');
  assert.ok(g.legendRight <= g.panel.left + 0.5, 'the legend (to x ' + g.legendRight + ') runs under the panel');
  assert.ok(g.layout.plot.right - g.layout.plot.left >= 400, 'the plot keeps room: ' + (g.layout.plot.right - g.layout.plot.left));
  assert.ok(g.panel.right <= g.windowWidth + 0.5, 'the panel fits the window');
}

async function main() {
  const [bin, outDir] = process.argv.slice(2);
  const browser = await openBrowser({ viewport: { width: 1366, height: 768 } });
  if (browser === SKIP) return 77;
  const { check, failures } = makeChecks();
  fs.rmSync(outDir, { recursive: true, force: true });
  nvtxTree(path.join(outDir, 'in'));
  execFileSync(bin, ['-q', '--input-path', path.join(outDir, 'in'), '--vis-type', 'html',
    '--output-path', path.join(outDir, 'out')], { stdio: 'inherit' });
  try {
    const page = await browser.open(path.join(outDir, 'out', 'rl_timeline.html'));

    await check('1366x768: the panel lists every role, beside the chart', async () => {
      const g = await geometry(page);
      assert.deepStrictEqual(g.aside.headings, ROLES.concat(['Across roles']));
      assertBeside(g);
      const captions = await page.$$eval('.rli-aside caption', (nodes) => nodes.map((n) => n.textContent));
      ROLES.forEach((role) => {
        assert.ok(captions.includes(role + ': phases across ranks'), 'phases of ' + role + ' in ' + captions);
        assert.ok(captions.includes(role + ': steps (step k is each rank\'s k-th bar)'), 'steps of ' + role);
      });
      await page.screenshot({ path: path.join(outDir, 'aside_1366x768.png') });
    });

    await check('the straggler is named, and its rank links to its row', async () => {
      // the slowest ranks table: update_actor's rank 29, slowest and an outlier in every step
      const row = await page.$$eval('.rli-aside tr', (rows) => rows.map((r) => Array.from(r.cells).map((c) => c.textContent))
        .filter((cells) => cells[0] === 'update_actor' && cells[1] === '29')[0]);
      assert.deepStrictEqual(row, ['update_actor', '29', '4 of 4', '4', 'yes']);
      // the findings stand out: update_actor's four outlier steps and the straggler's row
      const findings = await page.$$eval('.rli-aside tr.rli-finding', (rows) => rows.map((r) => r.textContent));
      assert.strictEqual(findings.length, 5, 'rows marked as findings: ' + findings);
    });

    await check('clicking an outlier rank scrolls its row into view and marks it', async () => {
      const label = 'update_actor - Rank ' + STRAGGLER;
      const before = await page.evaluate(() => window.rliTimeline.state());
      const position = before.rows.indexOf(label);
      const g0 = await geometry(page);
      const pitch = g0.layout.rowPitchPx, band = g0.layout.plot.bottom - g0.layout.plot.top;
      assert.ok(position >= 0, label + ' is a row');
      assert.ok((position + 1) * pitch > before.scrollTop + band, 'the row starts out of view (the check would prove nothing)');
      // the first steps row of update_actor: its slowest rank, an outlier
      const link = page.locator('details:has(> summary:text-is("update_actor")) table:has(caption:text-matches("steps")) a.rli-rank-link').first();
      assert.strictEqual(await link.textContent(), String(STRAGGLER));
      await link.click();
      const after = await page.evaluate(() => window.rliTimeline.state());
      const aside = await page.evaluate(() => window.rliTimeline.aside());
      assert.strictEqual(after.rows[after.rows.indexOf(label)], label);
      assert.ok(position * pitch >= after.scrollTop - 0.5 && (position + 1) * pitch <= after.scrollTop + band + 0.5,
        'row ' + position + ' (pitch ' + pitch + ') in view at scroll ' + after.scrollTop + ' of a ' + band + ' px band');
      assert.ok(aside.markedRow >= 0, 'a row is marked');
      const mark = await page.$eval('.rli-row-mark', (m) => {
        const r = m.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, shown: getComputedStyle(m).display !== 'none' };
      });
      const g = await geometry(page);
      assert.ok(mark.shown, 'the mark shows');
      const rowTop = g.layout.plot.top + position * pitch - after.scrollTop;
      assert.ok(Math.abs(mark.top - rowTop) < 1, 'the mark (at y ' + mark.top + ') is on the row (at y ' + rowTop + ')');
      await page.screenshot({ path: path.join(outDir, 'aside_1366x768_clicked.png') });
    });

    await check('a filter hiding the row is cleared by its link', async () => {
      await page.evaluate(() => window.rliTimeline.setFilter('compute_log_prob'));
      const link = page.locator('details:has(> summary:text-is("update_actor")) a.rli-rank-link').first();
      await link.click();
      const state = await page.evaluate(() => window.rliTimeline.state());
      assert.strictEqual(state.filter, '');
      assert.ok(state.rows.includes('update_actor - Rank ' + STRAGGLER));
    });

    await check('the Statistics switch closes the panel and gives the chart its width back', async () => {
      const open = await geometry(page);
      await page.click('button[data-action="statistics"]');
      const closed = await geometry(page);
      assert.ok(!closed.panel.shown, 'closed');
      assert.ok(closed.layout.plot.right > open.layout.plot.right + 200, 'the plot widens: ' + open.layout.plot.right + ' -> ' + closed.layout.plot.right);
      await page.click('button[data-action="statistics"]');
      assertBeside(await geometry(page));
    });

    await check('1920x1080: beside the chart too', async () => {
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.waitForTimeout(100);
      assertBeside(await geometry(page));
      await page.screenshot({ path: path.join(outDir, 'aside_1920x1080.png') });
    });

    await check('offline: nothing asked of the network, no error', async () => {
      assert.deepStrictEqual(browser.problems(), []);
    });
  } finally {
    await browser.close();
  }
  return failures() ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });
