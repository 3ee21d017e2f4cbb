/* legend_test.js: the timeline page's legend, and a memory page's of its lines, at 1280x800 and 1920x1080: in view, every name with the layout's colour, a name hidden and shown again by click, by Enter and by Space. */
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const zlib = require('zlib');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');

/* The NVTX sample's shape: three ranges, a row each, on two ranks; the rows say the names, so the chart has no legend of its own. */
function nvtxTree(dir) {
  const names = ['compute_log_prob', 'compute_values', 'update_critic'];
  fs.mkdirSync(dir, { recursive: true });
  for (let rank = 0; rank < 2; rank++) {
    const lines = names.map((value, i) => JSON.stringify({ id: i + 1, table: 'StringIds', value }));
    lines.push(JSON.stringify({ startTime: 1000000, table: 'ANALYSIS_DETAILS' }));
    lines.push(JSON.stringify({ name: 'ENVIRONMENT_VARIABLE', table: 'META_DATA_CAPTURE', value: 'RANK=' + rank }));
    names.forEach((_, i) => lines.push(JSON.stringify({ eventType: 60, start: i * 20e9, end: i * 20e9 + 15e9, textId: i + 1 })));
    fs.writeFileSync(path.join(dir, 'worker_process_' + (70000 + rank) + '.' + (rank + 1) + '.jsonl'), lines.join('\n') + '\n');
  }
}

/* A PyTorch trace of [memory] events on CUDA:0 with the allocator's totals: the page has two named lines, Allocated and Reserved. */
function torchMemoryTree(dir) {
  const MIB = 1024 * 1024, T0 = 1700000000000000;
  const rows = [[0, 1, 0xA000, 4, 1], [100, 2, 0xB000, 8, 3], [500, -1, 0xA000, 8, 2], [800, -2, 0xB000, 6, 0]];
  const events = [{ ph: 'X', cat: 'cpu_op', name: 'aten::mm', pid: 1, tid: 1, ts: T0 - 10, dur: 1000 }].concat(
    rows.map(([at, mib, addr, reserved, allocated]) => ({ ph: 'i', cat: 'cpu_instant_event', s: 't', name: '[memory]',
      pid: 1, tid: 1, ts: T0 + at, args: { Bytes: mib * MIB, Addr: addr, 'Device Type': 1, 'Device Id': 0,
        'Total Allocated': allocated * MIB, 'Total Reserved': reserved * MIB } })));
  fs.mkdirSync(path.join(dir, 'actor'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'actor', 'prof_rank-0_000000.json.gz'), zlib.gzipSync(JSON.stringify({
    distributedInfo: { backend: 'nccl', rank: 0, world_size: 1 }, traceEvents: events })));
}

/* The legend's buttons as the reader sees them: name, swatch colour, pressed, in the window. */
function readLegend(page) {
  return page.evaluate(() => {
    const buttons = Array.from(document.querySelectorAll('.rli-series-legend-entry, button.rli-legend-entry'));
    return buttons.map((b) => {
      const r = b.getBoundingClientRect(), swatch = b.querySelector('span');
      return {
        name: b.textContent.trim(), series: Number(b.dataset.series), pressed: b.getAttribute('aria-pressed'),
        color: getComputedStyle(swatch).backgroundColor, visible: r.width > 0 && r.height > 0 && r.top >= 0 &&
          r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth,
      };
    });
  });
}

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return 'rgb(' + (n >> 16 & 255) + ', ' + (n >> 8 & 255) + ', ' + (n & 255) + ')';
}

async function main() {
  const [bin, outDir] = process.argv.slice(2);
  const { check, failures } = makeChecks();
  fs.rmSync(outDir, { recursive: true, force: true });
  nvtxTree(path.join(outDir, 'in'));
  execFileSync(bin, ['-q', '--input-path', path.join(outDir, 'in'), '--vis-type', 'html',
    '--output-path', path.join(outDir, 'out')], { stdio: 'inherit' });
  const file = path.join(outDir, 'out', 'rl_timeline.html');
  torchMemoryTree(path.join(outDir, 'torch-in'));
  execFileSync(bin, ['-q', '--input-path', path.join(outDir, 'torch-in'), '--profiler-type', 'torch_memory', '--vis-type', 'html',
    '--output-path', path.join(outDir, 'torch')], { stdio: 'inherit' });
  const memoryFile = path.join(outDir, 'torch', fs.readdirSync(path.join(outDir, 'torch')).filter((f) => /^memory_timeline_.*\.html$/.test(f))[0] || 'none');

  for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
    const tag = size.width + 'x' + size.height;
    const browser = await openBrowser({ viewport: size });
    if (browser === SKIP) return 77;
    try {
      const page = await browser.open(file);
      const series = await page.evaluate(() => window.rliTimeline.timeline.model.series);

      await check(tag + ': a legend in view names every series in its colour', async () => {
        const legend = await readLegend(page);
        assert.deepStrictEqual(legend.map((e) => e.name), series.map((s) => s.name));
        legend.forEach((e, i) => {
          assert.ok(e.visible, e.name + ' is not in the window');
          assert.strictEqual(e.color, rgb(series[i].color), e.name + "'s swatch is not the layout's colour");
          assert.strictEqual(e.pressed, 'true');
        });
      });

      /* the canvas at the middle of a bar of series s: its colour, or the background once hidden */
      const barPixel = (s) => page.evaluate((name) => {
        const api = window.rliTimeline, rows = api.state().rows;
        const position = rows.findIndex((label) => label.startsWith(name + ' '));
        const t = api.timeline.model.series.findIndex((x) => x.name === name) * 20000 + 7500;
        return api.pixelAt(t, position).slice(0, 3);
      }, series[s].name);
      const hex = (c) => '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');

      await check(tag + ': a click hides the name and its bars, a second shows them', async () => {
        assert.strictEqual(hex(await barPixel(1)), series[1].color);
        await page.click('.rli-series-legend-entry[data-series="1"]');
        assert.deepStrictEqual((await page.evaluate(() => window.rliTimeline.state())).hidden, [0, 1, 0]);
        assert.strictEqual((await readLegend(page))[1].pressed, 'false');
        assert.notStrictEqual(hex(await barPixel(1)), series[1].color);
        await page.click('.rli-series-legend-entry[data-series="1"]');
        assert.deepStrictEqual((await page.evaluate(() => window.rliTimeline.state())).hidden, [0, 0, 0]);
        assert.strictEqual(hex(await barPixel(1)), series[1].color);
      });

      await check(tag + ': Tab reaches the legend; Enter and Space hide and show a name', async () => {
        await page.focus('.rli-series-legend-entry[data-series="0"]');
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => document.activeElement.dataset.series);
        assert.strictEqual(focused, '1', 'Tab from the first name goes to the second');
        await page.keyboard.press('Enter');
        assert.deepStrictEqual((await page.evaluate(() => window.rliTimeline.state())).hidden, [0, 1, 0]);
        await page.keyboard.press(' ');
        assert.deepStrictEqual((await page.evaluate(() => window.rliTimeline.state())).hidden, [0, 0, 0]);
        /* the focus is visible: an outline */
        const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
        assert.notStrictEqual(outline, 'none');
      });

      await check(tag + ': the legend follows the other ways to hide a name (the table, the URL)', async () => {
        await page.evaluate(() => window.rliTimeline.toggleSeries(2));
        assert.strictEqual((await readLegend(page))[2].pressed, 'false');
        await page.evaluate(() => window.rliTimeline.toggleSeries(2));
        assert.strictEqual((await readLegend(page))[2].pressed, 'true');
        await page.goto('file://' + path.resolve(file) + '#hidden=0');
        await page.reload();
        await page.waitForFunction(() => window.rliTimeline !== undefined);
        assert.strictEqual((await readLegend(page))[0].pressed, 'false');
      });

      await check(tag + ': the legend leaves the chart in the window', async () => {
        const layout = await page.evaluate(() => window.rliTimeline.layout());
        assert.ok(layout.axis.bottom <= size.height, 'the axis ends at ' + layout.axis.bottom);
      });
      await page.screenshot({ path: path.join(outDir, 'legend.' + tag + '.png') });

      const memory = await browser.open(memoryFile, { ready: 'rliMemory' });
      const lines = await memory.evaluate(() => window.rliMemory.d.lines.filter((l) => l.name).map((l) => ({ name: l.name, color: l.color })));
      /* the canvas at the reserved line's 8 MiB step: its colour, or not once hidden */
      const reservedInk = () => memory.evaluate(() => {
        const m = window.rliMemory, ratio = window.devicePixelRatio || 1, ctx = m.curveCanvas.getContext('2d');
        const px = ctx.getImageData(Math.round(m.xOf(0.3) * ratio) - 2, Math.round(m.yOfValue(8) * ratio) - 2, 5, 5).data;
        const want = m.d.lines[2].color, r = parseInt(want.slice(1, 3), 16), g = parseInt(want.slice(3, 5), 16), b = parseInt(want.slice(5, 7), 16);
        let ink = 0;
        for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - r) + Math.abs(px[i + 1] - g) + Math.abs(px[i + 2] - b) < 40) ink++;
        return ink;
      });
      await check(tag + ': the memory page names its two lines in their colours, above the curve', async () => {
        assert.strictEqual(lines.length, 2);
        const legend = await readLegend(memory);
        assert.deepStrictEqual(legend.map((e) => e.name), lines.map((l) => l.name));
        legend.forEach((e, i) => {
          assert.ok(e.visible, e.name + ' is not in the window');
          assert.strictEqual(e.color, rgb(lines[i].color));
          assert.strictEqual(e.pressed, 'true');
        });
        const above = await memory.evaluate(() => document.querySelector('.rli-series-legend').getBoundingClientRect().bottom <=
          window.rliMemory.curveCanvas.getBoundingClientRect().top + 1);
        assert.ok(above, 'the legend is not above the curve');
      });
      await check(tag + ': the memory page hides the reserved line by click and by Enter, and shows it again', async () => {
        assert.ok(await reservedInk() > 0, 'the reserved line is not drawn');
        await memory.click('.rli-series-legend-entry[data-series="1"]');
        assert.strictEqual((await readLegend(memory))[1].pressed, 'false');
        assert.strictEqual(await reservedInk(), 0, 'the hidden line is still drawn');
        await memory.focus('.rli-series-legend-entry[data-series="1"]');
        await memory.keyboard.press('Enter');
        assert.strictEqual((await readLegend(memory))[1].pressed, 'true');
        assert.ok(await reservedInk() > 0, 'the line shown again is not drawn');
      });
      await memory.screenshot({ path: path.join(outDir, 'memory-legend.' + tag + '.png') });
      await memory.close();
      await check(tag + ': no console error, no request', async () => assert.deepStrictEqual(browser.problems(), []));
    } finally {
      await browser.close();
    }
  }
  return failures() ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });
