/* gmm_browser_test.js: gmm_heatmap.html in chromium, offline: hover names the cell (step, role, rank, layer, expert, tokens, share, ratio), the filters keep their rows, the wheel zooms, a click draws both profiles, no console error. */
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');

async function main() {
  const [bin, synth, outDir, shot] = process.argv.slice(2);
  const browser = await openBrowser({ viewport: { width: 1280, height: 800 }, ready: 'rliGmm' });
  if (browser === SKIP) return 77;
  const { check, failures } = makeChecks();
  fs.rmSync(outDir, { recursive: true, force: true });
  execFileSync(synth, ['--format', 'gmm', '--ranks', '2', '--roles', '2', '--steps', '2', '--gmm-ops', '3',
    '--experts', '16', '--output', path.join(outDir, 'in')], { stdio: 'ignore' });
  execFileSync(bin, ['-q', '--input-path', path.join(outDir, 'in'), '--vis-type', 'html', '--export', 'csv',
    '--output-path', path.join(outDir, 'out')], { stdio: 'inherit' });
  // The table the page was drawn from: role, rank_id, step, stage, expert_index, load.
  const table = fs.readFileSync(path.join(outDir, 'out', 'gmm_events.csv'), 'utf8').trim().split('\n').slice(1)
    .map((line) => line.split(','));
  try {
    const page = await browser.open(path.join(outDir, 'out', 'gmm_heatmap.html'));
    const box = await page.locator('canvas.rli-gmm-heat').boundingBox();
    await check('every snapshot is a row', async () => {
      assert.strictEqual((await page.evaluate(() => window.rliGmm.visible().length)), 2 * 2 * 2 * 3);
    });
    await check('hover names the cell and its share and ratio, as the table has it', async () => {
      await page.mouse.move(box.x + box.width * 0.5 / 16, box.y + 5);
      const tip = await page.locator('.rli-gmm-tip').textContent();
      const cell = await page.evaluate(() => window.rliGmm.cellAt(5, 5));
      const row = table.find((r) => r[0] === cell.role && +r[1] === cell.rank && +r[2] === cell.step && +r[4] === 0);
      assert.ok(row, 'no table row for ' + JSON.stringify(cell));
      assert.strictEqual(cell.expert, 0);
      assert.strictEqual(cell.load, +row[5]);
      assert.match(tip, new RegExp('step ' + cell.step + ' · ' + cell.role + ' · rank ' + cell.rank + ' · layer0'));
      assert.match(tip, new RegExp('expert 0: ' + row[5] + ' tokens'));
      assert.match(tip, /share of the layer's tokens: \d+\.\d%/);
      assert.match(tip, /ratio to the layer's mean: \d+\.\d\dx/);
    });
    await check('a role filter keeps that role\'s rows only', async () => {
      const role = await page.evaluate(() => window.rliGmm.cellAt(5, 5).role);
      await page.selectOption('select[data-filter="role"]', role);
      const roles = await page.evaluate(() => {
        const spec = JSON.parse(document.getElementById('rli-gmm-spec').textContent);
        return window.rliGmm.visible().map((j) => spec.rows[j].role);
      });
      assert.strictEqual(roles.length, 2 * 2 * 3);
      assert.ok(roles.every((r) => r === role));
      assert.match(await page.locator('.rli-gmm-status').textContent(), /^12 of 24 rows$/);
      await page.selectOption('select[data-filter="role"]', '');
    });
    await check('the wheel zooms in around the pointer, double-click resets', async () => {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -300);
      const zoomed = await page.evaluate(() => window.rliGmm.view());
      assert.ok(zoomed.x1 - zoomed.x0 < 16 && zoomed.y1 - zoomed.y0 < 24, JSON.stringify(zoomed));
      await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
      assert.deepStrictEqual(await page.evaluate(() => window.rliGmm.view()), { x0: 0, x1: 16, y0: 0, y1: 24 });
    });
    await check('a click draws the expert\'s and the layer\'s profiles', async () => {
      await page.mouse.click(box.x + box.width * 3.5 / 16, box.y + 5);
      const captions = await page.locator('.rli-gmm-profiles figcaption').allTextContents();
      assert.strictEqual(captions.length, 2);
      assert.match(captions[0], /^Expert 3 across the 24 rows shown$/);
      assert.match(captions[1], /layer0 across the 16 experts$/);
    });
    await check('the page links to the run\'s home page, which lists the heatmap', async () => {
      const href = await page.getAttribute('.rli-run-nav a', 'href');
      assert.strictEqual(href, 'index.html');
      const home = fs.readFileSync(path.join(outDir, 'out', 'index.html'), 'utf8');
      assert.ok(home.includes('href="gmm_heatmap.html"'), 'index.html does not link gmm_heatmap.html');
    });
    if (shot) await page.screenshot({ path: shot });
    await check('no console error, no request off the file', async () => {
      assert.deepStrictEqual(browser.problems(), []);
    });
  } finally {
    await browser.context.close();
  }
  return failures() ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });
