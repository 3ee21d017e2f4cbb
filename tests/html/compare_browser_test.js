/* compare_browser_test.js: compare.html of two generated runs, offline: both timelines drawn on one x range that zooms and pans together, table rows that zoom and scroll both to their phase, sorting by a header, and a summary.json baseline. */
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');

const X_RANGE_PAD = 1.05;  // the layout's room right of the last bar (theme.h)
const PHASE_PAD = 0.02;    // compare.js: room around a phase's bars, a share of their span each side
const CLOSE_MS = 1e-6;

/* rl_events.csv as rows of {name, role, start, end, rank} (no quoted fields in generated runs). */
function readEvents(file) {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  const header = lines.shift().split(',');
  const at = (name) => header.indexOf(name);
  return lines.map((line) => {
    const f = line.split(',');
    return { name: f[at('name')], role: f[at('role')], start: Number(f[at('start_time_ms')]),
      end: Number(f[at('end_time_ms')]), rank: f[at('rank_id')] };
  }).filter((e) => e.end > e.start); // what the timeline draws
}

/* Each run's own t = 0 is its first bar. */
function origin(events) {
  return Math.min(...events.map((e) => e.start));
}

/* The phase's bars (rank null: every rank) from the run's t = 0: [first start, last end]. */
function phaseSpan(events, role, name, rank) {
  const t0 = origin(events);
  const mine = events.filter((e) => e.role === role && e.name === name && (rank === null || e.rank === rank));
  if (!mine.length) return null;
  return [Math.min(...mine.map((e) => e.start)) - t0, Math.max(...mine.map((e) => e.end)) - t0];
}

function assertClose(actual, expected, what) {
  assert.ok(Math.abs(actual - expected) <= CLOSE_MS * Math.max(1, Math.abs(expected)),
    what + ': ' + actual + ', expected ' + expected);
}

function run(bin, args) {
  execFileSync(bin, args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

/* The table as the page shows it: each row's cells, top to bottom. */
async function tableRows(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('.rli-compare-table tbody tr'))
    .map((tr) => Array.from(tr.cells).map((td) => td.textContent)));
}

/* "+17.5%" as 17.5; "—" as null. */
function percent(text) {
  return text === '\u2014' ? null : Number(text.replace('%', ''));
}

async function main() {
  const [bin, synth, outDir] = process.argv.slice(2);
  const browser = await openBrowser({ viewport: { width: 1366, height: 768 }, ready: 'rliCompare' });
  if (browser === SKIP) return 77;
  const { check, failures } = makeChecks();
  fs.rmSync(outDir, { recursive: true, force: true });
  const runA = path.join(outDir, 'A'), runB = path.join(outDir, 'B');
  for (const [seed, dir] of [[1, runA], [2, runB]])
    run(synth, ['--format', 'mstx', '--ranks', '4', '--roles', '3', '--steps', '4', '--seed', String(seed), '--output', dir]);
  const baselineOut = path.join(outDir, 'baseline-out'), out = path.join(outDir, 'out');
  run(bin, ['-q', '--input-path', runA, '--output-path', baselineOut, '--export', 'csv', '--vis-type', 'none']);
  run(bin, ['-q', '--input-path', runB, '--baseline', runA, '--output-path', out, '--export', 'csv', '--vis-type', 'html']);
  const baseline = readEvents(path.join(baselineOut, 'rl_events.csv'));
  const current = readEvents(path.join(out, 'rl_events.csv'));
  const sides = [baseline, current];

  try {
    const page = await browser.open(path.join(out, 'compare.html'));
    const state = () => page.evaluate(() => window.rliCompare.state());

    await check('both timelines draw their bars on one x range from t = 0', async () => {
      const s = await state();
      assert.deepStrictEqual(s.notes, [null, null]);
      s.drawnBars.forEach((n, i) => assert.ok(n > 0, 'run ' + i + ' drew no bar'));
      const far = Math.max(...sides.map((events) => Math.max(...events.map((e) => e.end)) - origin(events)));
      s.ranges.forEach((range, i) => {
        assertClose(range[0], 0, 'run ' + i + ' left');
        assertClose(range[1], far * X_RANGE_PAD, 'run ' + i + ' right');
      });
      await page.screenshot({ path: path.join(outDir, 'compare-1366x768.png') });
    });

    await check('the wheel over one timeline zooms both alike', async () => {
      const before = (await state()).ranges[0];
      const point = await page.evaluate(() => window.rliCompare.runs[0].clientPoint(60000, 0));
      await page.mouse.move(point.x, point.y);
      await page.mouse.wheel(0, -400);
      const s = await state();
      assert.ok(s.ranges[0][1] - s.ranges[0][0] < before[1] - before[0], 'the wheel did not zoom in: ' + JSON.stringify(s.ranges));
      assert.deepStrictEqual(s.ranges[1], s.ranges[0]);
    });

    await check('a box drawn on the other timeline zooms both to it', async () => {
      const [a, b] = await page.evaluate(() => {
        const t = window.rliCompare.runs[1], l = t.left, r = t.right;
        return [t.clientPoint(l + (r - l) * 0.25, 0), t.clientPoint(l + (r - l) * 0.5, 0)];
      });
      const before = (await state()).ranges[1];
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move(b.x, b.y, { steps: 4 });
      await page.mouse.up();
      const s = await state();
      const span = before[1] - before[0];
      // the box's ends, a pixel's worth of rounding either way
      assert.ok(Math.abs(s.ranges[1][0] - (before[0] + span * 0.25)) < span / 500, 'left ' + s.ranges[1][0]);
      assert.ok(Math.abs(s.ranges[1][1] - (before[0] + span * 0.5)) < span / 500, 'right ' + s.ranges[1][1]);
      assert.deepStrictEqual(s.ranges[0], s.ranges[1]);
    });

    await check('panning one timeline pans both', async () => {
      await page.click('section[data-run="baseline"] button[data-action="mode-pan"]');
      const point = await page.evaluate(() => {
        const t = window.rliCompare.runs[0];
        return t.clientPoint((t.left + t.right) / 2, 0);
      });
      const before = (await state()).ranges[0];
      await page.mouse.move(point.x, point.y);
      await page.mouse.down();
      await page.mouse.move(point.x - 100, point.y, { steps: 4 });
      await page.mouse.up();
      await page.click('section[data-run="baseline"] button[data-action="mode-zoom"]');
      const s = await state();
      assert.ok(s.ranges[0][0] > before[0], 'the drag did not pan: ' + JSON.stringify(s.ranges));
      assertClose(s.ranges[0][1] - s.ranges[0][0], before[1] - before[0], 'the panned span');
      assert.deepStrictEqual(s.ranges[1], s.ranges[0]);
    });

    await check('Reset on either resets both', async () => {
      const first = (await page.evaluate(() => window.rliCompare.runs[0].model.xMax));
      await page.click('section[data-run="current"] button[data-action="reset"]');
      const s = await state();
      s.ranges.forEach((range) => {
        assertClose(range[0], 0, 'left after Reset');
        assertClose(range[1], first, 'right after Reset');
      });
    });

    const rows = await tableRows(page);
    // role and phase of the first row; its rank 2 row, and its row over every rank
    const role = rows[0][0], phase = rows[0][1];
    for (const rank of ['2', null]) {
      await check('the row of ' + phase + ' on ' + (rank === null ? 'every rank' : 'rank ' + rank) +
                  ' zooms both timelines to its bars and scrolls to its rows', async () => {
        const index = (await tableRows(page)).findIndex((cells) => cells[0] === role && cells[1] === phase &&
                                                                  cells[2] === (rank === null ? 'all' : rank));
        assert.ok(index >= 0, 'no table row for ' + role + ' ' + phase + ' ' + rank);
        // each timeline scrolled so the phase's first row is out of view: the row must bring it back
        await page.evaluate(([r, k]) => {
          const positions = window.rliCompare.rowsOf(r, k);
          window.rliCompare.runs.forEach((t, i) => {
            const g = t.screen, first = positions[i][0];
            t.setScroll((first + 1) * g.pitch <= g.plot[3] ? 1e9 : 0, false);
            const visible = window.rliCompare.visibleRows(i);
            if (first >= visible[0] && first <= visible[1]) throw new Error('row ' + first + ' cannot be scrolled away');
          });
        }, [role, rank]);
        await page.click('.rli-compare-table tbody tr:nth-child(' + (index + 1) + ')');
        const spans = sides.map((events) => phaseSpan(events, role, phase, rank)).filter(Boolean);
        const lo = Math.min(...spans.map((s) => s[0])), hi = Math.max(...spans.map((s) => s[1]));
        const pad = (hi - lo) * PHASE_PAD;
        const s = await state();
        /* zoom stays within the axis: a padded span reaching before its start is moved along, not cut */
        const axis = await page.evaluate(() => [window.rliCompare.runs[0].model.xMin, window.rliCompare.runs[0].model.xMax]);
        let want = [lo - pad, hi + pad];
        if (want[0] < axis[0]) want = [axis[0], axis[0] + (want[1] - want[0])];
        if (want[1] > axis[1]) want = [axis[1] - (want[1] - want[0]), axis[1]];
        s.ranges.forEach((range, i) => {
          assertClose(range[0], want[0], 'run ' + i + ' left');
          assertClose(range[1], want[1], 'run ' + i + ' right');
        });
        const positions = await page.evaluate(([r, k]) => window.rliCompare.rowsOf(r, k), [role, rank]);
        for (let i = 0; i < 2; i++) {
          const visible = await page.evaluate((n) => window.rliCompare.visibleRows(n), i);
          assert.ok(positions[i].length > 0, 'run ' + i + ' has no row of ' + role);
          // the first of the phase's rows is in view; a single rank's row is
          assert.ok(positions[i][0] >= visible[0] && positions[i][0] <= visible[1],
            'run ' + i + ': row ' + positions[i][0] + ' not in view ' + JSON.stringify(visible));
        }
      });
    }

    await check('a header sorts the rows by its column, a second click the other way', async () => {
      const header = await page.$$('.rli-compare-table thead th');
      const ratioColumn = 6;
      await header[ratioColumn].click();
      let ratios = (await tableRows(page)).map((cells) => percent(cells[ratioColumn])).filter((v) => v !== null);
      assert.deepStrictEqual(ratios, ratios.slice().sort((a, b) => a - b));
      await header[ratioColumn].click();
      ratios = (await tableRows(page)).map((cells) => percent(cells[ratioColumn])).filter((v) => v !== null);
      assert.deepStrictEqual(ratios, ratios.slice().sort((a, b) => b - a));
      await header[0].click();
      const roles = (await tableRows(page)).map((cells) => cells[0]);
      assert.deepStrictEqual(roles, roles.slice().sort());
      assert.ok(rows.length >= 3 * 5, 'a row per phase over all ranks and per rank: ' + rows.length);
    });

    await check('regressions come first and in the regression colour', async () => {
      const verdicts = rows.map((cells) => cells[8]);
      const firstOther = verdicts.findIndex((v) => v !== 'regression');
      assert.ok(verdicts.slice(firstOther < 0 ? verdicts.length : firstOther).every((v) => v !== 'regression'),
        'a regression after another verdict: ' + verdicts.join(', '));
      const colors = await page.evaluate(() => Array.from(document.querySelectorAll('.rli-compare-table tbody tr'))
        .filter((tr) => tr.cells[8].textContent === 'regression').map((tr) => getComputedStyle(tr.cells[8]).color));
      colors.forEach((c) => assert.strictEqual(c, 'rgb(198, 40, 40)')); // REGRESSION_COLOR, theme.h
    });

    await check('the page asked for nothing outside its file', async () => {
      assert.deepStrictEqual(browser.problems(), []);
    });

    await check('runs with row labels of other widths still show a time at one x in both', async () => {
      const wide = path.join(outDir, 'C'), wideOut = path.join(outDir, 'wide-out');
      run(synth, ['--format', 'mstx', '--ranks', '12', '--roles', '4', '--steps', '4', '--seed', '3', '--output', wide]);
      run(bin, ['-q', '--input-path', wide, '--baseline', runA, '--output-path', wideOut, '--vis-type', 'html']);
      const other = await browser.open(path.join(wideOut, 'compare.html'));
      const xs = await other.evaluate(() => window.rliCompare.runs.map((t) => {
        const g = t.screen;
        return [t.clientPoint(t.left, 0).x, t.clientPoint(t.right, 0).x, g.plot[0]];
      }));
      assert.ok(Math.abs(xs[0][0] - xs[1][0]) < 0.5 && Math.abs(xs[0][1] - xs[1][1]) < 0.5,
        'the plots do not line up: ' + JSON.stringify(xs));
      assert.deepStrictEqual(browser.problems(), []);
    });

    await check('with a summary.json baseline the baseline panel says why it has no bars, the table stays', async () => {
      const summaryOut = path.join(outDir, 'summary-out');
      run(bin, ['-q', '--input-path', runB, '--baseline', path.join(baselineOut, 'summary.json'),
        '--output-path', summaryOut, '--vis-type', 'html']);
      const other = await browser.open(path.join(summaryOut, 'compare.html'));
      const s = await other.evaluate(() => window.rliCompare.state());
      assert.strictEqual(s.notes[0], 'the baseline is a summary.json: statistics only, no bars to draw');
      assert.strictEqual(await other.textContent('.rli-compare-note'), s.notes[0]);
      assert.ok(s.drawnBars[1] > 0, 'the current run drew no bar');
      assert.strictEqual((await tableRows(other)).length, rows.length);
      const top = (await tableRows(other))[0];
      await other.click('.rli-compare-table tbody tr:nth-child(1)');
      const span = phaseSpan(current, top[0], top[1], top[2] === 'all' ? null : top[2]);
      const pad = (span[1] - span[0]) * PHASE_PAD;
      const after = (await other.evaluate(() => window.rliCompare.state())).ranges[1];
      const axis = await other.evaluate(() => [window.rliCompare.runs[1].model.xMin, window.rliCompare.runs[1].model.xMax]);
      let want = [span[0] - pad, span[1] + pad];
      if (want[0] < axis[0]) want = [axis[0], axis[0] + (want[1] - want[0])];
      if (want[1] > axis[1]) want = [axis[1] - (want[1] - want[0]), axis[1]];
      assertClose(after[0], want[0], 'left');
      assertClose(after[1], want[1], 'right');
      assert.deepStrictEqual(browser.problems(), []);
    });
  } catch (error) {
    console.error('FAIL: ' + (error.stack || error));
    return 1;
  } finally {
    await browser.close();
  }
  return failures() ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });
