/* compare_browser_test.js: compare.html of two generated runs, offline, at 1280x800 and 1920x1080: both timelines on one x range, their rows scrolled, filtered, ordered and selected together, table rows that zoom both to their phase's step and outline it, sorting, a summary.json baseline, the keyboard, and the memory side of a memory-growth pair. */
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { execFileSync } = require('child_process');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');
const { tabWalk, canvasLabels } = require('./focus_common');

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

/* Step k of a phase on a run: the k-th bar (time order) of the phase on each of its ranks (rank null: all). */
function phaseSteps(events, role, name, rank) {
  const byRank = new Map();
  events.filter((e) => e.role === role && e.name === name && (rank === null || e.rank === rank)).forEach((e) => {
    if (!byRank.has(e.rank)) byRank.set(e.rank, []);
    byRank.get(e.rank).push(e);
  });
  const steps = [];
  byRank.forEach((list) => {
    list.sort((a, b) => a.start - b.start);
    list.forEach((e, k) => { (steps[k] = steps[k] || []).push(e); });
  });
  return steps;
}

function median(values) {
  const v = values.slice().sort((a, b) => a - b), n = v.length;
  return n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The step a table row zooms to: where the phase's median changed most (in the verdict's
 * direction), the first when one run lacks the bars; and [lo, hi] of that step's bars on both
 * runs, each from its own t = 0.
 */
function stepSpan(sides, role, name, rank, verdict) {
  const steps = sides.map((events) => (events ? phaseSteps(events, role, name, rank) : []));
  let best = 1;
  if (steps.every((s) => s.length)) {
    let score = -Infinity;
    for (let k = 0; k < Math.min(steps[0].length, steps[1].length); k++) {
      const delta = median(steps[1][k].map((e) => e.end - e.start)) - median(steps[0][k].map((e) => e.end - e.start));
      const sc = verdict === 'regression' ? delta : verdict === 'improvement' ? -delta : Math.abs(delta);
      if (sc > score) { score = sc; best = k + 1; }
    }
  }
  let lo = Infinity, hi = -Infinity;
  sides.forEach((events, i) => {
    if (!events || !steps[i][best - 1]) return;
    const t0 = origin(events);
    steps[i][best - 1].forEach((e) => { lo = Math.min(lo, e.start - t0); hi = Math.max(hi, e.end - t0); });
  });
  return { step: best, span: [lo, hi] };
}

/* [lo, hi] padded as compare.js pads a phase, then kept within the axis as zoom keeps a range. */
function padded(span, axis) {
  const pad = Math.max(span[1] - span[0], 1e-3) * PHASE_PAD;
  let want = [span[0] - pad, span[1] + pad];
  if (want[1] - want[0] >= axis[1] - axis[0]) return axis;
  if (want[0] < axis[0]) want = [axis[0], axis[0] + (want[1] - want[0])];
  if (want[1] > axis[1]) want = [axis[1] - (want[1] - want[0]), axis[1]];
  return want;
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

/* What both sides of the page show at one window size: rows in view, scrolled, filtered, ordered and selected together, a phase's step, the keyboard. */
async function sizeChecks(browser, check, out, sides, tag) {
  const page = await browser.open(path.join(out, 'compare.html'));
  const state = () => page.evaluate(() => window.rliCompare.state());
  const visible = (n) => page.evaluate((i) => window.rliCompare.visibleRows(i), n);

  await check(tag + ': each side shows more than 5 of its 16 rows, both in the window', async () => {
    const s = await state();
    assert.strictEqual(s.shownRows[0].length, 16);
    for (let n = 0; n < 2; n++) {
      const v = await visible(n);
      assert.ok(v[1] - v[0] + 1 > 5, 'run ' + n + ' shows rows ' + JSON.stringify(v));
    }
    const bottom = await page.evaluate(() => window.rliCompare.runs[1].stage.getBoundingClientRect().bottom);
    assert.ok(bottom <= (await page.evaluate(() => window.innerHeight)), 'the second chart ends below the window: ' + bottom);
    await page.screenshot({ path: path.join(out, 'compare-' + tag + '.png') });
  });

  await check(tag + ': scrolling one side\'s rows scrolls the other to the same row', async () => {
    const point = await page.evaluate(() => {
      const t = window.rliCompare.runs[0], r = t.canvas.getBoundingClientRect(), g = t.screen;
      return { x: r.left + g.plot[0] / 2, y: r.top + g.plot[1] + g.plot[3] / 2 };
    });
    await page.mouse.move(point.x, point.y);
    await page.mouse.wheel(0, 120);
    await page.waitForTimeout(100);
    let s = await state();
    assert.ok(s.scroll[0] > 0, 'the wheel over the labels did not scroll: ' + JSON.stringify(s.scroll));
    assert.deepStrictEqual((await visible(1)), (await visible(0)));
    /* and the other way: the current run's scrollbar */
    await page.evaluate(() => { const t = window.rliCompare.runs[1]; t.scroller.scrollTop = 0; });
    await page.waitForTimeout(100);
    s = await state();
    assert.deepStrictEqual(s.scroll, [0, 0]);
  });

  await check(tag + ': one filter box filters both sides; "rank 1" leaves rank 1\'s rows on each', async () => {
    assert.strictEqual(await page.locator('input.rli-filter:visible').count(), 1, 'one filter box in view');
    await page.fill('input.rli-filter:visible', 'rank 1');
    let s = await state();
    assert.deepStrictEqual(s.filters, ['rank 1', 'rank 1']);
    s.shownRows.forEach((rows) => {
      assert.strictEqual(rows.length, 4);
      rows.forEach((label) => assert.match(label, / - Rank 1$/));
    });
    await page.fill('input.rli-filter:visible', '');
    s = await state();
    assert.deepStrictEqual(s.shownRows.map((r) => r.length), [16, 16]);
  });

  await check(tag + ': the row order applies to both sides', async () => {
    await page.click('button[data-action="order"]:visible');
    let s = await state();
    assert.deepStrictEqual(s.orders, ['role', 'role']);
    assert.deepStrictEqual(s.shownRows[1], s.shownRows[0]);
    await page.click('button[data-action="order"]:visible');
    s = await state();
    assert.deepStrictEqual(s.orders, ['rank', 'rank']);
  });

  await check(tag + ': a bar clicked on one side selects the same role, rank, phase and step on the other; Escape clears both', async () => {
    const key = { role: 'actor_update', rank: '1', phase: 'actor_update', step: 2 };
    const point = await page.evaluate((k) => window.rliCompare.barPoint(0, k), key);
    await page.mouse.click(point.x, point.y);
    let s = await state();
    assert.deepStrictEqual(s.selected, [key, key]);
    s.details.forEach((text, i) => assert.ok(text && text.includes('actor_update - Rank 1') && /Step\s+2/.test(text),
      'run ' + i + ' details: ' + text));
    /* each card tells the same bar's length in the other run */
    const lengths = sides.map((events) => {
      const bar = phaseSteps(events, key.role, key.phase, key.rank)[key.step - 1][0];
      return bar.end - bar.start;
    });
    const percent = Math.abs(lengths[1] / lengths[0] - 1) * 100, sign = lengths[1] >= lengths[0] ? '+' : '\u2212';
    assert.ok(s.details[0].includes('In the current run\t' + (lengths[1] / 1000).toFixed(3) + ' s (' + sign + percent.toFixed(1) + '%)'),
      s.details[0] + ' vs ' + percent);
    assert.ok(s.details[1].includes('In the baseline\t' + (lengths[0] / 1000).toFixed(3) + ' s (this run ' + sign + percent.toFixed(1) + '%)'),
      s.details[1]);
    await page.keyboard.press('Escape');
    s = await state();
    assert.deepStrictEqual(s.selected, [null, null]);
    assert.deepStrictEqual(s.details, [null, null]);
    /* from the other side, through its card's x */
    const other = await page.evaluate((k) => window.rliCompare.barPoint(1, k), key);
    await page.mouse.click(other.x, other.y);
    assert.deepStrictEqual((await state()).selected, [key, key]);
    await page.click('section[data-run="current"] .rli-details-close');
    assert.deepStrictEqual((await state()).selected, [null, null]);
  });

  await check(tag + ': a regression row zooms both sides to the phase\'s step and outlines its bars on both', async () => {
    const rows = await tableRows(page);
    let index = rows.findIndex((cells) => cells[8] === 'regression');
    if (index < 0) index = 0;
    const cells = rows[index];
    await page.click('.rli-compare-table tbody tr:nth-child(' + (index + 1) + ')');
    const want = stepSpan(sides, cells[0], cells[1], cells[2] === 'all' ? null : cells[2], cells[8]);
    const s = await state();
    const axis = await page.evaluate(() => [window.rliCompare.runs[0].model.xMin, window.rliCompare.runs[0].model.xMax]);
    const range = padded(want.span, axis);
    assert.strictEqual(s.picked.step, want.step);
    s.ranges.forEach((r, i) => {
      assertClose(r[0], range[0], 'run ' + i + ' left');
      assertClose(r[1], range[1], 'run ' + i + ' right');
    });
    s.highlighted.forEach((n, i) => assert.ok(n >= 1, 'run ' + i + ' outlines no bar'));
    assert.match(s.status, new RegExp('step ' + want.step));
    /* Escape on the focused row: the outlines go, the zoom stays */
    await page.keyboard.press('Escape');
    const after = await state();
    assert.deepStrictEqual(after.highlighted, [0, 0]);
    assert.strictEqual(after.picked, null);
    assert.deepStrictEqual(after.ranges, s.ranges);
    await page.click('button[data-action="reset"]:visible');
  });

  await check(tag + ': the shared view is in the URL: a reload brings back the range, filter and selection of both sides; Back undoes a phase row', async () => {
    const key = { role: 'actor_update', rank: '1', phase: 'actor_update', step: 2 };
    await page.fill('input.rli-filter:visible', 'rank 1');
    const point = await page.evaluate((k) => window.rliCompare.barPoint(0, k), key);
    await page.mouse.click(point.x, point.y);
    /* a phase hidden (on the baseline: the current run follows by name) */
    const hiddenNames = () => page.evaluate(() => window.rliCompare.runs.map((t) =>
      t.model.series.filter((s, i) => t.hidden[i]).map((s) => s.name)));
    await page.evaluate(() => {
      const t = window.rliCompare.runs[0];
      t.toggleSeries(t.model.series.findIndex((s) => s.name === 'ref_compute_log_prob'));
    });
    assert.deepStrictEqual(await hiddenNames(), [['ref_compute_log_prob'], ['ref_compute_log_prob']]);
    /* zoomed and panned by keys: a range no round number, to be kept to the nanosecond */
    await page.focus('section[data-run="baseline"] .rli-stage canvas');
    for (const k of ['+', '+', '+', 'ArrowRight', '+']) await page.keyboard.press(k);
    const before = await state();
    assert.deepStrictEqual(before.selected, [key, key], 'selected before the reload');
    assert.ok(before.ranges[0][0] > 0 && !Number.isInteger(before.ranges[0][0] * 1e3), 'zoomed: ' + before.ranges[0]);
    /* the view as the URL holds it once it settles (the hook writes it now) */
    const hash = await page.evaluate(() => (window.rliCompare.flushUrl ? window.rliCompare.flushUrl() : location.hash));
    await page.reload();
    await page.waitForFunction(() => window.rliCompare);
    const after = await state();
    after.ranges.forEach((r, i) => [0, 1].forEach((j) => assert.ok(Math.abs(r[j] - before.ranges[i][j]) <= 5e-7,
      'run ' + i + ' range ' + r + ' vs ' + before.ranges[i])));
    assert.deepStrictEqual(after.filters, ['rank 1', 'rank 1']);
    assert.deepStrictEqual(after.shownRows, before.shownRows);
    assert.deepStrictEqual(after.selected, [key, key], 'selected after the reload');
    assert.deepStrictEqual(await hiddenNames(), [['ref_compute_log_prob'], ['ref_compute_log_prob']], 'hidden after the reload');
    after.details.forEach((text, i) => assert.ok(text && /Step\s+2/.test(text), 'run ' + i + ' details after reload: ' + text));
    assert.strictEqual(await page.evaluate(() => location.hash), hash);
    assert.match(hash, /range=.*filter=rank%201.*sel=actor_update,1,actor_update,2/);
    /* a phase row is a step of its own: Back gives the view before it, Forward it again */
    const rows = await tableRows(page);
    let index = rows.findIndex((cells) => cells[8] === 'regression');
    if (index < 0) index = 0;
    await page.click('.rli-compare-table tbody tr:nth-child(' + (index + 1) + ')');
    const picked = await state();
    assert.ok(picked.picked, 'the row picked nothing');
    assert.notDeepStrictEqual(picked.ranges, after.ranges);
    await page.evaluate(() => history.back());
    await page.waitForFunction((h) => location.hash === h, hash);
    await page.waitForTimeout(100);
    const back = await state();
    back.ranges.forEach((r, i) => [0, 1].forEach((j) => assert.ok(Math.abs(r[j] - before.ranges[i][j]) <= 5e-7,
      'run ' + i + ' range after Back ' + r + ' vs ' + before.ranges[i])));
    assert.strictEqual(back.picked, null);
    assert.deepStrictEqual(back.highlighted, [0, 0]);
    assert.deepStrictEqual(back.selected, [key, key], 'selected after Back');
    await page.evaluate(() => history.forward());
    await page.waitForFunction((h) => location.hash !== h, hash);
    await page.waitForTimeout(100);
    const forward = await state();
    assert.ok(forward.picked && forward.picked.index === picked.picked.index, 'Forward: ' + JSON.stringify(forward.picked));
    forward.ranges.forEach((r, i) => [0, 1].forEach((j) => assert.ok(Math.abs(r[j] - picked.ranges[i][j]) <= 5e-7,
      'run ' + i + ' range after Forward ' + r + ' vs ' + picked.ranges[i])));
    await page.screenshot({ path: path.join(out, 'compare-url-' + tag + '.png') });
    /* back to the page as it opens, for the checks after */
    await page.goto(pathToFileURL(path.join(out, 'compare.html')).href);
    await page.waitForFunction(() => window.rliCompare);
    const bare = await state();
    assert.deepStrictEqual(bare.filters, ['', '']);
    assert.deepStrictEqual(bare.selected, [null, null]);
    assert.deepStrictEqual(await hiddenNames(), [[], []]);
  });

  await check(tag + ': the row order and the row at the top are in the URL too: a reload keeps both on both sides', async () => {
    const view = () => page.evaluate(() => window.rliCompare.runs.map((t) => {
      const g = t.screen, top = Math.round(t.scrollY / g.pitch), row = t.displayRows[top];
      return { order: t.order, top, maxScroll: g.maxScroll, at: row >= 0 ? t.model.rows[row].label : null };
    }));
    await page.evaluate(() => window.rliCompare.runs[0].setOrder('role'));
    const scrollable = (await view())[0].maxScroll > 0;
    if (scrollable) {
      await page.evaluate(() => { const t = window.rliCompare.runs[0]; t.setScroll(3 * t.screen.pitch, false); });
    }
    const before = await view();
    assert.deepStrictEqual(before.map((v) => v.order), ['role', 'role'], 'the other side follows the order');
    if (scrollable) {
      assert.strictEqual(before[0].top, 3);
      assert.strictEqual(before[1].at, before[0].at, 'the other side shows the same row at its top');
    }
    const hash = await page.evaluate(() => (window.rliCompare.flushUrl ? window.rliCompare.flushUrl() : location.hash));
    assert.match(hash, scrollable ? /order=role.*top=3/ : /order=role/);
    await page.reload();
    await page.waitForFunction(() => window.rliCompare);
    const after = await view();
    assert.deepStrictEqual(after.map((v) => v.order), ['role', 'role'], 'the order after the reload');
    if (scrollable) assert.deepStrictEqual(after.map((v) => v.at), before.map((v) => v.at), 'the top rows after the reload');
    await page.goto(pathToFileURL(path.join(out, 'compare.html')).href);
    await page.waitForFunction(() => window.rliCompare);
    assert.deepStrictEqual((await view()).map((v) => v.order), ['rank', 'rank'], 'the bare page opens in rank order');
  });

  await check(tag + ': Tab reaches every control with a visible focus; keys act where the focus is; the charts are labelled', async () => {
    const walk = await tabWalk(page, 200);
    assert.deepStrictEqual(walk.missed, [], 'not reached by Tab');
    assert.deepStrictEqual(walk.unmarked, [], 'focused without a visible mark');
    (await canvasLabels(page)).forEach((l) => assert.deepStrictEqual(l, ['img', true]));
    await page.evaluate(() => window.rliCompare.runs[0].zoomTo(100000, 200000));
    await page.focus('button[data-action="reset"]:visible');
    await page.keyboard.press('ArrowRight');
    let s = await state();
    assert.deepStrictEqual(s.ranges[0], [100000, 200000], 'ArrowRight on a button panned');
    /* the current run's chart pans both */
    await page.focus('section[data-run="current"] .rli-stage canvas');
    await page.keyboard.press('ArrowRight');
    s = await state();
    assert.deepStrictEqual(s.ranges, [[110000, 210000], [110000, 210000]]);
    await page.click('button[data-action="reset"]:visible');
  });
  await page.close();
}

/* pair.txt's lines as a map: key=value. */
function readPair(dir) {
  const facts = new Map();
  fs.readFileSync(path.join(dir, 'pair.txt'), 'utf8').trim().split('\n').forEach((line) => {
    const at = line.indexOf('=');
    facts.set(line.slice(0, at), line.slice(at + 1));
  });
  return facts;
}

/* "878.00 MB": a size in MB as the page writes it, in the unit given (MB). */
function mbText(mb) {
  return mb.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',') + ' MB';
}

/* A memory-growth pair (memory records only): compare.html exists, with each device's peaks and the grown call site, as tables and a figure. */
async function memoryChecks(browser, check, bin, synth, outDir, tag) {
  const pair = path.join(outDir, 'memory-pair'), out = path.join(outDir, 'memory-out');
  if (!fs.existsSync(path.join(pair, 'pair.txt')))
    run(synth, ['--pair', 'memory-growth', '--format', 'memory', '--ranks', '2', '--roles', '2', '--output', pair]);
  fs.rmSync(out, { recursive: true, force: true });
  run(bin, ['-q', '--input-path', path.join(pair, 'current'), '--baseline', path.join(pair, 'baseline'),
    '--output-path', out, '--vis-type', 'html']);
  const facts = readPair(pair);
  const comparison = JSON.parse(fs.readFileSync(path.join(out, 'summary.json'), 'utf8')).comparison;

  await check(tag + ': a memory-growth pair has compare.html: each device\'s peak in both runs, the grown call site first, a figure of them', async () => {
    assert.ok(fs.existsSync(path.join(out, 'compare.html')), 'no compare.html for a comparison of memory records');
    const page = await browser.open(path.join(out, 'compare.html'));
    const tables = await page.evaluate(() => Array.from(document.querySelectorAll('.rli-compare-memory table')).map((t) => ({
      caption: t.caption.textContent,
      head: Array.from(t.tHead.rows[0].cells).map((c) => c.textContent),
      rows: Array.from(t.tBodies[0].rows).map((r) => Array.from(r.cells).map((c) => c.textContent)) })));
    assert.strictEqual(tables.length, 2, 'a table of devices and one of call sites');
    const [devices, sites] = tables;
    assert.deepStrictEqual(devices.head.slice(0, 4), ['Device', 'Peak (baseline)', 'Peak', 'Change']);
    assert.strictEqual(devices.rows.length, comparison.memory.length);
    comparison.memory.forEach((d) => {
      const label = d.role + ' rank ' + d.rank + ' ' + d.device_type;
      const row = devices.rows.find((cells) => cells[0] === label);
      assert.ok(row, 'no row for ' + label);
      /* the page writes a column in one unit: GB here, as the peaks are above 10 GB */
      assert.strictEqual(row[1], (d.baseline_peak_mb / 1024).toFixed(2) + ' GB', label + ' baseline peak');
      assert.strictEqual(row[2], (d.current_peak_mb / 1024).toFixed(2) + ' GB', label + ' peak');
      assert.strictEqual(row[3], '+' + mbText(d.current_peak_mb - d.baseline_peak_mb), label + ' change');
    });
    /* the planted site grew by growth_kb per allocation on each device: those rows first, each with its growth */
    const site = facts.get('site');
    const planted = Array.from(facts.keys()).filter((k) => k.startsWith('growth_kb.'));
    assert.strictEqual(planted.length, comparison.memory.length);
    planted.forEach((k, i) => {
      const [, role, rank, type] = /^growth_kb\.(.+)\.(\d+)\.([^.]+(?:\.[^.]+)*)$/.exec(k);
      const row = sites.rows.slice(0, planted.length).find((cells) => cells[0] === role + ' rank ' + rank + ' ' + type);
      assert.ok(row, 'the grown site of ' + k + ' is not among the first rows: ' + JSON.stringify(sites.rows.slice(0, 6)));
      assert.strictEqual(row[1], site);
      assert.strictEqual(row[6], '+' + mbText(Number(facts.get(k)) / 1024));
      void i;
    });
    const figure = await page.evaluate(() => {
      const m = window.rliCompare.memory;
      return { drawn: m.drawn, labels: Array.from(document.querySelectorAll('.rli-compare-memory canvas')).map((c) =>
        [c.getAttribute('role'), c.getAttribute('aria-label'), c.width > 0 && c.height > 0]) };
    });
    assert.strictEqual(figure.drawn.peaks.lanes, comparison.memory.length);
    assert.strictEqual(figure.drawn.sites.lanes, sites.rows.length);
    figure.labels.forEach((l) => {
      assert.strictEqual(l[0], 'img');
      assert.ok(l[1] && l[1].length > 20, 'a chart without a label: ' + l[1]);
      assert.ok(l[2]);
    });
    /* the most grown site is drawn: its bar's colour (the regression colour) at the middle of its lane */
    const pixel = await page.evaluate(() => {
      const c = document.querySelectorAll('.rli-compare-memory canvas')[1], r = window.devicePixelRatio || 1;
      const x = Math.round(c.width * 0.5), y = Math.round((22 + 17) * r);
      return Array.from(c.getContext('2d').getImageData(x, y, 1, 1).data);
    });
    assert.deepStrictEqual(pixel, [198, 40, 40, 255]);
    assert.strictEqual(await page.locator('.rli-compare-run').count(), 0, 'a memory-only comparison has no timeline panels');
    const walk = await tabWalk(page, 100);
    assert.deepStrictEqual(walk.missed, []);
    assert.deepStrictEqual(walk.unmarked, []);
    await page.screenshot({ path: path.join(outDir, 'compare-memory-' + tag + '.png'), fullPage: true });
    await page.close();
  });

  await check(tag + ': the memory figure reads out a lane on hover and by Up and Down: its table row, every column named, the call site whole', async () => {
    const page = await browser.open(path.join(out, 'compare.html'));
    const tables = await page.evaluate(() => Array.from(document.querySelectorAll('.rli-compare-memory table')).map((t) =>
      Array.from(t.tBodies[0].rows).map((r) => Array.from(r.cells).map((c) => c.textContent))));
    const canvases = page.locator('.rli-compare-memory canvas');
    const tip = (n) => page.evaluate((i) => {
      const t = document.querySelectorAll('.rli-compare-memory .rli-tooltip')[i];
      return t.style.display === 'block' ? Array.from(t.querySelectorAll('.rli-entry')).map((e) => e.textContent) : null;
    }, n);
    const lanePoint = async (n, lane) => {
      const box = await canvases.nth(n).boundingBox();
      const g = await page.evaluate((i) => window.rliCompare.memory.geometry[i ? 'sites' : 'peaks'], n);
      return { x: box.x + box.width * 0.5, y: box.y + g.top + (lane + 0.5) * g.lanePx };
    };
    /* the call sites' first lane: the table's first row, the site's text whole (the figure shortens it) */
    let p = await lanePoint(1, 0);
    await page.mouse.move(p.x, p.y);
    const siteLines = await tip(1);
    assert.ok(siteLines, 'no tooltip over the first call site');
    assert.strictEqual(siteLines[0], tables[1][0][0]);
    assert.strictEqual(siteLines[1], 'Call site (first frame): ' + tables[1][0][1]);
    assert.strictEqual(siteLines[6], 'Change: ' + tables[1][0][6]);
    /* a device's lane: both peaks and the change */
    p = await lanePoint(0, 0);
    await page.mouse.move(p.x, p.y);
    const deviceLines = await tip(0);
    assert.ok(deviceLines, 'no tooltip over the first device');
    assert.deepStrictEqual(deviceLines.slice(0, 4), [tables[0][0][0], 'Peak (baseline): ' + tables[0][0][1], 'Peak: ' + tables[0][0][2],
      'Change: ' + tables[0][0][3]]);
    assert.strictEqual(await tip(1), null, 'the sites\' tooltip went away with the pointer');
    await page.mouse.move(0, 0);
    assert.strictEqual(await tip(0), null, 'off the figure, no tooltip');
    /* the keyboard: Down to the first lane, then the next, Escape away */
    await canvases.nth(0).focus();
    await page.keyboard.press('ArrowDown');
    assert.strictEqual((await tip(0))[0], tables[0][0][0]);
    if (tables[0].length > 1) {
      await page.keyboard.press('ArrowDown');
      assert.strictEqual((await tip(0))[0], tables[0][1][0]);
    }
    await page.keyboard.press('Escape');
    assert.strictEqual(await tip(0), null);
    await page.close();
  });
}

async function main() {
  const [bin, synth, outDir] = process.argv.slice(2);
  const { check, failures } = makeChecks();
  fs.rmSync(outDir, { recursive: true, force: true });
  const runA = path.join(outDir, 'A'), runB = path.join(outDir, 'B');
  for (const [seed, dir] of [[1, runA], [2, runB]])
    run(synth, ['--format', 'mstx', '--ranks', '4', '--roles', '4', '--steps', '4', '--seed', String(seed), '--output', dir]);
  const baselineOut = path.join(outDir, 'baseline-out'), out = path.join(outDir, 'out');
  run(bin, ['-q', '--input-path', runA, '--output-path', baselineOut, '--export', 'csv', '--vis-type', 'none']);
  run(bin, ['-q', '--input-path', runB, '--baseline', runA, '--output-path', out, '--export', 'csv', '--vis-type', 'html']);
  const baseline = readEvents(path.join(baselineOut, 'rl_events.csv'));
  const current = readEvents(path.join(out, 'rl_events.csv'));
  const sides = [baseline, current];

  let browser = await openBrowser({ viewport: { width: 1280, height: 800 }, ready: 'rliCompare' });
  if (browser === SKIP) return 77;
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

    await check('Reset in the one toolbar both share resets both', async () => {
      const first = (await page.evaluate(() => window.rliCompare.runs[0].model.xMax));
      assert.ok(!(await page.isVisible('section[data-run="current"] .rli-toolbar')), 'the current run has a toolbar of its own');
      await page.click('button[data-action="reset"]:visible');
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
        const verdict = (await tableRows(page))[index][8];
        const want = stepSpan(sides, role, phase, rank, verdict);
        const s = await state();
        const axis = await page.evaluate(() => [window.rliCompare.runs[0].model.xMin, window.rliCompare.runs[0].model.xMax]);
        const range = padded(want.span, axis);
        assert.strictEqual(s.picked.step, want.step, 'the step shown');
        s.ranges.forEach((r, i) => {
          assertClose(r[0], range[0], 'run ' + i + ' left');
          assertClose(r[1], range[1], 'run ' + i + ' right');
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
      /* the baseline has no bars: the first step, the current run's */
      const want = stepSpan([null, current], top[0], top[1], top[2] === 'all' ? null : top[2], top[8]);
      assert.strictEqual(want.step, 1);
      const after = (await other.evaluate(() => window.rliCompare.state())).ranges[1];
      const axis = await other.evaluate(() => [window.rliCompare.runs[1].model.xMin, window.rliCompare.runs[1].model.xMax]);
      const range = padded(want.span, axis);
      assertClose(after[0], range[0], 'left');
      assertClose(after[1], range[1], 'right');
      assert.deepStrictEqual(browser.problems(), []);
    });
    await sizeChecks(browser, check, out, sides, '1280x800');
    await memoryChecks(browser, check, bin, synth, outDir, '1280x800');
    await check('1280x800: the page asked for nothing outside its file and logged no error', async () => {
      assert.deepStrictEqual(browser.problems(), []);
    });
    await browser.close();
    browser = await openBrowser({ viewport: { width: 1920, height: 1080 }, ready: 'rliCompare' });
    await sizeChecks(browser, check, out, sides, '1920x1080');
    await memoryChecks(browser, check, bin, synth, outDir, '1920x1080');
    await check('1920x1080: the page asked for nothing outside its file and logged no error', async () => {
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
