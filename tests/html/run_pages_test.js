/* run_pages_test.js: one run's pages together (home, timeline, memory) at a laptop's and a desktop's size: one t = 0, axis units, links, the view in the URL, the filter. */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const assert = require('assert');
const { tabWalk } = require('./focus_common');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');

const binary = process.argv[2];
const work = process.argv[3] || fs.mkdtempSync(path.join(os.tmpdir(), 'rli-run-pages-'));
const { check, failures } = makeChecks();

/* The run's first event: an allocation of rank 0's, 1,525 ms before the first bar. */
const T0 = 1779785515000000; /* us, 2026-05-26 08:51:55 UTC */
const FIRST_BAR_MS = 1525;
const RANKS = 12; /* ranks 1, 10 and 11: "rank 1" must keep only the first */
const HEADER = 'Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),' +
  'Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),' +
  'Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n';
/* rank 0's and rank 1's allocations: [name, KB, us from T0, duration us]; a 200 GB block late, small ones early */
const BLOCKS = [['aten::empty', 4096, 0, 5000], ['aten::mm', 8192, 2000, 1000], ['aten::add', 1024, 2500, 100],
  ['aten::huge', 200 * 1024 * 1024, 3000000, 500000]];

/* A capture of `rank` of role actor: the Overlap Analysis envelope (one bar), and for the first two ranks memory records. */
function writeCapture(root, rank) {
  const base = path.join(root, 'actor', 'node00_' + rank + '_ascend_pt');
  fs.mkdirSync(path.join(base, 'ASCEND_PROFILER_OUTPUT'), { recursive: true });
  fs.writeFileSync(path.join(base, 'profiler_info_' + rank + '.json'), JSON.stringify({ config: {}, start_info: {}, end_info: {}, rank_id: String(rank),
    torch_npu_version: '2.7.1', cann_version: '8.3' }));
  fs.writeFileSync(path.join(base, 'profiler_metadata.json'), JSON.stringify({ role: 'actor' }));
  const start = T0 + (FIRST_BAR_MS + rank * 10) * 1000, pid = 7000 + rank;
  const events = [{ name: 'process_name', pid, tid: 0, ph: 'M', args: { name: 'Overlap Analysis' } },
    { name: 'thread_name', pid, tid: 1, ph: 'M', args: { name: 'Computing' } },
    { name: 'Computing', pid, tid: 1, ph: 'X', ts: String(start), dur: 1000000 - rank * 1000, args: {} },
    { name: 'aten::mm', pid: 1, tid: 1, ph: 'X', cat: 'cpu_op', ts: String(T0 + 1900), dur: 200, args: { 'Call stack': 'model.py(3): forward' } }];
  fs.writeFileSync(path.join(base, 'ASCEND_PROFILER_OUTPUT', 'trace_view.json'), JSON.stringify(events));
  if (rank > 1) return;
  let csv = HEADER;
  BLOCKS.forEach(([name, kb, at, dur]) => {
    const time = '"' + (T0 + at + rank * 1000) + '\t"', d = '"' + dur + '\t"';
    csv += [name, kb, time, time, time, d, d, '', 0, 0, '', '', 6, 'NPU:0'].join(',') + '\n';
  });
  fs.writeFileSync(path.join(base, 'ASCEND_PROFILER_OUTPUT', 'operator_memory.csv'), csv);
}

function rliRun(input, out) {
  fs.rmSync(out, { recursive: true, force: true });
  const result = spawnSync(binary, ['--input-path', input, '--vis-type', 'png,html', '--output-path', out, '-q'],
    { encoding: 'utf8', env: process.env });
  if (result.status !== 0) throw new Error('rl-insight exit ' + result.status + ': ' + result.stderr);
}

async function timelineState(page) {
  return page.evaluate(() => window.rliTimeline.state());
}

/* The lines of the tooltip over the middle of display row `position`'s bar. */
async function hoverRow(page, position) {
  const point = await page.evaluate((p) => {
    const t = window.rliTimeline.timeline, row = t.displayRows[p], b = t.bars, run = b.rowRuns[row][0];
    const i = b.runFirst[run];
    window.rliTimeline.revealRow(p);
    return window.rliTimeline.clientPoint((b.start[i] + b.end[i]) / 2, p);
  }, position);
  await page.mouse.move(point.x, point.y);
  return page.evaluate(() => document.querySelector('.rli-tooltip').innerText.split('\n').map((l) => l.trim()).filter(Boolean));
}

async function typeInto(page, selector, text) {
  await page.fill(selector, text);
  await page.press(selector, 'Enter');
}


/* Every visible text's contrast against the background it sits on (WCAG 2): [{text, ratio}] below 4.5. */
async function lowContrast(page) {
  return page.evaluate(() => {
    function rgb(text) {
      const m = /rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)/.exec(text);
      return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : [0, 0, 0, 0];
    }
    function lum(c) {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
      return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
    }
    function background(node) {
      for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
        const c = rgb(getComputedStyle(n).backgroundColor);
        if (c[3] > 0.5) return c;
      }
      return [255, 255, 255, 1];
    }
    const bad = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const el = t.parentElement, text = t.textContent.trim();
      if (!text || !el) continue;
      const style = getComputedStyle(el), box = el.getBoundingClientRect();
      if (style.visibility === 'hidden' || box.width === 0 || box.height === 0 || el.closest('[hidden], script, style, noscript')) continue;
      let opacity = 1;
      for (let n = el; n && n.nodeType === 1; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
      if (opacity < 0.5) continue; /* a name hidden on purpose reads as switched off */
      const fg = rgb(style.color), bg = background(el);
      const a = lum(fg), b = lum(bg), ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 4.5) bad.push({ text: text.slice(0, 40), ratio: Math.round(ratio * 100) / 100, color: style.color });
    }
    return bad;
  });
}

async function missingGlyphs(page) {
  return page.evaluate(() => Array.from(document.body.innerText).filter((c) => {
    const p = c.codePointAt(0);
    return p >= 0x1f000 || (p >= 0x2600 && p <= 0x27bf) || (p >= 0xfe00 && p <= 0xfe0f);
  }));
}

async function sizeChecks(size, out) {
  const tag = size.width + 'x' + size.height;
  const browser = await openBrowser({ viewport: size });
  if (browser === SKIP) return SKIP;
  try {
    const timeline = await browser.open(path.join(out, 'rl_timeline.html'));
    const memory = await browser.open(path.join(out, 'memory_timeline_actor_rank0_00.html'), { ready: 'rliMemory' });
    const home = await browser.open(path.join(out, 'index.html'), { ready: null });

    await check(tag + ': every page of the run counts from one t = 0, the run\'s first event, said once as UTC', async () => {
      const t0 = await timeline.evaluate(() => window.rliTimeline.timeline.model.t0);
      assert.strictEqual(t0, T0 / 1000);
      const title = await timeline.evaluate(() => window.rliTimeline.timeline.model.title.text);
      const utc = 't = 0 at 2026-05-26 08:51:55.000 UTC';
      assert.ok(title.includes(utc), title);
      assert.strictEqual(await memory.evaluate(() => document.querySelector('.rli-origin').textContent), utc);
      assert.ok((await home.textContent('.rli-origin')).startsWith(utc));
      /* the same moment reads the same on both: rank 0's first bar at 1,525 ms, its first block at 0 */
      const lines = await hoverRow(timeline, 0);
      assert.deepStrictEqual(lines.slice(0, 2), ['actor', 'Start: 1,525.000 ms']);
      const range = await memory.evaluate(() => [window.rliMemory.range.min, window.rliMemory.d.start[0]]);
      assert.deepStrictEqual(range, [0, 0]);
      /* rank 1's memory starts 1 ms later, on the same axis */
      const other = await browser.open(path.join(out, 'memory_timeline_actor_rank1_00.html'), { ready: 'rliMemory' });
      assert.strictEqual(await other.evaluate(() => window.rliMemory.range.min), 1);
      await other.close();
    });

    await check(tag + ': the boxes take times in the axis\'s unit or their own, and say in words what is wrong', async () => {
      const left = '.rli-range label:nth-of-type(1) input', right = '.rli-range label:nth-of-type(2) input';
      assert.strictEqual(await timeline.textContent('.rli-range .rli-unit'), 'ms');
      await typeInto(timeline, left, '1.6 s');
      await typeInto(timeline, right, '1,900');
      let s = await timelineState(timeline);
      assert.deepStrictEqual([s.left, s.right], [1600, 1900]);
      assert.strictEqual(await timeline.inputValue(left), '1,600.000');
      await typeInto(timeline, left, '1.7x');
      const said = await timeline.textContent('.rli-range-error');
      assert.strictEqual(said, 'Left: \u201cx\u201d is not a unit of time; use ms, s or min');
      assert.strictEqual(await timeline.inputValue(left), '1.7x');
      s = await timelineState(timeline);
      assert.deepStrictEqual([s.left, s.right], [1600, 1900]);
      await typeInto(timeline, left, '0.1 min');
      assert.match(await timeline.textContent('.rli-range-error'), /^Right \(1,900\.000 ms\) must be after Left \(6,000\.000 ms\)$/);
      await timeline.click('text=Reset');
      /* the memory page: the same rule */
      await typeInto(memory, '.rli-range label:nth-of-type(1) input', '2 ms');
      await typeInto(memory, '.rli-range label:nth-of-type(2) input', '0.003 s');
      const m = await memory.evaluate(() => [window.rliMemory.range.lo, window.rliMemory.range.hi]);
      assert.deepStrictEqual(m, [2, 3]);
    });

    await check(tag + ': the memory curve\'s value axis fits what is in view, its ticks in KB, MB or GB with separators', async () => {
      await memory.evaluate(() => window.rliMemory.range.set(window.rliMemory.range.min, window.rliMemory.range.max, 'test'));
      const whole = await memory.evaluate(() => ({ title: window.rliMemory.yAxis.title, max: window.rliMemory.yAxis.max,
        labels: window.rliMemory.yAxis.ticks.map((t) => t.label) }));
      assert.strictEqual(whole.title, 'Allocated (GB)');
      assert.ok(whole.max >= 200 * 1024 && whole.max < 240 * 1024, JSON.stringify(whole));
      /* the first 10 ms hold 13 MB at most: the axis comes down to it */
      await memory.evaluate(() => window.rliMemory.range.set(0, 10, 'test'));
      const early = await memory.evaluate(() => ({ title: window.rliMemory.yAxis.title, max: window.rliMemory.yAxis.max,
        labels: window.rliMemory.yAxis.ticks.map((t) => t.label), x: window.rliMemory.axisTitle }));
      assert.strictEqual(early.title, 'Allocated (MB)');
      assert.ok(early.max > 13 && early.max < 20, JSON.stringify(early));
      assert.strictEqual(early.x, 'Time (ms)');
      const big = await memory.evaluate(() => window.rliCore.unitTicks(0, 3e6, 6, 64, 1).map((t) => t.label));
      assert.ok(big.includes('1,000,000'), big.join(' '));
    });

    await check(tag + ': the home page links every output, and every page links back to it', async () => {
      const hrefs = await home.evaluate(() => Array.from(document.querySelectorAll('a[href]')).map((a) => a.getAttribute('href')));
      hrefs.forEach((h) => assert.ok(fs.existsSync(path.join(out, h.split('#')[0])), h));
      const files = fs.readdirSync(out).filter((f) => f !== 'index.html' && !/^detail_data|^memory_viewer/.test(f));
      files.forEach((f) => assert.ok(hrefs.some((h) => h.split('#')[0] === f), f + ' is not linked from ' + JSON.stringify(hrefs)));
      const text = await home.textContent('body');
      assert.ok(/Findings/.test(text) && /What was analysed/.test(text), text.slice(0, 400));
      assert.ok(text.includes('Memory peak 200 GB'), text);
      for (const page of [timeline, memory])
        assert.ok(await page.evaluate(() => Array.from(document.querySelectorAll('a[href]')).some((a) => a.getAttribute('href') === 'index.html')));
    });

    await check(tag + ': a row\'s memory page opens at the timeline\'s time, and the memory page\'s timeline link at its', async () => {
      await timeline.evaluate(() => window.rliTimeline.zoomTo(1550, 1650));
      await timeline.click('.rli-menu > summary');
      const href = await timeline.getAttribute('.rli-memory-link[data-row="0"]', 'href');
      assert.strictEqual(href, 'memory_timeline_actor_rank0_00.html#range=1550,1650');
      const opened = await browser.open(path.join(out, href.split('#')[0]) + '#' + href.split('#')[1], { ready: 'rliMemory' });
      const range = await opened.evaluate(() => [window.rliMemory.range.lo, window.rliMemory.range.hi]);
      assert.deepStrictEqual(range, [1550, 1650]);
      const back = await opened.getAttribute('.rli-timeline-link', 'href');
      assert.strictEqual(back, 'rl_timeline.html#range=1550,1650&filter=actor%20rank%200');
      await opened.close();
      const there = await browser.open(path.join(out, 'rl_timeline.html') + '#range=1550,1650&filter=actor%20rank%200');
      const s = await timelineState(there);
      assert.deepStrictEqual([s.left, s.right, s.rows], [1550, 1650, ['actor - Rank 0']]);
      await there.close();
      await timeline.click('text=Reset');
    });

    await check(tag + ': "rank 1" keeps exactly rank 1; ranges, lists, roles and patterns; a new filter starts at the top', async () => {
      const rows = async (text) => { await timeline.fill('.rli-filter', text); return (await timelineState(timeline)).rows; };
      assert.deepStrictEqual(await rows('rank 1'), ['actor - Rank 1']);
      assert.deepStrictEqual(await rows('rank 0-2,11'), ['actor - Rank 0', 'actor - Rank 1', 'actor - Rank 2', 'actor - Rank 11']);
      assert.deepStrictEqual(await rows('/Rank 1\\d/'), ['actor - Rank 10', 'actor - Rank 11']);
      assert.strictEqual((await rows('actor')).length, RANKS);
      assert.deepStrictEqual(await rows('actor rank 3'), ['actor - Rank 3']);
      await rows('rank x');
      assert.match(await timeline.textContent('.rli-filter-status'), /is not a rank, a range or a list/);
      await timeline.fill('.rli-filter', '');
      await timeline.evaluate(() => window.rliTimeline.scrollRows(1e9));
      await timeline.fill('.rli-filter', 'rank 2-11');
      assert.strictEqual((await timelineState(timeline)).scrollTop, 0);
      assert.ok((await timeline.textContent('.rli-filter-help')).includes('rank 0-7,12'));
      await timeline.fill('.rli-filter', '');
    });

    await check(tag + ': a reload keeps a zoomed, filtered view, and Back goes to the one before', async () => {
      await timeline.evaluate(() => window.rliTimeline.zoomTo(1550, 1750));
      await timeline.evaluate(() => window.rliTimeline.flushUrl());
      await timeline.fill('.rli-filter', 'rank 1-4');
      const hash = await timeline.evaluate(() => window.rliTimeline.flushUrl());
      assert.strictEqual(hash, '#range=1550,1750&filter=rank%201-4');
      await timeline.reload();
      await timeline.waitForFunction(() => window.rliTimeline !== undefined);
      let s = await timelineState(timeline);
      assert.deepStrictEqual([s.left, s.right, s.filter, s.rows.length], [1550, 1750, 'rank 1-4', 4]);
      assert.strictEqual(await timeline.inputValue('.rli-filter'), 'rank 1-4');
      await timeline.goBack();
      await timeline.waitForFunction(() => window.rliTimeline && window.rliTimeline.state().filter === '', null, { timeout: 5000 })
        .catch(async () => { throw new Error('after Back: ' + await timeline.evaluate(() => location.hash)); });
      s = await timelineState(timeline);
      assert.deepStrictEqual([s.left, s.right, s.rows.length], [1550, 1750, RANKS]);
    });


    await check(tag + ': a click on a bar shows its details (phase, rank, times, against its role\'s median); Escape clears them', async () => {
      await timeline.click('text=Reset');
      const point = await timeline.evaluate(() => {
        const t = window.rliTimeline.timeline, b = t.bars, run = b.rowRuns[t.displayRows[3]][0], i = b.runFirst[run];
        window.rliTimeline.revealRow(3);
        return window.rliTimeline.clientPoint((b.start[i] + b.end[i]) / 2, 3);
      });
      await timeline.mouse.click(point.x, point.y);
      const sel = await timeline.evaluate(() => window.rliTimeline.selection());
      const text = sel.details.join('\n');
      assert.strictEqual(sel.details[1], 'actor');
      for (const want of ['actor - Rank 3', 'Start\t1,555.000 ms', 'Duration\t997.000 ms', 'Against the median'])
        assert.ok(text.includes(want), want + ' in ' + text);
      /* rank 3's bar is 997 ms; the role's median 994.5 ms (12 bars of 1,000 to 989 ms) */
      assert.ok(text.includes('+0.3% (median 994.500 ms over 12 bars of actor)'), text);
      const card = await timeline.evaluate(() => { const r = document.querySelector('.rli-details').getBoundingClientRect(); return [r.right, r.bottom]; });
      assert.ok(card[0] <= size.width && card[1] <= size.height, JSON.stringify(card));
      assert.match(await timeline.evaluate(() => window.rliTimeline.flushUrl()), /sel=3%3A3/);
      await timeline.keyboard.press('Escape');
      assert.strictEqual((await timeline.evaluate(() => window.rliTimeline.selection())).details, null);
    });

    await check(tag + ': the memory page: a click shows a block\'s size, call stack and lifetime, Escape clears it; keys, box zoom, crosshair', async () => {
      await memory.evaluate(() => window.rliMemory.range.set(0, 6, 'test'));
      const point = await memory.evaluate(() => {
        const m = window.rliMemory, i = m.findBar('aten::mm', 2), box = m.ganttCanvas.getBoundingClientRect();
        return { x: box.left + m.xOf(2.5), y: box.top + m.laneTop(m.d.lane[i]) + m.geom.pitch / 2 };
      });
      await memory.mouse.click(point.x, point.y);
      const detail = await memory.evaluate(() => document.querySelector('.rli-detail-body').innerText);
      for (const want of ['aten::mm', '8.00 MB', 'Start\t2.000 ms', 'Duration\t1.000 ms', 'model.py(3): forward'])
        assert.ok(detail.includes(want), want + ' in ' + detail);
      await memory.keyboard.press('Escape');
      assert.strictEqual(await memory.evaluate(() => window.rliMemory.selected), -1);
      /* the keys of the focused chart: zoom in about the middle, pan right */
      await memory.keyboard.press('+');
      let r = await memory.evaluate(() => [window.rliMemory.range.lo, window.rliMemory.range.hi]);
      assert.ok(Math.abs(r[0] - 0.6) < 1e-9 && Math.abs(r[1] - 5.4) < 1e-9, JSON.stringify(r));
      await memory.keyboard.press('ArrowRight');
      r = await memory.evaluate(() => [window.rliMemory.range.lo, window.rliMemory.range.hi]);
      assert.ok(Math.abs(r[0] - 1.08) < 1e-9, JSON.stringify(r));
      /* a drag across the curve zooms both charts to its span */
      const drag = await memory.evaluate(() => {
        const m = window.rliMemory, box = m.curveCanvas.getBoundingClientRect();
        return { a: box.left + m.xOf(2), b: box.left + m.xOf(4), y: box.top + 100 };
      });
      await memory.mouse.move(drag.a, drag.y);
      await memory.mouse.down();
      await memory.mouse.move(drag.b, drag.y, { steps: 5 });
      await memory.mouse.up();
      r = await memory.evaluate(() => [window.rliMemory.range.lo, window.rliMemory.range.hi, window.rliMemory.ganttDrawn]);
      assert.ok(Math.abs(r[0] - 2) < 0.05 && Math.abs(r[1] - 4) < 0.05, JSON.stringify(r));
      assert.deepStrictEqual(r[2], r.slice(0, 2));
      /* hovering the curve: one crosshair on both charts at the same time; a wheel zoom retells the time under the pointer */
      const x = (drag.a + drag.b) / 2 + 40;
      await memory.mouse.move(x, drag.y);
      const lines = await memory.evaluate(() => window.rliMemory.crosshairs.map((l) => [l.style.display, l.style.left]));
      assert.deepStrictEqual(lines[0], lines[1]);
      assert.strictEqual(lines[0][0], 'block');
      const before = await memory.evaluate(() => document.querySelector('.rli-tooltip').innerText.split('\n')[0]);
      /* a zoom about the middle moves other times under the pointer: the tooltip follows */
      await memory.focus('.rli-curve canvas');
      await memory.keyboard.press('+');
      const after = await memory.evaluate(() => [document.querySelector('.rli-tooltip').innerText.split('\n')[0],
        window.rliMemory.timeText(window.rliMemory.crosshairAt)]);
      assert.strictEqual(after[0], 'Time: ' + after[1]);
      assert.notStrictEqual(after[0], before);
      await memory.mouse.wheel(0, -300);
      await memory.waitForTimeout(50);
      const wheeled = await memory.evaluate(() => [document.querySelector('.rli-tooltip').innerText.split('\n')[0],
        window.rliMemory.timeText(window.rliMemory.crosshairAt)]);
      assert.strictEqual(wheeled[0], 'Time: ' + wheeled[1]);
      /* the view is in the URL: a reload keeps it */
      await memory.waitForTimeout(400);
      const hash = await memory.evaluate(() => location.hash);
      assert.match(hash, /^#range=/);
      const kept = await memory.evaluate(() => [window.rliMemory.range.lo, window.rliMemory.range.hi]);
      await memory.reload();
      await memory.waitForFunction(() => window.rliMemory !== undefined);
      const back = await memory.evaluate(() => [window.rliMemory.range.lo, window.rliMemory.range.hi]);
      assert.ok(Math.abs(back[0] - kept[0]) < 1e-5 && Math.abs(back[1] - kept[1]) < 1e-5, JSON.stringify([kept, back]));
    });

    await check(tag + ': Tab reaches every control with a visible focus, the keys act where the focus is, text at 4.5:1', async () => {
      for (const [page, name] of [[timeline, 'timeline'], [memory, 'memory'], [home, 'home']]) {
        const walk = await tabWalk(page, 200);
        assert.deepStrictEqual(walk.missed, [], name + ': not reached by Tab');
        assert.deepStrictEqual(walk.unmarked, [], name + ': focused without a visible mark');
        assert.deepStrictEqual(await lowContrast(page), [], name + ': text under 4.5:1');
        assert.deepStrictEqual(await missingGlyphs(page), [], name + ': characters the fonts lack');
      }
      /* ArrowRight on a focused button is the button's, not a pan */
      await timeline.evaluate(() => window.rliTimeline.zoomTo(1600, 1700));
      await timeline.focus('text=Order: by rank');
      await timeline.keyboard.press('ArrowRight');
      let s = await timelineState(timeline);
      assert.deepStrictEqual([s.left, s.right], [1600, 1700]);
      await timeline.focus('.rli-stage canvas');
      await timeline.keyboard.press('ArrowRight');
      s = await timelineState(timeline);
      assert.deepStrictEqual([s.left, s.right], [1610, 1710]);
      const labels = await memory.evaluate(() => Array.from(document.querySelectorAll('canvas')).map((c) => [c.getAttribute('role'), !!c.getAttribute('aria-label')]));
      labels.forEach((l) => assert.deepStrictEqual(l, ['img', true]));
      await timeline.click('text=Reset');
    });

    await timeline.screenshot({ path: path.join(work, 'timeline.' + tag + '.png') });
    await memory.screenshot({ path: path.join(work, 'memory.' + tag + '.png') });
    await home.screenshot({ path: path.join(work, 'home.' + tag + '.png'), fullPage: true });
    await check(tag + ': no console error, no request off the file system', async () => {
      assert.deepStrictEqual(browser.problems(), []);
    });
  } finally {
    await browser.close();
  }
  return 0;
}

async function main() {
  const input = path.join(work, 'in');
  fs.rmSync(input, { recursive: true, force: true });
  for (let rank = 0; rank < RANKS; rank++) writeCapture(input, rank);
  const out = path.join(work, 'out');
  rliRun(input, out);
  for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }])
    if (await sizeChecks(size, out) === SKIP) return 77;
  return failures() ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => { console.log('FAIL ' + (error && error.stack || error)); process.exit(1); });
