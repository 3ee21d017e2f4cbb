/* memory_browser_test.js: drives the memory pages in headless Debian chromium with the network cut off: details, ranges, links, overlaps, escaping, the selection at 1280x800 and 1920x1080. */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const zlib = require('zlib');
const assert = require('assert');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');
const { tabWalk, canvasLabels } = require('./focus_common');

const binary = process.argv[2];
const samples = process.argv[3];
const work = process.argv[4] || fs.mkdtempSync(path.join(os.tmpdir(), 'rli-memory-html-'));

const HOSTILE_OP = '</script><img src=x onerror="window.__pwned=1;alert(1)">';
const HOSTILE_STACK = 'evil.py(1): <img src=x onerror=alert(2)>;\r\n</script><script>window.__pwned=2</script><!--';
const HOSTILE_ROLE = '</script><b id=injected onmouseover=alert(3)>role</b>';

const { check, failures } = makeChecks();

/* ---- captures, written here so the expected answers come from the rows themselves ---- */

/*
 * No Release Total Allocated(MB): without the allocator's totals after each release the curve is the
 * blocks' own running sum (decisions.md, Memory), which these checks work out from the rows.
 */
const HEADER = 'Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),' +
  'Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),' +
  'Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n';

function csvField(text) { return /[",\n\r]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text; }

/* rows: { name, kb, at (us, absolute), dur (us, or '' never freed), total (MB) } */
function writeCapture(root, dir, rank, role, rows, ops) {
  const base = path.join(root, dir);
  fs.mkdirSync(path.join(base, 'ASCEND_PROFILER_OUTPUT'), { recursive: true });
  fs.writeFileSync(path.join(base, 'profiler_info_' + rank + '.json'), JSON.stringify({ config: {}, rank_id: String(rank) }));
  fs.writeFileSync(path.join(base, 'profiler_metadata.json'), JSON.stringify({ role }));
  let csv = HEADER;
  rows.forEach((r) => {
    const time = '"' + r.at + '\t"', released = r.dur !== '';
    const dur = released ? '"' + r.dur + '\t"' : '';
    csv += [csvField(r.name), r.kb, time, released ? time : '', released ? time : '', dur, dur, r.total || 19071.5, 21084,
      19071.25, released ? 21084 : '', released ? 19071.5 : '', 6, 'NPU:0'].join(',') + '\n';
  });
  fs.writeFileSync(path.join(base, 'ASCEND_PROFILER_OUTPUT', 'operator_memory.csv'), csv);
  /* a trace must hold an event: this one matches no allocation */
  const events = (ops || []).concat([{ name: 'unrelated::op', ts: 1, dur: 1, stack: 'x.py(1): f' }]).map((op, i) => ({ ph: 'X', name: op.name, pid: 0, tid: i + 1, ts: String(op.ts), dur: op.dur,
    cat: 'cpu_op', args: { 'Call stack': op.stack } }));
  fs.writeFileSync(path.join(base, 'ASCEND_PROFILER_OUTPUT', 'trace_view.json'), JSON.stringify(events));
}

function run(input, out, extra, profiler) {
  fs.rmSync(out, { recursive: true, force: true });
  const result = spawnSync(binary, ['--input-path', input, '--profiler-type', profiler || 'memory', '--vis-type', 'html',
    '--output-path', out].concat(extra || []), { encoding: 'utf8', env: process.env });
  if (result.status !== 0) throw new Error('rl-insight exit ' + result.status + ': ' + result.stderr);
  /* summary.json comes with every run that parses, the home page with every run that writes pages; the pages' files are the rest */
  const files = fs.readdirSync(out).sort();
  if (!files.includes('summary.json')) throw new Error('no summary.json in ' + out);
  if (!files.includes('index.html')) throw new Error('no home page, index.html, in ' + out);
  return files.filter((f) => f !== 'summary.json' && f !== 'index.html');
}

const T0 = 1779785515000000; /* us */

/*
 * A PyTorch trace of rank 0 with [memory] events on CUDA:0 and CUDA:1 (us from T0, MiB):
 *   CUDA:0: A 1 MiB at 0 (reserved 4), B 2 MiB at 100 (reserved 8), A freed at 500, B at 800 (reserved 6)
 *   CUDA:1: C 1 MiB at 50 (reserved 2), freed at 300
 * Rows are the allocations, each with the Total Reserved at its event: CUDA:0's reserved line is 4 from
 * its first allocation (x 0 ms), 8 from 0.1 ms, to its last block's end at 0.8 ms.
 */
const MIB = 1048576;
/* [us from T0, MiB, Addr, device id, Total Reserved, Total Allocated]: CUDA:0 holds 100 MiB from before the capture */
const TORCH_EVENTS = [[0, 1, 0xA000, 0, 4, 101], [50, 1, 0xC000, 1, 2, 1], [100, 2, 0xB000, 0, 8, 103],
  [300, -1, 0xC000, 1, 2, 0], [500, -1, 0xA000, 0, 8, 102], [800, -2, 0xB000, 0, 6, 100]];
const RESERVED_CUDA0 = { x: [0, 0.1, 0.1, 0.8], y: [4, 4, 8, 8] };

function writeTorchTrace(root) {
  const dir = path.join(root, 'actor');
  fs.mkdirSync(dir, { recursive: true });
  const events = [{ ph: 'X', cat: 'cpu_op', name: 'aten::mm', pid: 1, tid: 1, ts: T0 - 10, dur: 1000 }].concat(
    TORCH_EVENTS.map(([at, mib, addr, id, reserved, allocated]) => ({ ph: 'i', cat: 'cpu_instant_event', s: 't',
      name: '[memory]', pid: 1, tid: 1, ts: T0 + at, args: { Bytes: mib * MIB, Addr: addr, 'Device Type': 1,
        'Device Id': id, 'Total Allocated': allocated * MIB, 'Total Reserved': reserved * MIB } })));
  const trace = { distributedInfo: { backend: 'nccl', rank: 0, world_size: 1 }, traceEvents: events };
  fs.writeFileSync(path.join(dir, 'prof_rank-0_000000.json.gz'), zlib.gzipSync(JSON.stringify(trace)));
}

/* Overlaps: one operator's blocks (ms from T0), and a second operator to show the rule stays within one. */
/* bar 0's midpoint is 5 ms: one block ends there, one starts there (both hold it), one starts just after */
const MM = [[0, 10, 4096], [2, 1, 1024], [4, 16, 2048], [12, 2, 3072], [5.5, 0.5, 512], [4.5, 2, 1536], [20, 1, 256],
  [3, 2, 768], [5, 1, 640], [5.001, 1, 300]];
const overlapRows = MM.map(([s, d, kb]) => ({ name: 'aten::mm', kb, at: T0 + s * 1000, dur: d * 1000 }))
  .concat([{ name: 'aten::add', kb: 8192, at: T0 + 4.9 * 1000, dur: 1000 }]);

/* "1,234.567": rli_fmt_thousands, as the pages write numbers. */
function fmtThousands(value, decimals) {
  const [integer, fraction] = Math.abs(value).toFixed(decimals).split('.');
  const sign = value < 0 && Number(value.toFixed(decimals)) !== 0 ? '-' : '';
  return sign + integer.replace(/\B(?=(\d{3})+$)/g, ',') + (fraction !== undefined ? '.' + fraction : '');
}
/* A size as the pages write it: KB below 1 MB, MB below 10 GB, then GB, two decimals. */
function sizeText(kb) {
  const mb = kb / 1024;
  if (mb < 1) return fmtThousands(kb, 2) + ' KB';
  if (mb < 10240) return fmtThousands(mb, 2) + ' MB';
  return fmtThousands(mb / 1024, 2) + ' GB';
}
/* ms in the view's unit (ms below a 10 s view) and a duration in its own (ms below 1 s): three decimals. */
function msText(ms) { return fmtThousands(ms, 3) + ' ms'; }

/* The expected overlap list of block b: same operator, holding b's midpoint, largest first (memory.md §4.6). */
function expectedOverlaps(b) {
  const [s, d] = MM[b], mid = s + d / 2;
  return MM.map((m, i) => ({ i, s: m[0], d: m[1], kb: m[2] }))
    .filter((o) => o.i !== b && o.s <= mid && mid <= o.s + o.d)
    .sort((x, y) => y.kb - x.kb || x.s - y.s)
    .map((o) => '\u2192 ' + sizeText(o.kb) + ' at ' + msText(o.s) + ' for ' + msText(o.d));
}

/* ---- page helpers ---- */

/* startMs: ms from the run's t = 0, as the page counts */
async function barPoint(page, name, startAbs) {
  return page.evaluate(([n, s]) => {
    const m = window.rliMemory, i = m.findBar(n, s);
    if (i < 0) return null;
    const d = m.d, lo = Math.max(d.start[i], m.range.lo), hi = Math.min(d.end[i], m.range.hi);
    const box = m.ganttCanvas.getBoundingClientRect();
    /* a whole client pixel (what a mouse reports) of the bar that no shorter bar of its lane covers */
    const y = Math.round(box.top + m.laneTop(d.lane[i]) + m.geom.pitch / 2);
    const from = Math.floor(box.left + m.xOf(lo)) - 3, to = Math.ceil(box.left + m.xOf(hi)) + 3;
    const mid = Math.round(box.left + m.xOf((lo + hi) / 2));
    for (let k = 0; k <= to - from; k++)
      for (const x of [mid + k, mid - k])
        if (x >= from && x <= to && m.barAt(x - box.left, y - box.top) === i) return { x, y, index: i };
    return null;
  }, [name, startAbs]);
}

async function clickBar(page, name, startAbs) {
  const point = await barPoint(page, name, startAbs);
  assert.ok(point, 'bar ' + name + ' at ' + startAbs + ' is on screen');
  await page.evaluate((y) => window.scrollTo(0, Math.max(0, window.scrollY + y - 400)), point.y);
  const again = await barPoint(page, name, startAbs);
  await page.mouse.move(again.x, again.y);
  await page.mouse.down();
  await page.mouse.up();
  return again;
}

async function setInput(page, which, value) {
  const input = which === 'left' ? 'rliMemory.leftInput' : 'rliMemory.rightInput';
  await page.evaluate(([expr, v]) => {
    const el = expr.split('.').reduce((o, k) => o[k], window);
    el.value = v;
  }, [input, value]);
  const handle = await page.evaluateHandle((expr) => expr.split('.').reduce((o, k) => o[k], window), input);
  await handle.focus();
  await page.keyboard.press('Enter');
}

/*
 * The selection: SELECT_OPS operators of one block each (more lanes than the Gantt shows), a block of
 * aten::mm matched to its op's call stack, and aten::keep, never freed. At a laptop's and a desktop's
 * size: a click shows the block's details (freed, when, or never), Escape on the chart, Escape in the
 * panel and its x clear them, a reload restores them with the lane in view, the lanes scroll by keys,
 * Tab reaches every control.
 */
const SELECT_OPS = 40;
function selectRows() {
  const rows = [{ name: 'aten::mm', kb: 4096, at: T0 + 1000, dur: 2000 }, { name: 'aten::keep', kb: 2048, at: T0 + 1500, dur: '' }];
  for (let i = 0; i < SELECT_OPS; i++)
    rows.push({ name: 'op' + String(i).padStart(2, '0'), kb: 64 * (i + 1), at: T0 + 100 * i, dur: 50 });
  return rows;
}

/* The selected allocation: its index, lane, start and end, and the view's range; null when none is selected. */
function current(page) {
  return page.evaluate(() => {
    const m = window.rliMemory, i = m.selected;
    return i < 0 ? null : { bar: i, lane: m.d.lane[i], start: m.d.start[i], end: m.d.end[i], lo: m.range.lo, hi: m.range.hi };
  });
}

/* Clicks a bar as clickBar does, its lane first scrolled into the Gantt's band (more lanes than it shows). */
async function clickLaneBar(page, name, at) {
  await page.evaluate(([n, ms]) => {
    const m = window.rliMemory, i = m.findBar(n, ms), stage = m.ganttStage, top = m.laneTop(m.d.lane[i]);
    if (top < stage.scrollTop || top + m.geom.pitch > stage.scrollTop + stage.clientHeight) stage.scrollTop = Math.max(0, top - m.geom.pitch);
  }, [name, at]);
  return clickBar(page, name, at);
}

async function selectionChecks(out, size) {
  const tag = size.width + 'x' + size.height;
  const browser = await openBrowser({ viewport: size, ready: 'rliMemory' });
  if (browser === SKIP) return;
  try {
    const page = await browser.open(path.join(out, 'memory_timeline_00.html'));
    const detail = () => page.evaluate(() => {
      const body = document.querySelector('.rli-detail-body'), close = document.querySelector('.rli-detail-close');
      const fields = {};
      body.querySelectorAll('.rli-fields tr').forEach((tr) => { fields[tr.cells[0].textContent] = tr.cells[1].textContent; });
      return { selected: window.rliMemory.selected, fields, text: body.innerText,
        close: !!close && getComputedStyle(close).display !== 'none' };
    });

    await check(tag + ': a click on an allocation shows its size, operator, call stack, start, lifetime and when it was freed', async () => {
      await clickLaneBar(page, 'aten::mm', 1);
      const d = await detail();
      assert.ok(d.selected >= 0);
      assert.strictEqual(d.fields.Operator, 'aten::mm');
      assert.strictEqual(d.fields.Size, '4.00 MB (4,096.0 KB)');
      assert.strictEqual(d.fields.Start, '1.000 ms');
      assert.strictEqual(d.fields.Duration, '2.000 ms');
      assert.strictEqual(d.fields.Freed, 'yes, at 3.000 ms, after 2.000 ms');
      assert.ok(d.text.includes('model.py(7): matmul'), d.text);
      assert.ok(d.close, 'no x to clear the selection');
    });

    await check(tag + ': a block never freed says so', async () => {
      await clickLaneBar(page, 'aten::keep', 1.5);
      const d = await detail();
      assert.strictEqual(d.fields.Operator, 'aten::keep');
      assert.match(d.fields.Freed, /^never freed: still held when the capture ends \([\d.,]+ ms\)$/);
    });

    await check(tag + ': Escape on the chart, Escape in the panel and its x each clear the selection', async () => {
      await page.keyboard.press('Escape');
      let d = await detail();
      assert.strictEqual(d.selected, -1);
      assert.ok(!d.close);
      assert.deepStrictEqual(d.fields, {});
      await clickLaneBar(page, 'aten::mm', 1);
      await page.focus('.rli-detail-close');
      await page.keyboard.press('Escape');
      d = await detail();
      assert.strictEqual(d.selected, -1, 'Escape in the panel');
      assert.strictEqual(await page.evaluate(() => document.activeElement === window.rliMemory.ganttCanvas), true,
        'the focus goes back to the Gantt');
      await clickLaneBar(page, 'aten::mm', 1);
      await page.click('.rli-detail-close');
      assert.strictEqual((await detail()).selected, -1, 'the x');
    });

    await check(tag + ': ] selects the first allocation to start in view on the top lane, } and { the nearest on the next and the previous lane, each brought into view', async () => {
      await page.evaluate(() => { window.rliMemory.ganttStage.scrollTop = 0; });
      await page.evaluate(() => window.rliMemory.ganttCanvas.focus());
      await page.keyboard.press(']');
      let sel = await current(page);
      assert.ok(sel, 'a first ] selects an allocation');
      assert.strictEqual(sel.lane, 0, 'on the top lane in view');
      assert.ok((await detail()).fields.Operator, 'the details show it');
      const lanes = await page.evaluate(() => window.rliMemory.d.laneFirst.length - 1);
      /* down every lane: the last one (below the Gantt's band) scrolled to */
      for (let k = 1; k < lanes; k++) await page.keyboard.press('}');
      sel = await current(page);
      assert.strictEqual(sel.lane, lanes - 1, JSON.stringify(sel));
      assert.ok(sel.end >= sel.lo && sel.start <= sel.hi, 'in view: ' + JSON.stringify(sel));
      const shown = await page.evaluate(() => {
        const m = window.rliMemory, top = m.laneTop(m.d.lane[m.selected]), stage = m.ganttStage;
        return top >= stage.scrollTop && top + m.geom.pitch <= stage.scrollTop + stage.clientHeight + 1;
      });
      assert.ok(shown, 'the last lane is scrolled into the band');
      await page.keyboard.press('{');
      assert.strictEqual((await current(page)).lane, lanes - 2, '{ moves back up');
      await page.keyboard.press('Escape');
      assert.strictEqual(await current(page), null);
    });

    await check(tag + ': a reload keeps the selection and its details, its lane scrolled into view', async () => {
      /* the last operator's lane, scrolled to, selected; then the lanes back at the top */
      const last = 'op' + String(SELECT_OPS - 1).padStart(2, '0'), at = (SELECT_OPS - 1) * 0.1;
      await page.evaluate(([name, ms]) => {
        const m = window.rliMemory, i = m.findBar(name, ms);
        m.ganttStage.scrollTop = m.laneTop(m.d.lane[i]);
      }, [last, at]);
      await clickLaneBar(page, last, at);
      const before = await detail();
      assert.strictEqual(before.fields.Operator, last);
      await page.waitForTimeout(400);
      assert.match(await page.evaluate(() => location.hash), /sel=\d+/);
      await page.reload();
      await page.waitForFunction(() => window.rliMemory !== undefined);
      const after = await detail();
      assert.strictEqual(after.selected, before.selected);
      assert.deepStrictEqual(after.fields, before.fields);
      assert.ok(after.close);
      const shown = await page.evaluate(() => {
        const m = window.rliMemory, top = m.laneTop(m.d.lane[m.selected]), stage = m.ganttStage;
        return top >= stage.scrollTop && top + m.geom.pitch <= stage.scrollTop + stage.clientHeight;
      });
      assert.ok(shown, 'the selected block\'s lane is out of view after the reload');
      /* nothing has the focus after the reload: Escape is the page's */
      await page.keyboard.press('Escape');
      assert.strictEqual((await detail()).selected, -1, 'Escape after the reload');
    });

    await check(tag + ': Tab reaches every control with a visible focus, the charts are labelled, the lanes scroll by keys where the focus is', async () => {
      const walk = await tabWalk(page, 120);
      assert.deepStrictEqual(walk.missed, [], 'not reached by Tab');
      assert.deepStrictEqual(walk.unmarked, [], 'focused without a visible mark');
      (await canvasLabels(page)).forEach((l) => assert.deepStrictEqual(l, ['img', true]));
      await page.evaluate(() => { window.rliMemory.ganttStage.scrollTop = 0; });
      await page.focus('.rli-gantt canvas');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('PageDown');
      const scrolled = await page.evaluate(() => [window.rliMemory.ganttStage.scrollTop, window.rliMemory.geom.pitch]);
      assert.ok(scrolled[0] > scrolled[1], 'the lanes did not scroll: ' + JSON.stringify(scrolled));
      /* a key on a button is the button's: the range stays */
      const range = await page.evaluate(() => [window.rliMemory.range.lo, window.rliMemory.range.hi]);
      await page.focus('.rli-toolbar button');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('+');
      assert.deepStrictEqual(await page.evaluate(() => [window.rliMemory.range.lo, window.rliMemory.range.hi]), range);
      await page.screenshot({ path: path.join(work, 'memory-select-' + tag + '.png') });
    });

    await check(tag + ': no request off the file system, no console error', async () => {
      assert.deepStrictEqual(browser.problems(), []);
    });
  } finally {
    await browser.close();
  }
}

async function main() {
  const browser = await openBrowser({ viewport: { width: 1280, height: 800 }, ready: 'rliMemory' });
  if (browser === SKIP) return 77;
  try {
    /* 1. the sample: a known bar's call stack, no network */
    if (samples && fs.existsSync(path.join(samples, 'memory_data'))) {
      const out = path.join(work, 'sample');
      const files = run(path.join(samples, 'memory_data'), out);
      await check('sample: exactly memory_timeline_00.html, detail_data_00.js and the viewer they share', async () => {
        assert.deepStrictEqual(files, ['detail_data_00.js', 'memory_timeline_00.html', 'memory_viewer.js']);
      });
      const expected = fs.readFileSync(path.join(samples, 'expected', 'memory_data.parser_output.jsonl'), 'utf8')
        .trim().split('\n').map((line) => JSON.parse(line)).filter((row) => row.size_kb > 0);
      const page = await browser.open(path.join(out, 'memory_timeline_00.html'));
      await check('sample: clicking a known bar shows its call stack', async () => {
        /* the shortest-lived block of the sample, so it is drawn on top */
        const row = expected.reduce((a, b) => (b.duration_ms > 0 && b.duration_ms < a.duration_ms ? b : a));
        /* the page's t = 0: the first allocation (a run of memory records alone) */
        const t0 = Math.min(...expected.map((r) => r.start_time_ms)), at = row.start_time_ms - t0;
        /* as a reader would: zoom to it with Left/Right, in the axis' unit beside them, then click it */
        /* the boxes count in s (the segment spans minutes): a time typed with its own unit is taken in it */
        await setInput(page, 'left', (at - 1).toFixed(3) + ' ms');
        await setInput(page, 'right', (at + 1).toFixed(3) + 'ms');
        await clickBar(page, row.name, at);
        const detail = await page.evaluate(() => ({
          stack: document.querySelector('.rli-stack').textContent,
          text: document.querySelector('.rli-detail-body').innerText
        }));
        assert.strictEqual(detail.stack, row.call_stack || '(empty)');
        assert.ok(detail.text.includes(row.name), detail.text);
        assert.ok(detail.text.includes('Total Allocated'), detail.text);
      });
      await check('sample: the page loaded with no request off the file system and no error', async () => {
        assert.deepStrictEqual(browser.problems(), []);
      });
      await page.close();
    } else {
      console.log('skip sample checks: ' + samples + '/memory_data is absent');
    }

    /* 2. overlaps, Left/Right */
    const overlapIn = path.join(work, 'overlap-in');
    fs.rmSync(overlapIn, { recursive: true, force: true });
    writeCapture(overlapIn, 'a_ascend_pt', 0, 'actor', overlapRows,
      [{ name: 'aten::mm', ts: T0 - 100, dur: 50, stack: 'model.py(7): matmul;\r\ntorch/functional.py(3): mm' }]);
    const overlapOut = path.join(work, 'overlap');
    run(overlapIn, overlapOut);
    let page = await browser.open(path.join(overlapOut, 'memory_timeline_00.html'));
    await check('overlap: the detail list of a known bar is the rule worked out from the rows', async () => {
      await clickBar(page, 'aten::mm', 0);
      const links = await page.evaluate(() => Array.from(document.querySelectorAll('.rli-overlaps a')).map((a) => a.textContent));
      assert.deepStrictEqual(links, expectedOverlaps(0));
      assert.ok(expectedOverlaps(0).length >= 2);
    });
    await check('overlap: the hover lists the same bars, then a link jumps to one of them', async () => {
      const point = await barPoint(page, 'aten::mm', 0);
      await page.mouse.move(point.x, point.y);
      const lines = await page.evaluate(() => document.querySelector('.rli-tooltip').innerText.split('\n'));
      const want = expectedOverlaps(0);
      assert.ok(lines.includes(want.length + ' overlapping:'), lines.join(' | '));
      assert.strictEqual(lines.filter((l) => / at [\d,.]+ ms for /.test(l)).length, want.length);
      await page.click('.rli-overlaps a >> nth=0');
      const operator = await page.evaluate(() => document.querySelector('.rli-fields td').textContent);
      assert.strictEqual(operator, 'aten::mm');
      const size = await page.evaluate(() => document.querySelectorAll('.rli-fields td')[1].textContent);
      assert.ok(want[0].includes(size.split(' (')[0]), size + ' vs ' + want[0]);
    });
    await check('overlap: the matched op had ended: the panel says how long before', async () => {
      const text = await page.evaluate(() => document.querySelector('.rli-match').textContent);
      assert.ok(/matched to an op that ended \d+\.\d ms earlier/.test(text), text);
    });
    await check('overlap: ] and [ step through the lane\'s allocations in time order, every one once', async () => {
      const lane = await page.evaluate(() => {
        const m = window.rliMemory, d = m.d, i = m.findBar('aten::mm', 0);
        return d.lane[i];
      });
      const starts = await page.evaluate((l) => {
        const d = window.rliMemory.d, list = [];
        for (let k = d.laneFirst[l]; k < d.laneFirst[l + 1]; k++) list.push(d.start[k]);
        return list.sort((a, b) => a - b);
      }, lane);
      assert.ok(starts.length >= 10, 'the lane of aten::mm holds its blocks: ' + starts.length);
      await clickBar(page, 'aten::mm', 0);
      await page.evaluate(() => window.rliMemory.ganttCanvas.focus());
      const seen = [(await current(page)).start];
      for (let k = 1; k < starts.length; k++) {
        await page.keyboard.press(']');
        const sel = await current(page);
        assert.strictEqual(sel.lane, lane);
        assert.ok(sel.end >= sel.lo && sel.start <= sel.hi, 'in view: ' + JSON.stringify(sel));
        seen.push(sel.start);
      }
      assert.deepStrictEqual(seen, starts);
      await page.keyboard.press(']');
      assert.strictEqual((await current(page)).start, starts[starts.length - 1], 'past the last nothing moves');
      await page.keyboard.press('[');
      assert.strictEqual((await current(page)).start, starts[starts.length - 2]);
      await page.keyboard.press('Escape');
      await page.evaluate(() => window.rliMemory.range.set(window.rliMemory.range.min, window.rliMemory.range.max, 'test'));
    });
    await check('range: Left/Right set both charts\' range', async () => {
      const left = '3', right = '9.000 ms';
      await setInput(page, 'left', left);
      await setInput(page, 'right', right);
      const state = await page.evaluate(() => ({ curve: window.rliMemory.curveDrawn, gantt: window.rliMemory.ganttDrawn,
        info: window.rliMemory.info.textContent }));
      assert.ok(Math.abs(state.curve[0] - 3) < 1e-9 && Math.abs(state.curve[1] - 9) < 1e-9, JSON.stringify(state));
      assert.deepStrictEqual(state.gantt, state.curve);
      /* bars reaching into [3, 9] ms: the rows' own count */
      const want = overlapRows.filter((r) => (r.at - T0) / 1000 < 9 && (r.at - T0 + r.dur) / 1000 > 3).length;
      assert.ok(state.info.startsWith('Allocations in view: ' + want + ' of ' + overlapRows.length), state.info);
    });
    await check('range: an invalid Left turns red and changes nothing', async () => {
      const before = await page.evaluate(() => window.rliMemory.curveDrawn.slice());
      await setInput(page, 'left', '9.5'); /* past Right */
      const state = await page.evaluate(() => {
        const el = window.rliMemory.leftInput, style = getComputedStyle(el);
        return { cls: el.className, border: style.borderTopColor, bg: style.backgroundColor, drawn: window.rliMemory.curveDrawn };
      });
      assert.ok(state.cls.includes('rli-invalid'));
      assert.strictEqual(state.border, 'rgb(225, 87, 89)');
      assert.strictEqual(state.bg, 'rgb(255, 240, 240)');
      assert.deepStrictEqual(state.drawn, before);
      /* the box keeps what was typed, and the reason is written beside it */
      const said = await page.evaluate(() => [window.rliMemory.leftInput.value, document.querySelector('.rli-range-error').textContent]);
      assert.deepStrictEqual(said, ['9.5', 'Right (9.000 ms) must be after Left (9.500 ms)']);
    });
    await page.close();

    /* 3. segments: every link leads to a file that exists, none to an empty segment */
    const segIn = path.join(work, 'segments-in');
    fs.rmSync(segIn, { recursive: true, force: true });
    const segRows = [{ name: 'aten::empty', kb: 1.5, at: T0, dur: 1000 }];
    for (let i = 1; i < 7500; i++) segRows.push({ name: 'aten::empty', kb: 1.5, at: T0 + 1 + (i % 900), dur: 1 });
    segRows.push({ name: 'aten::zeros', kb: 2, at: T0 + 3000, dur: 0 });
    for (let i = 0; i < 7500; i++) segRows.push({ name: 'aten::empty', kb: 1.5, at: T0 + 3001 + (i % 998), dur: 1 });
    segRows.push({ name: 'aten::empty', kb: 1.5, at: T0 + 3999, dur: 1 });
    writeCapture(segIn, 'a_ascend_pt', 0, 'actor', segRows, []);
    const segOut = path.join(work, 'segments');
    const segFiles = run(segIn, segOut);
    await check('segments: empty segments are not written', async () => {
      assert.deepStrictEqual(segFiles, ['detail_data_00.js', 'detail_data_03.js', 'memory_timeline_00.html', 'memory_timeline_03.html',
        'memory_viewer.js']);
    });
    await check('segments: a page moved away from its files says what it needs', async () => {
      const alone = path.join(work, 'alone'), noData = path.join(work, 'no-data');
      for (const dir of [alone, noData]) {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.mkdirSync(dir);
        fs.copyFileSync(path.join(segOut, 'memory_timeline_03.html'), path.join(dir, 'memory_timeline_03.html'));
      }
      fs.copyFileSync(path.join(segOut, 'memory_viewer.js'), path.join(noData, 'memory_viewer.js'));
      const without = await browser.open(path.join(alone, 'memory_timeline_03.html'), { ready: null, missingFiles: true });
      assert.match(await without.evaluate(() => document.body.innerText),
        /drawn by memory_viewer\.js from its data, detail_data_03\.js: keep the files of a run together/);
      await without.close();
      const withoutData = await browser.open(path.join(noData, 'memory_timeline_03.html'), { ready: null, missingFiles: true });
      await withoutData.waitForSelector('.rli-load-error');
      const text = await withoutData.evaluate(() => document.body.innerText);
      assert.match(text, /The data of this page \(detail_data_03\.js\) is missing/);
      assert.doesNotMatch(text, /drawn by memory_viewer/);
      await withoutData.close();
    });
    await check('segments: a browser that cannot inflate the data says so', async () => {
      const old = await browser.context.newPage();
      await old.addInitScript(() => { delete window.DecompressionStream; });
      await old.goto('file://' + path.resolve(segOut, 'memory_timeline_03.html'));
      await old.waitForSelector('.rli-load-error');
      assert.match(await old.evaluate(() => document.body.innerText), /needs a browser that can inflate its data/);
      await old.close();
    });
    await check('segments: every script a page loads is a file beside it', async () => {
      for (const name of ['memory_timeline_00.html', 'memory_timeline_03.html']) {
        const sources = [...fs.readFileSync(path.join(segOut, name), 'utf8').matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
        assert.deepStrictEqual(sources, [name.replace('memory_timeline_', 'detail_data_').replace('.html', '.js'), 'memory_viewer.js']);
        for (const source of sources) assert.ok(fs.existsSync(path.join(segOut, source)), source);
      }
    });
    for (const name of ['memory_timeline_00.html', 'memory_timeline_03.html']) {
      page = await browser.open(path.join(segOut, name));
      await check(name + ': Prev/Next and Go point to files that exist', async () => {
        const hrefs = await page.evaluate(() => Array.from(document.querySelectorAll('a[href]')).map((a) => a.getAttribute('href')));
        assert.ok(hrefs.length >= 1, 'a link to the other segment');
        hrefs.filter((h) => h !== '#').forEach((h) => assert.ok(fs.existsSync(path.join(segOut, h.split('#')[0])), h));
        /* move the view over the other segment: the hint offers it */
        const other = name.endsWith('00.html') ? [3.2, 3.8] : [0.2, 0.8];
        const go = await page.evaluate((o) => { const m = window.rliMemory; m.range.set(o[0], o[1], 'test');
          const a = document.querySelector('.rli-hint a'); return a && a.getAttribute('href'); }, other);
        assert.ok(go, 'a Go link');
        assert.ok(fs.existsSync(path.join(segOut, go.split('#')[0])), go);
        assert.ok(!/_0[12]\.html/.test(go), go);
      });
      await page.close();
    }

    /* 4. hostile names and stacks: text, never markup; several devices: the index */
    const evilIn = path.join(work, 'hostile-in');
    fs.rmSync(evilIn, { recursive: true, force: true });
    writeCapture(evilIn, 'a_ascend_pt', 0, HOSTILE_ROLE, [{ name: HOSTILE_OP, kb: 64, at: T0 + 1000, dur: 500 },
      { name: 'aten::add', kb: 8, at: T0 + 1200, dur: '' }],
    [{ name: HOSTILE_OP, ts: T0 + 900, dur: 400, stack: HOSTILE_STACK }]);
    writeCapture(evilIn, 'b_ascend_pt', 1, 'actor', [{ name: 'aten::mul', kb: 4, at: T0, dur: 10 }], []);
    const evilOut = path.join(work, 'hostile');
    const evilFiles = run(evilIn, evilOut);
    const evilPage = evilFiles.find((f) => /^memory_timeline_.*rank0_00\.html$/.test(f));
    await check('hostile: file-safe names per device, and the run\'s home page', async () => {
      assert.ok(fs.existsSync(path.join(evilOut, 'index.html')));
      assert.ok(evilPage && /^[A-Za-z0-9._-]+$/.test(evilPage), evilFiles.join(' '));
      assert.ok(evilFiles.includes('memory_timeline_actor_rank1_00.html'), evilFiles.join(' '));
      assert.ok(evilFiles.includes('memory_viewer.js'), evilFiles.join(' '));
      assert.strictEqual(evilFiles.length, 5);
    });
    page = await browser.open(path.join(evilOut, evilPage));
    await check('hostile: names and stacks show as text and run nothing', async () => {
      await clickBar(page, HOSTILE_OP, 1);
      const point = await barPoint(page, HOSTILE_OP, 1);
      await page.mouse.move(point.x, point.y);
      const state = await page.evaluate(() => ({
        pwned: window.__pwned, imgs: document.querySelectorAll('img').length, injected: !!document.getElementById('injected'),
        op: document.querySelector('.rli-fields td').textContent, stack: document.querySelector('.rli-stack').textContent,
        title: document.querySelector('h1').textContent, tip: document.querySelector('.rli-tooltip').textContent,
        scripts: document.querySelectorAll('script').length
      }));
      assert.strictEqual(state.pwned, undefined);
      assert.strictEqual(state.imgs, 0);
      assert.strictEqual(state.injected, false);
      assert.strictEqual(state.op, HOSTILE_OP);
      assert.strictEqual(state.stack, HOSTILE_STACK);
      assert.ok(state.title.includes(HOSTILE_ROLE), state.title);
      assert.ok(state.tip.includes(HOSTILE_OP), state.tip);
      assert.strictEqual(state.scripts, 3);
    });
    await page.close();
    page = await browser.context.newPage();
    await page.goto('file://' + path.join(evilOut, 'index.html'));
    await check('home: every link points to a file that exists; the role is text', async () => {
      const state = await page.evaluate(() => ({
        hrefs: Array.from(document.querySelectorAll('a[href]')).map((a) => a.getAttribute('href')),
        text: document.body.innerText, injected: !!document.getElementById('injected'), pwned: window.__pwned
      }));
      /* both devices' pages and summary.json */
      assert.ok(state.hrefs.length >= 3, JSON.stringify(state.hrefs));
      state.hrefs.forEach((h) => assert.ok(fs.existsSync(path.join(evilOut, h.split('#')[0])), h));
      assert.ok(state.text.includes(HOSTILE_ROLE));
      assert.strictEqual(state.injected, false);
      assert.strictEqual(state.pwned, undefined);
    });
    await check('home: each device\'s peak, as its curve gives it (never-freed blocks live to the end)', async () => {
      const rows = await page.evaluate(() => Array.from(document.querySelectorAll('table.rli-outputs tbody tr'))
        .map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)));
      const byLabel = {};
      rows.forEach((r) => { byLabel[r[0]] = r; });
      /* Peak times are ms from the run's t = 0, its first allocation of all, T0 (the actor's). */
      /* actor rank 1: one block of 4 KB at T0 */
      const actor = byLabel['actor - Rank 1'];
      assert.ok(actor, JSON.stringify(rows));
      assert.strictEqual(actor[1], 'Memory peak 4.00 KB at 0.000 ms; 1 allocations, 0 never freed; 1 page');
      /* the hostile device: 64 KB from T0 + 1 ms for 0.5 ms, 8 KB from T0 + 1.2 ms never freed, alive to
         T0 + 1.5 ms: 72 KB, first reached at T0 + 1.2 ms */
      const hostile = rows.find((r) => r[0].includes(HOSTILE_ROLE));
      assert.ok(hostile, JSON.stringify(rows));
      assert.strictEqual(hostile[1], 'Memory peak 72.0 KB at 1.200 ms; 2 allocations, 1 never freed; 1 page');
    });
    await page.close();

    /* 5. a PyTorch trace: a device per CUDA id, named by it; the Total Reserved as a second line with a legend */
    const torchIn = path.join(work, 'torch-in');
    fs.rmSync(torchIn, { recursive: true, force: true });
    writeTorchTrace(torchIn);
    const torchOut = path.join(work, 'torch');
    const torchFiles = run(torchIn, torchOut, [], 'torch_memory');
    await check('torch: a page per CUDA device of the rank, named by its id', async () => {
      assert.deepStrictEqual(torchFiles, ['detail_data_actor_rank0_CUDA_0_00.js', 'detail_data_actor_rank0_CUDA_1_00.js',
        'memory_timeline_actor_rank0_CUDA_0_00.html', 'memory_timeline_actor_rank0_CUDA_1_00.html',
        'memory_viewer.js']);
    });
    page = await browser.open(path.join(torchOut, 'memory_timeline_actor_rank0_CUDA_0_00.html'));
    await check('torch: the reserved line\'s points are the rows\' Total Reserved, as steps', async () => {
      const state = await page.evaluate(() => ({ title: document.querySelector('h1').textContent,
        lines: window.rliMemory.d.lines.map((l) => ({ x: Array.from(l.x), y: Array.from(l.y), name: l.name || null })) }));
      assert.ok(state.title.includes('actor - Rank 0 CUDA:0'), state.title);
      assert.strictEqual(state.lines.length, 3);
      const reserved = state.lines[2];
      assert.strictEqual(reserved.name, 'Reserved (allocator cache)');
      assert.strictEqual(state.lines[0].name, 'Total Allocated (allocator)');
      assert.strictEqual(reserved.x.length, RESERVED_CUDA0.x.length, JSON.stringify(reserved));
      reserved.x.forEach((x, i) => assert.ok(Math.abs(x - RESERVED_CUDA0.x[i]) < 1e-6, JSON.stringify(reserved)));
      assert.deepStrictEqual(reserved.y, RESERVED_CUDA0.y);
    });
    await check('torch: the curve is the allocator\'s Total Allocated at every event, 100 MiB from before the capture too', async () => {
      const want = TORCH_EVENTS.filter((e) => e[3] === 0).map((e) => e[5]);
      const d = await page.evaluate(() => ({ t: Array.from(window.rliMemory.d.curve.t), v: Array.from(window.rliMemory.d.curve.v) }));
      /* the steps' values after each moment, in order: the events' own totals */
      assert.deepStrictEqual(d.v.map((v) => Math.round(v * 1000) / 1000), want, JSON.stringify(d));
      /* and at each moment, as the tooltip reads it */
      const at = await page.evaluate((t) => t.map((x) => window.rliMemory.curveAt(x)), d.t);
      assert.deepStrictEqual(at.map((v) => Math.round(v * 1000) / 1000), want);
      /* and the page says what was there before the capture */
      const note = await page.evaluate(() => (document.querySelector('.rli-chart-note') || {}).textContent);
      assert.strictEqual(note, 'Total Allocated as the allocator counts it: 100.00 MB already allocated when the capture began');
    });
    await check('torch: the page draws the reserved line in its colour, over the y range it needs', async () => {
      /* the canvas at the line's 8 MiB step, halfway along it: orange (#f28e2b) within a pixel or two */
      const found = await page.evaluate(() => {
        const m = window.rliMemory, ratio = window.devicePixelRatio || 1, ctx = m.curveCanvas.getContext('2d');
        const x = Math.round(m.xOf(0.45) * ratio), y = Math.round(m.yOfValue(8) * ratio);
        const px = ctx.getImageData(x - 2, y - 2, 5, 5).data;
        let orange = 0;
        for (let i = 0; i < px.length; i += 4)
          if (px[i] > 200 && px[i + 1] > 110 && px[i + 1] < 170 && px[i + 2] < 90) orange++;
        return { orange, yMax: m.curveModel.yMax };
      });
      assert.ok(found.orange > 0, JSON.stringify(found));
      assert.ok(found.yMax >= 8, JSON.stringify(found));
    });
    await check('torch: hovering the curve tells the reserved value there', async () => {
      const point = await page.evaluate(() => {
        const m = window.rliMemory, box = m.curveCanvas.getBoundingClientRect();
        return { x: box.left + m.xOf(0.45), y: box.top + m.yOfValue(1) };
      });
      await page.mouse.move(point.x, point.y);
      const tip = await page.evaluate(() => document.querySelector('.rli-tooltip').innerText);
      assert.ok(tip.includes('Reserved: 8.000 MB'), tip);
      /* the value axis counts to a little above what the view holds, in MB with its unit named */
      const axis = await page.evaluate(() => window.rliMemory.yAxis);
      assert.strictEqual(axis.title, 'Memory (MB)');
    });
    await page.close();
    page = await browser.open(path.join(overlapOut, 'memory_timeline_00.html'));
    await check('Ascend: the curve has no reserved line and no named line', async () => {
      const lines = await page.evaluate(() => window.rliMemory.d.lines.map((l) => l.name || null));
      assert.deepStrictEqual(lines, [null, null]);
    });
    await page.close();
    page = await browser.context.newPage();
    await page.goto('file://' + path.join(torchOut, 'index.html'));
    await check('torch home: the two devices of rank 0 by their ids', async () => {
      const names = await page.evaluate(() => Array.from(document.querySelectorAll('table.rli-outputs tbody tr'))
        .map((tr) => tr.querySelector('td').textContent).filter((name) => /Rank/.test(name)));
      assert.deepStrictEqual(names, ['actor - Rank 0 CUDA:0', 'actor - Rank 0 CUDA:1']);
    });
    await page.close();
    await check('no page asked the network for anything, and none raised an error', async () => {
      assert.deepStrictEqual(browser.problems(), []);
    });

    /* the selection, at a laptop's and a desktop's size */
    const selectIn = path.join(work, 'select-in'), selectOut = path.join(work, 'select');
    fs.rmSync(selectIn, { recursive: true, force: true });
    writeCapture(selectIn, 'a_ascend_pt', 0, 'actor', selectRows(),
      [{ name: 'aten::mm', ts: T0 + 900, dur: 300, stack: 'model.py(7): matmul;\r\ntorch/functional.py(3): mm' }]);
    run(selectIn, selectOut);
    for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }])
      await selectionChecks(selectOut, size);
  } finally {
    await browser.close();
  }
  return failures() ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => { console.log('FAIL ' + (error && error.stack || error)); process.exit(1); });
