/* browser_test.js: drives rl_timeline.html in headless Debian chromium with the network cut off, and checks what a user sees. */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const assert = require('assert');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');
const { decodePng } = require('./png_decode');

const driver = process.argv[2];
const outDir = process.argv[3] || fs.mkdtempSync(path.join(os.tmpdir(), 'rli-html-'));

const HOSTILE_ROLE = '</script><img src=x onerror="window.__pwned=1;alert(1)">';
const HOSTILE_NAME = '<img src=x onerror=alert(2)>&amp;\u2028\'"</style>';
const HOSTILE_NAME_2 = '</script><script>window.__pwned=2</script><!--';

const { check, failures } = makeChecks();

function expectFor(name) {
  return JSON.parse(fs.readFileSync(path.join(outDir, name + '.expect.json'), 'utf8'));
}

/* The bar a user sees at time t on a row: the last-drawn one (highest series, then latest) covering t. */
function topBarAt(expect, row, t) {
  let best = null;
  expect.bars.forEach((bar, index) => {
    if (bar.row !== row || bar.start > t || bar.end < t) return;
    const series = expect.series.indexOf(bar.name);
    if (!best || series > best.series || (series === best.series && index > best.index)) best = { bar, series, index };
  });
  return best && best.bar;
}

async function tooltipLines(page) {
  return page.evaluate(() => {
    const tip = document.querySelector('.rli-tooltip');
    if (!tip || getComputedStyle(tip).display === 'none') return null;
    return tip.innerText.split('\n').map((line) => line.trim()).filter(Boolean);
  });
}

async function hover(page, t, position) {
  /* the row scrolled into the rows' band, then the band into the window if the window is short */
  const point = await page.evaluate(([time, pos]) => {
    window.rliTimeline.revealRow(pos);
    let p = window.rliTimeline.clientPoint(time, pos);
    if (p.y < 0 || p.y >= window.innerHeight) {
      window.scrollBy(0, p.y - window.innerHeight / 2);
      p = window.rliTimeline.clientPoint(time, pos);
    }
    return p;
  }, [t, position]);
  await page.mouse.move(point.x, point.y);
  return tooltipLines(page);
}

/* The page's bars, decoded, against the model the C driver recorded: same rows, series, exact times. */
async function checkDecoded(page, expect) {
  const decoded = await page.evaluate(() => {
    const b = window.rliTimeline.timeline.bars, out = [];
    b.rowRuns.forEach((runs, row) => runs.forEach((run) => {
      for (let i = b.runFirst[run]; i < b.runFirst[run + 1]; i++) out.push([row, b.runSeries[run], b.start[i], b.end[i]]);
    }));
    return out;
  });
  assert.strictEqual(decoded.length, expect.bars.length);
  decoded.forEach((d, i) => {
    const bar = expect.bars[i];
    assert.deepStrictEqual(d, [bar.row, expect.series.indexOf(bar.name), bar.start, bar.end], 'bar ' + i);
  });
}

async function state(page) {
  return page.evaluate(() => window.rliTimeline.state());
}

/* "1,234.567": what the page's tables and boxes write (rli_fmt_thousands), for expected values */
function fmtThousands(value, decimals) {
  const [integer, fraction] = Math.abs(value).toFixed(decimals).split('.');
  const sign = value < 0 && Number(value.toFixed(decimals)) !== 0 ? '-' : '';
  return sign + integer.replace(/\B(?=(\d{3})+$)/g, ',') + (fraction !== undefined ? '.' + fraction : '');
}

function hexToRgb(hex) {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/* The two windows every layout check runs in: a laptop's and a desktop's. */
const WINDOWS = [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }];

/*
 * The height in CSS px of the ink (pixels well darker than the white page)
 * the canvas holds inside a client rectangle: how tall text is really drawn.
 */
async function inkHeight(page, rect) {
  return page.evaluate((r) => {
    const t = window.rliTimeline.timeline, canvas = t.canvas, box = canvas.getBoundingClientRect(), k = t.deviceScale;
    const x0 = Math.max(0, Math.floor((r.left - box.left) * k)), x1 = Math.min(canvas.width, Math.ceil((r.right - box.left) * k));
    const y0 = Math.max(0, Math.floor((r.top - box.top) * k)), y1 = Math.min(canvas.height, Math.ceil((r.bottom - box.top) * k));
    if (x1 <= x0 || y1 <= y0) return 0;
    const w = x1 - x0, data = canvas.getContext('2d').getImageData(x0, y0, w, y1 - y0).data;
    let first = -1, last = -1;
    for (let y = 0; y < y1 - y0; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        if (data[i] + data[i + 1] + data[i + 2] < 3 * 150) {
          if (first < 0) first = y;
          last = y;
          break;
        }
      }
    }
    return first < 0 ? 0 : (last - first + 1) / k;
  }, rect);
}

async function layoutOf(page) {
  return page.evaluate(() => window.rliTimeline.layout());
}

/* The checks that depend on the window's size, run once per window in WINDOWS. */
async function windowChecks(browser, size) {
  const tag = size.width + 'x' + size.height;
  const known = expectFor('known');
  const laptop = expectFor('laptop');
  const kpage = await browser.open(path.join(outDir, 'known.html'));
  const lpage = await browser.open(path.join(outDir, 'laptop.html'));
  const model = await lpage.evaluate(() => JSON.parse(document.getElementById('rli-model').textContent));

  await check(tag + ' laptop: the page is laid out to the window, its text at least 11 CSS px', async () => {
    const layout = await layoutOf(lpage);
    for (const [name, px] of [['row labels', layout.rowLabelPx], ['tick labels', layout.tickLabelPx], ['title', layout.titlePx]])
      assert.ok(px >= 11, name + ' at ' + px + ' px');
    assert.ok(layout.legendPx.length === model.series.length && layout.legendPx.every((px) => px >= 11), 'legend ' + JSON.stringify(layout.legendPx));
    /* the figure is the window's width, not the 2000-unit page scaled down, and nothing runs past the window */
    assert.ok(layout.canvas.right <= size.width && layout.canvas.right > size.width - 40, JSON.stringify(layout.canvas));
    assert.ok(await lpage.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth));
    /* the same factor for every length: label size and row pitch keep the model's ratio, so its label thinning holds */
    assert.ok(Math.abs(layout.rowPitchPx / layout.rowLabelPx - model.rowPitch / model.rowLabels[0].size) < 1e-9);
    /* the model's tick density (page units per tick) at the window's scale */
    const plotWidth = layout.plot.right - layout.plot.left;
    assert.strictEqual(layout.tickTarget, Math.max(2, Math.round(plotWidth / (model.plot[2] / model.xtickTarget * layout.textScale))));
    const ticks = (await state(lpage)).ticks;
    assert.ok(ticks.length >= layout.tickTarget / 2 && ticks.length <= layout.tickTarget + 1, JSON.stringify([layout.tickTarget, ticks]));
  });

  await check(tag + ' known: row labels are drawn at least 11 CSS px tall (ink on the canvas)', async () => {
    /* "actor - Rank 0": no descender, so its ink is the ascender height, 0.73-0.76 of the font size in DejaVu Sans */
    const layout = await layoutOf(kpage);
    await kpage.evaluate(() => window.rliTimeline.revealRow(0));
    const centre = await kpage.evaluate(() => window.rliTimeline.clientPoint(0, 0));
    const ink = await inkHeight(kpage, { left: layout.canvas.left, right: layout.rowLabelRight + 1, top: centre.y - layout.rowLabelPx, bottom: centre.y + layout.rowLabelPx });
    assert.ok(ink >= 0.7 * 11, 'label ink ' + ink + ' px for a ' + layout.rowLabelPx + ' px font');
    assert.ok(ink <= layout.rowLabelPx, 'label ink ' + ink + ' px is one line of text');
  });

  await check(tag + ' laptop: the time axis stays in the window while 24 rows scroll under it', async () => {
    const top = await layoutOf(lpage);
    const inWindow = (r) => r.top >= 0 && r.bottom <= size.height;
    assert.ok(inWindow(top.axis), 'axis ' + JSON.stringify(top.axis) + ' in a ' + tag + ' window');
    assert.ok(top.axis.top >= top.plot.bottom - 0.5);
    assert.ok(await inkHeight(lpage, top.axis) >= 11, 'tick labels and the axis title are drawn in the axis box');
    assert.strictEqual(await lpage.evaluate(() => window.scrollY), 0);
    const rowsInBand = (top.plot.bottom - top.plot.top) / top.rowPitchPx;
    if (size.height <= 800) assert.ok(rowsInBand < 24 && top.maxScroll > 0, 'at ' + tag + ' the 24 rows need scrolling');
    /* scrolled to the last row: the axis has not moved and the last row is in the band */
    await lpage.evaluate(() => window.rliTimeline.scrollRows(1e9));
    const bottom = await layoutOf(lpage);
    assert.deepStrictEqual(bottom.axis, top.axis);
    assert.strictEqual(bottom.scrollTop, top.maxScroll);
    const last = laptop.bars.filter((b) => b.row === 23)[0];
    const point = await lpage.evaluate(([t]) => window.rliTimeline.clientPoint(t, 23), [(last.start + last.end) / 2]);
    assert.ok(point.y > bottom.plot.top && point.y < bottom.plot.bottom, 'last row at ' + point.y + ' in ' + JSON.stringify(bottom.plot));
    await lpage.mouse.move(point.x, point.y);
    assert.deepStrictEqual(await tooltipLines(lpage), topBarAt(laptop, 23, (last.start + last.end) / 2).hover);
    /* a wheel over the row labels scrolls the rows back (over the plot it zooms) */
    if (top.maxScroll > 0) {
      const range = await state(lpage);
      await lpage.mouse.move((bottom.canvas.left + bottom.rowLabelRight) / 2, (bottom.plot.top + bottom.plot.bottom) / 2);
      await lpage.mouse.wheel(0, -100000);
      await lpage.waitForFunction(() => window.rliTimeline.state().scrollTop === 0);
      const after = await state(lpage);
      assert.deepStrictEqual([after.left, after.right], [range.left, range.right]);
      assert.deepStrictEqual((await layoutOf(lpage)).axis, top.axis);
    }
  });

  await check(tag + ' laptop: the tooltip\'s Rank line is the rank of the hovered row', async () => {
    for (let row = 0; row < laptop.rows.length; row++) {
      const bar = laptop.bars.find((b) => b.row === row);
      const t = (bar.start + bar.end) / 2;
      const lines = await hover(lpage, t, row);
      assert.deepStrictEqual(lines, topBarAt(laptop, row, t).hover, 'row ' + row);
      assert.strictEqual(lines[4], 'Rank: ' + bar.rank);
      assert.ok(/^Rank: \d+$/.test(lines[4]));
    }
    await lpage.mouse.move(1, 1);
  });

  await check(tag + ' laptop: the Order button says which order is in force and switches it', async () => {
    const button = () => lpage.evaluate(() => document.querySelector('.rli-toolbar [data-action="order"]').textContent);
    assert.strictEqual(await button(), 'Order: by rank');
    assert.deepStrictEqual((await state(lpage)).rows, laptop.rows);
    await lpage.click('.rli-toolbar [data-action="order"]');
    assert.strictEqual(await button(), 'Order: by role');
    assert.deepStrictEqual((await state(lpage)).rows, laptop.roleOrder);
    await lpage.click('.rli-toolbar [data-action="order"]');
    assert.strictEqual(await button(), 'Order: by rank');
    assert.deepStrictEqual((await state(lpage)).rows, laptop.rows);
  });

  await check(tag + ' laptop: Left/Right refuse a reversed or outside range in red and keep the last valid one', async () => {
    const left = '.rli-range label:nth-of-type(1) input', right = '.rli-range label:nth-of-type(2) input';
    const boxes = () => lpage.evaluate(() => Array.from(document.querySelectorAll('.rli-range input')).map((input) => ({
      value: input.value, invalid: input.classList.contains('rli-invalid'), aria: input.getAttribute('aria-invalid'),
      border: getComputedStyle(input).borderTopColor })));
    const message = () => lpage.evaluate(() => document.querySelector('.rli-range-error').textContent);
    const RED = 'rgb(198, 40, 40)';
    await lpage.fill(left, '100');
    await lpage.press(left, 'Enter');
    let s = await state(lpage);
    assert.deepStrictEqual([s.left, s.right], [100, laptop.xMax]);
    const normalBorder = (await boxes())[1].border;
    assert.notStrictEqual(normalBorder, RED);

    /* Right <= Left: the Right box turns red, keeps showing what was typed, and the range stays */
    await lpage.fill(right, '50');
    await lpage.press(right, 'Enter');
    let b = await boxes();
    assert.deepStrictEqual([b[1].value, b[1].invalid, b[1].aria, b[1].border], ['50', true, 'true', RED]);
    assert.strictEqual(b[0].invalid, false);
    assert.strictEqual(await message(), 'Right (50.000 ms) must be after Left (100.000 ms)');
    s = await state(lpage);
    assert.deepStrictEqual([s.left, s.right], [100, laptop.xMax]);
    /* still refused (and still red) after the box loses focus, and after an unrelated redraw */
    await lpage.click('.rli-summary caption');
    await lpage.evaluate(() => window.rliTimeline.scrollRows(40));
    b = await boxes();
    assert.deepStrictEqual([b[1].value, b[1].invalid], ['50', true]);
    s = await state(lpage);
    assert.deepStrictEqual([s.left, s.right], [100, laptop.xMax]);

    /* a valid value clears the red and is taken */
    await lpage.fill(right, '400');
    await lpage.press(right, 'Enter');
    b = await boxes();
    assert.deepStrictEqual([b[0].invalid, b[1].invalid, b[1].aria, b[1].border], [false, false, null, normalBorder]);
    assert.strictEqual(await message(), '');
    s = await state(lpage);
    assert.deepStrictEqual([s.left, s.right], [100, 400]);

    /* a range past the data's end: refused the same way */
    await lpage.fill(left, String(Math.ceil(laptop.xMax) + 10));
    await lpage.fill(right, String(Math.ceil(laptop.xMax) + 500));
    await lpage.press(right, 'Enter');
    b = await boxes();
    assert.strictEqual(b[1].invalid, true);
    assert.strictEqual(b[1].border, RED);
    assert.ok((await message()).startsWith('That range is outside the data, which runs from 0.000 ms to '), await message());
    s = await state(lpage);
    assert.deepStrictEqual([s.left, s.right], [100, 400]);
    /* the axis is still in the window with the message shown */
    const layout = await layoutOf(lpage);
    assert.ok(layout.axis.bottom <= size.height, JSON.stringify(layout.axis));

    /* Reset puts the full range in both boxes and clears the red */
    await lpage.click('text=Reset');
    b = await boxes();
    assert.deepStrictEqual(b.map((x) => x.invalid), [false, false]);
    s = await state(lpage);
    /* in the unit beside them (the axis's), separated as the axis is */
    assert.deepStrictEqual([b[0].value, b[1].value], [fmtThousands(s.left, 3), fmtThousands(s.right, 3)]);
    assert.strictEqual(await message(), '');
  });

  await check(tag + ' laptop: a filter that matches nothing says so over the empty plot', async () => {
    const empty = () => lpage.evaluate(() => {
      const node = document.querySelector('.rli-empty'), r = node.getBoundingClientRect();
      return { shown: getComputedStyle(node).display !== 'none', text: node.textContent, elements: node.children.length,
        rect: { left: r.left, top: r.top, right: r.right, bottom: r.bottom } };
    });
    assert.strictEqual((await empty()).shown, false);
    await lpage.fill('.rli-filter', 'no-such-phase');
    let e = await empty();
    assert.deepStrictEqual([e.shown, e.text], [true, 'no bar matches \'no-such-phase\'']);
    assert.deepStrictEqual((await state(lpage)).rows, []);
    const plot = (await layoutOf(lpage)).plot;
    assert.ok(e.rect.left >= plot.left - 0.5 && e.rect.right <= plot.right + 0.5 && e.rect.top >= plot.top - 0.5 && e.rect.bottom <= plot.bottom + 0.5,
      JSON.stringify([e.rect, plot]));
    /* what was typed shows as text, markup included */
    await lpage.fill('.rli-filter', '<b onmouseover=x>zz</b>');
    e = await empty();
    assert.deepStrictEqual([e.shown, e.text, e.elements], [true, 'no bar matches \'<b onmouseover=x>zz</b>\'', 0]);
    /* a filter that matches hides the message */
    await lpage.fill('.rli-filter', 'update_actor');
    e = await empty();
    assert.strictEqual(e.shown, false);
    assert.ok((await state(lpage)).rows.length > 0);
    await lpage.fill('.rli-filter', '');
    assert.deepStrictEqual((await state(lpage)).rows, laptop.rows);
    assert.strictEqual((await empty()).shown, false);
  });

  await check(tag + ' known: a legend click in the window hides a name and shows it again', async () => {
    const bar = known.bars.find((b) => b.name === 'generate');
    const t = bar.start + (bar.end - bar.start) * 0.37;
    const point = await kpage.evaluate(() => window.rliTimeline.legendPoint(0));
    assert.ok(point.x < size.width && point.y < size.height);
    await kpage.mouse.click(point.x, point.y);
    assert.deepStrictEqual((await state(kpage)).hidden, [1, 0, 0]);
    assert.deepStrictEqual((await kpage.evaluate(([time, pos]) => window.rliTimeline.pixelAt(time, pos), [t, bar.row])).slice(0, 3), [255, 255, 255]);
    await kpage.mouse.click(point.x, point.y);
    assert.deepStrictEqual((await state(kpage)).hidden, [0, 0, 0]);
  });

  await check(tag + ': no console error, no dialog, no request left the file', async () => {
    assert.deepStrictEqual(browser.problems(), []);
  });
  /* to look at: the window as a person sees it */
  await lpage.evaluate(() => window.rliTimeline.scrollRows(0));
  await lpage.mouse.move(1, 1);
  await lpage.screenshot({ path: path.join(outDir, 'laptop.' + tag + '.png') });
  await kpage.screenshot({ path: path.join(outDir, 'known.' + tag + '.png') });
  await kpage.close();
  await lpage.close();
}

async function main() {
  if (!driver) {
    console.error('usage: browser_test.js <html_fixtures binary> [out dir]');
    return 2;
  }
  const browser = await openBrowser();
  if (browser === SKIP) return 77;
  /* the driver's own checks are the html.writer test; here only its files matter */
  const made = spawnSync(driver, [outDir], { stdio: 'inherit' });
  if (made.error) throw made.error;
  if (made.status !== 0) console.log('note: html_fixtures reported failed checks (see html.writer)');

  try {
    const known = expectFor('known');
    let exported = null;
    const page = await browser.open(path.join(outDir, 'known.html'));
    const colors = await page.evaluate(() => JSON.parse(document.getElementById('rli-model').textContent).series.map((s) => s.color));

    await check('known: loads, draws every bar, shows the model title and rows', async () => {
      const s = await state(page);
      assert.strictEqual(s.barCount, known.barCount);
      assert.strictEqual(s.drawnBars, known.barCount);
      assert.deepStrictEqual(s.rows, known.rows);
      assert.strictEqual(await page.title(), known.title);
    });

    await check('known: every decoded bar time equals the model bit for bit', () => checkDecoded(page, known));

    await check('known: the JavaScript tick rule gives the C layout\'s ticks', async () => {
      const labels = await page.evaluate(([l, r]) => window.rliTimeline.niceTicks(l, r).map((t) => t.label), [known.xMin, known.xMax]);
      assert.deepStrictEqual(labels, known.ticks);
    });

    await check('known: the zoomed axis follows rli_time_ticks: the unit the span needs, thousands separators', async () => {
      const axis = (l, r, n) => page.evaluate(([a, b, c]) => window.rliTimeline.timeAxis(a, b, c), [l, r, n]);
      /* 16,800 ms in about 15 steps: 1.12 s -> 2 s steps, read in seconds (as test_paper's C case) */
      assert.deepStrictEqual(await axis(0, 16800, 15), { title: 'Time (s)', labels: ['0', '2', '4', '6', '8', '10', '12', '14', '16'] });
      /* 2,500,000 ms = 41.7 min in 5 steps: 8.3 -> 10 min */
      assert.deepStrictEqual(await axis(0, 2.5e6, 5), { title: 'Time (min)', labels: ['0', '10', '20', '30', '40'] });
      /* 500 ms far from zero: ms, separated */
      assert.deepStrictEqual(await axis(1e6, 1.0005e6, 5),
        { title: 'Time (ms)', labels: ['1,000,000', '1,000,100', '1,000,200', '1,000,300', '1,000,400', '1,000,500'] });
      /* 10.5 s past 1,000 s in 5 steps: 2.1 -> 5 s steps, in seconds */
      assert.deepStrictEqual(await axis(1e6, 1.0105e6, 5), { title: 'Time (s)', labels: ['1,000', '1,005', '1,010'] });
    });

    await check('known: hovering each bar shows its exact text (name, Start, End, Duration, Rank)', async () => {
      let tried = 0;
      for (const bar of known.bars) {
        const t = (bar.start + bar.end) / 2;
        const expected = topBarAt(known, bar.row, t);
        const lines = await hover(page, t, bar.row);
        assert.deepStrictEqual(lines, expected.hover, 'hover over ' + bar.name + ' on ' + bar.label);
        /* the rank alone, not the row's whole label */
        assert.strictEqual(lines[4], 'Rank: ' + expected.rank);
        tried++;
      }
      assert.ok(tried >= 8);
      const bold = await page.evaluate(() => document.querySelector('.rli-tooltip b').textContent);
      assert.ok(known.series.includes(bold));
    });

    await check('known: overlapping bars answer with the one drawn on top', async () => {
      const covered = known.bars.find((b) => b.name === 'reward' && b.label === 'critic - Rank 2');
      const lines = await hover(page, (covered.start + covered.end) / 2, covered.row);
      assert.strictEqual(lines[0], 'update');
    });

    await check('known: the Order button reorders rows on the canvas and in the hover', async () => {
      await page.click('text=Order: by rank');
      let s = await state(page);
      assert.strictEqual(s.order, 'role');
      assert.deepStrictEqual(s.rows, known.roleOrder);
      assert.notDeepStrictEqual(known.roleOrder, known.rows);
      for (const bar of known.bars) {
        const t = (bar.start + bar.end) / 2;
        const top = topBarAt(known, bar.row, t);
        const pixel = await page.evaluate(([time, pos]) => window.rliTimeline.pixelAt(time, pos), [t, bar.rolePosition]);
        assert.deepStrictEqual(pixel.slice(0, 3), hexToRgb(colors[known.series.indexOf(top.name)]), 'pixel of ' + bar.name + ' on ' + bar.label);
        assert.deepStrictEqual(await hover(page, t, bar.rolePosition), top.hover);
      }
      await page.click('text=Order: by role');
      s = await state(page);
      assert.deepStrictEqual(s.rows, known.rows);
      const bar = known.bars[0];
      const pixel = await page.evaluate(([time, pos]) => window.rliTimeline.pixelAt(time, pos), [(bar.start + bar.end) / 2, bar.row]);
      assert.deepStrictEqual(pixel.slice(0, 3), hexToRgb(colors[known.series.indexOf(bar.name)]));
    });

    await check('known: "Hover: All Ranks" lists one entry per rank row at the cursor time', async () => {
      await page.click('text=Hover: All Ranks');
      await hover(page, 1200, 0);
      const entries = await page.evaluate(() => Array.from(document.querySelectorAll('.rli-tooltip .rli-entry')).map((e) => e.textContent));
      assert.strictEqual(entries.length, known.rows.length);
      known.rows.forEach((label) => assert.strictEqual(entries.filter((e) => e.startsWith(label + ':')).length, 1, label));
      await page.click('text=Hover: Current Only');
    });

    await check('known: wheel and box zoom change the range and the axis ticks; Left/Right set it exactly; Reset restores', async () => {
      const before = await state(page);
      const centre = await page.evaluate(() => window.rliTimeline.clientPoint(900, 1));
      await page.mouse.move(centre.x, centre.y);
      await page.mouse.wheel(0, -400);
      await page.waitForFunction((r) => window.rliTimeline.state().right < r, before.right);
      let s = await state(page);
      assert.ok(s.left > before.left && s.right < before.right);
      assert.notDeepStrictEqual(s.ticks, before.ticks);

      await page.click('text=Reset');
      const a = await page.evaluate(() => window.rliTimeline.clientPoint(1000, 1));
      const b = await page.evaluate(() => window.rliTimeline.clientPoint(1100, 1));
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move((a.x + b.x) / 2, a.y, { steps: 3 });
      await page.mouse.move(b.x, b.y, { steps: 3 });
      await page.mouse.up();
      s = await state(page);
      const layout = await page.evaluate(() => window.rliTimeline.layout());
      const pixelMs = (before.right - before.left) / (layout.plot.right - layout.plot.left);
      assert.ok(Math.abs(s.left - 1000) < 2 * pixelMs && Math.abs(s.right - 1100) < 2 * pixelMs, JSON.stringify([s.left, s.right]));
      /* the C tick rule (checked above) at the model's density mapped to this window (checked per window below) */
      const want = await page.evaluate(([l, r, n]) => window.rliTimeline.niceTicks(l, r, n).map((t) => t.label), [s.left, s.right, layout.tickTarget]);
      assert.deepStrictEqual(s.ticks, want);
      assert.ok(s.ticks.length >= 3 && s.ticks.every((t) => Number(t.replace(/,/g, '')) % 10 === 0), JSON.stringify(s.ticks));
      /* a 100 ms window past 1 s: milliseconds with thousands separators, the title naming the unit */
      assert.ok(s.ticks.some((t) => /^1,\d{3}$/.test(t)), JSON.stringify(s.ticks));
      assert.strictEqual(s.xTitle, 'Time (ms)');

      await page.fill('.rli-range label:nth-of-type(1) input', '123.25');
      await page.fill('.rli-range label:nth-of-type(2) input', '456.5');
      await page.press('.rli-range label:nth-of-type(2) input', 'Enter');
      s = await state(page);
      assert.strictEqual(s.left, 123.25);
      assert.strictEqual(s.right, 456.5);

      await page.click('text=Reset');
      s = await state(page);
      assert.deepStrictEqual([s.left, s.right, s.ticks], [before.left, before.right, before.ticks]);
    });

    await check('known: Alt-drag pans by the dragged time', async () => {
      /* zoomed in first: the whole data cannot pan, zoom keeps the view inside it */
      await page.evaluate(() => window.rliTimeline.zoomTo(300, 1200));
      const before = await state(page);
      const a = await page.evaluate(() => window.rliTimeline.clientPoint(800, 1));
      const b = await page.evaluate(() => window.rliTimeline.clientPoint(600, 1));
      await page.keyboard.down('Alt');
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move(b.x, b.y, { steps: 4 });
      await page.mouse.up();
      await page.keyboard.up('Alt');
      await page.waitForTimeout(50);
      const s = await state(page);
      const layout = await page.evaluate(() => window.rliTimeline.layout());
      const pixelMs = (before.right - before.left) / (layout.plot.right - layout.plot.left);
      assert.ok(Math.abs(s.left - (before.left + 200)) < 2 * pixelMs, JSON.stringify(s));
      assert.ok(Math.abs((s.right - s.left) - (before.right - before.left)) < 1e-6);
      await page.click('text=Reset');
    });

    await check('known: Shift-drag measures a span, a click selects a bar and shows its details, Escape clears both', async () => {
      const before = await state(page);
      const a = await page.evaluate(() => window.rliTimeline.clientPoint(200, 1));
      const b = await page.evaluate(() => window.rliTimeline.clientPoint(700, 1));
      await page.keyboard.down('Shift');
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move(b.x, b.y, { steps: 4 });
      await page.mouse.up();
      await page.keyboard.up('Shift');
      let sel = await page.evaluate(() => window.rliTimeline.selection());
      const layout = await page.evaluate(() => window.rliTimeline.layout());
      const pixelMs = (before.right - before.left) / (layout.plot.right - layout.plot.left);
      assert.ok(Math.abs(sel.measure[0] - 200) < pixelMs && Math.abs(sel.measure[1] - 700) < pixelMs, JSON.stringify(sel));
      assert.match(await page.textContent('.rli-measure-label'), /^\u0394 \d{3}\.\d{3} ms/);
      assert.deepStrictEqual([(await state(page)).left, (await state(page)).right], [before.left, before.right]);
      /* a click on a bar: the card names it, its times, and how it compares with its role's median */
      const bar = known.bars.find((x) => x.row === 0);
      const point = await page.evaluate(([t]) => window.rliTimeline.clientPoint(t, 0), [(bar.start + bar.end) / 2]);
      await page.mouse.click(point.x, point.y);
      sel = await page.evaluate(() => window.rliTimeline.selection());
      assert.strictEqual(sel.selected.row, 0);
      assert.strictEqual(sel.details[1], topBarAt(known, 0, (bar.start + bar.end) / 2).name);
      const text = sel.details.join('\n');
      assert.ok(text.includes('Rank\t' + bar.rank) || text.includes('Rank ' + bar.rank), text);
      assert.ok(/Against the median/.test(text), text);
      await page.keyboard.press('Escape');
      sel = await page.evaluate(() => window.rliTimeline.selection());
      assert.deepStrictEqual([sel.selected, sel.measure, sel.details], [null, null, null]);
    });

    await check('known: ] and [ step the selection through a row\'s bars in time order, } and { to the nearest bar of the next and the previous row', async () => {
      await page.click('text=Reset');
      await page.focus('canvas');
      const current = () => page.evaluate(() => {
        const t = window.rliTimeline.timeline, sel = t.selected;
        return sel ? { row: sel.row, index: sel.index, start: t.bars.start[sel.index], rows: t.displayRows.slice() } : null;
      });
      await page.keyboard.press(']');
      let sel = await current();
      assert.ok(sel, 'a first ] selects a bar');
      const row = sel.row, topRow = sel.rows.find((r) => r >= 0);
      assert.strictEqual(row, topRow, 'on the top row in view');
      const starts = known.bars.filter((b) => b.row === row).map((b) => b.start).sort((a, b) => a - b);
      const seen = [sel.start];
      for (let k = 1; k < starts.length; k++) {
        await page.keyboard.press(']');
        sel = await current();
        assert.strictEqual(sel.row, row);
        seen.push(sel.start);
      }
      assert.deepStrictEqual(seen, starts, 'every bar of the row, in time order');
      await page.keyboard.press(']');
      assert.strictEqual((await current()).start, starts[starts.length - 1], 'past the last bar nothing moves');
      const details = (await page.evaluate(() => window.rliTimeline.selection())).details;
      assert.ok(details && details.length > 2, 'the details card shows the stepped-to bar');
      if (starts.length > 1) {
        await page.keyboard.press('[');
        assert.strictEqual((await current()).start, starts[starts.length - 2]);
      }
      const from = await current(), below = from.rows.filter((r) => r >= 0)[from.rows.filter((r) => r >= 0).indexOf(row) + 1];
      if (below !== undefined) {
        await page.keyboard.press('}');
        const next = await current();
        assert.strictEqual(next.row, below, '} moves to the next row shown');
        const nearest = Math.min(...known.bars.filter((b) => b.row === below).map((b) => Math.abs(b.start - from.start)));
        assert.strictEqual(Math.abs(next.start - from.start), nearest, 'to its bar nearest in time');
        await page.keyboard.press('{');
        assert.strictEqual((await current()).row, row, '{ comes back');
      }
      await page.keyboard.press('Escape');
      assert.strictEqual(await current(), null);
    });

    await check('known: the filter box hides rows (by role, rank or name) and brings them back', async () => {
      await page.fill('.rli-filter', 'critic');
      assert.deepStrictEqual((await state(page)).rows, ['critic - Rank 2']);
      await page.fill('.rli-filter', 'reward');
      const rows = (await state(page)).rows;
      assert.deepStrictEqual(rows, known.rows.filter((label) => known.bars.some((b) => b.label === label && b.name === 'reward')));
      /* under a name filter only that name's bars remain: the critic row's update bar no longer covers reward */
      const covered = known.bars.find((b) => b.name === 'reward' && b.label === 'critic - Rank 2');
      const lines = await hover(page, (covered.start + covered.end) / 2, rows.indexOf('critic - Rank 2'));
      assert.strictEqual(lines[0], 'reward');
      await page.fill('.rli-filter', 'Rank 1');
      assert.deepStrictEqual((await state(page)).rows, ['actor - Rank 1']);
      await page.fill('.rli-filter', '');
      assert.deepStrictEqual((await state(page)).rows, known.rows);
    });

    await check('known: a legend click hides a name and a second click shows it again', async () => {
      const bar = known.bars.find((b) => b.name === 'generate');
      /* off the grid lines, which sit at round times */
      const t = bar.start + (bar.end - bar.start) * 0.37;
      const point = await page.evaluate(() => window.rliTimeline.legendPoint(0));
      await page.mouse.click(point.x, point.y);
      assert.deepStrictEqual((await state(page)).hidden, [1, 0, 0]);
      const pixel = await page.evaluate(([time, pos]) => window.rliTimeline.pixelAt(time, pos), [t, bar.row]);
      assert.deepStrictEqual(pixel.slice(0, 3), [255, 255, 255]);
      assert.strictEqual(await hover(page, t, bar.row), null);
      const summary = await page.evaluate(() => document.querySelector('.rli-summary tr[data-series="0"]').textContent);
      assert.ok(summary.includes('hidden'));
      await page.mouse.click(point.x, point.y);
      assert.deepStrictEqual((await state(page)).hidden, [0, 0, 0]);
      assert.deepStrictEqual(await hover(page, t, bar.row), bar.hover);
      /* the summary strip's rows toggle too (it lists names the legend had no room for) */
      await page.click('.rli-summary tr[data-series="2"]');
      assert.deepStrictEqual((await state(page)).hidden, [0, 0, 1]);
      await page.click('.rli-summary tr[data-series="2"]');
      assert.deepStrictEqual((await state(page)).hidden, [0, 0, 0]);
    });

    await check('known: the summary strip counts bars and their time in view', async () => {
      const rows = () => page.evaluate(() => Array.from(document.querySelectorAll('.rli-summary tr[data-series]')).map((r) => Array.from(r.cells).map((c) => c.textContent)));
      /* one unit for the column, its largest value's (ms below 1 s, s below 10 min), named in its header */
      const unitMs = async () => {
        const head = await page.evaluate(() => document.querySelectorAll('.rli-summary th')[2].textContent);
        const unit = /\((ms|s|min)\)$/.exec(head)[1];
        return { ms: 1, s: 1e3, min: 60e3 }[unit];
      };
      const full = await rows();
      let unit = await unitMs();
      const totals = known.series.map((name) => known.bars.filter((b) => b.name === name).reduce((sum, b) => sum + (b.end - b.start), 0));
      assert.strictEqual(unit, Math.max(...totals) >= 1e3 ? 1e3 : 1);
      known.series.forEach((name, s) => {
        const bars = known.bars.filter((b) => b.name === name);
        assert.deepStrictEqual(full[s], [name, String(bars.length), fmtThousands(totals[s] / unit, 3)]);
      });
      await page.evaluate(() => window.rliTimeline.zoomTo(0, 500));
      const zoomed = await rows();
      unit = await unitMs();
      known.series.forEach((name, s) => {
        const bars = known.bars.filter((b) => b.name === name && b.end >= 0 && b.start <= 500);
        const total = bars.reduce((sum, b) => sum + (Math.min(b.end, 500) - Math.max(b.start, 0)), 0);
        assert.deepStrictEqual(zoomed[s].slice(1), [String(bars.length), fmtThousands(total / unit, 3)], name);
      });
      await page.click('text=Reset');
    });

    await check('known: Export PNG downloads a PNG of the page at the model scale', async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Export PNG')]);
      assert.strictEqual(download.suggestedFilename(), 'rl_timeline.png');
      const bytes = fs.readFileSync(await download.path());
      assert.deepStrictEqual(Array.from(bytes.subarray(0, 8)), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const model = await page.evaluate(() => JSON.parse(document.getElementById('rli-model').textContent));
      assert.strictEqual(bytes.readUInt32BE(16), Math.round(model.width * model.scale));
      assert.strictEqual(bytes.readUInt32BE(20), Math.round(model.height * model.scale));
      exported = decodePng(bytes);
    });

    await check('known: the exported view looks like the PNG back-end\'s picture of the same model', async () => {
      const model = await page.evaluate(() => JSON.parse(document.getElementById('rli-model').textContent));
      const png = decodePng(fs.readFileSync(path.join(outDir, 'known.png')));
      assert.ok(exported, 'the export above produced a PNG');
      assert.deepStrictEqual([exported.width, exported.height], [png.width, png.height]);
      const at = (image, x, y) => {
        const i = (Math.floor(y) * image.width + Math.floor(x)) * 4;
        return Array.from(image.rgba.subarray(i, i + 3));
      };
      const k = model.scale, plot = model.plot;
      /* every bar's centre: the same colour in both, the series' colour */
      for (const bar of known.bars) {
        const top = topBarAt(known, bar.row, (bar.start + bar.end) / 2);
        const x = (plot[0] + ((bar.start + bar.end) / 2 - model.xMin) / (model.xMax - model.xMin) * plot[2]) * k;
        const y = (plot[1] + (bar.row + 0.5) * model.rowPitch) * k;
        const want = hexToRgb(model.series[known.series.indexOf(top.name)].color);
        assert.deepStrictEqual(at(exported, x, y), want, 'page at ' + bar.name + ' on ' + bar.label);
        assert.deepStrictEqual(at(png, x, y), want, 'PNG at ' + bar.name + ' on ' + bar.label);
      }
      /* the plot area as a whole: only anti-aliased edges may differ */
      let differing = 0, total = 0;
      for (let y = Math.ceil(plot[1] * k); y < Math.floor((plot[1] + plot[3]) * k); y++) {
        for (let x = Math.ceil(plot[0] * k); x < Math.floor((plot[0] + plot[2]) * k); x++) {
          const i = (y * png.width + x) * 4, a = exported.rgba, b = png.rgba;
          total++;
          if (Math.abs(a[i] - b[i]) > 48 || Math.abs(a[i + 1] - b[i + 1]) > 48 || Math.abs(a[i + 2] - b[i + 2]) > 48) differing++;
        }
      }
      console.log('     plot pixels differing from the PNG back-end: ' + (100 * differing / total).toFixed(3) + ' %');
      assert.ok(differing / total < 0.01, (100 * differing / total).toFixed(3) + ' % of plot pixels differ');
    });

    await check('known: no console error, no dialog, no request left the file', async () => {
      assert.deepStrictEqual(browser.problems(), []);
    });
    await page.screenshot({ path: path.join(outDir, 'known.screenshot.png'), fullPage: true });
    await page.close();

    const hostile = expectFor('hostile');
    let hpage = null;
    await check('hostile: markup in names and roles runs nothing and shows as text', async () => {
      hpage = await browser.open(path.join(outDir, 'hostile.html'));
      assert.strictEqual(await hpage.evaluate(() => typeof window.__pwned), 'undefined');
      assert.strictEqual(await hpage.evaluate(() => document.querySelectorAll('img, iframe, object, embed').length), 0);
      assert.strictEqual(await hpage.evaluate(() => document.scripts.length), 3);
      const s = await state(hpage);
      assert.deepStrictEqual(s.rows, hostile.rows);
      assert.ok(s.rows.includes(HOSTILE_ROLE + ' - Rank 0'));
      const summary = await hpage.evaluate(() => document.querySelector('.rli-summary').textContent);
      assert.ok(summary.includes(HOSTILE_NAME) && summary.includes(HOSTILE_NAME_2));
      const bar = hostile.bars.find((b) => b.name === HOSTILE_NAME_2);
      const lines = await hover(hpage, (bar.start + bar.end) / 2, bar.row);
      assert.strictEqual(lines[0], HOSTILE_NAME_2);
      assert.strictEqual(lines[4], 'Rank: 1');
      await hpage.click('text=Hover: All Ranks');
      await hover(hpage, 150, 0);
      const entries = await hpage.evaluate(() => Array.from(document.querySelectorAll('.rli-tooltip .rli-entry')).map((e) => e.textContent));
      assert.strictEqual(entries.length, 3);
      await hpage.fill('.rli-filter', '<img');
      assert.strictEqual((await state(hpage)).rows.length, 3);
      assert.strictEqual(await hpage.evaluate(() => typeof window.__pwned), 'undefined');
      assert.deepStrictEqual(browser.problems(), []);
    });
    if (hpage) {
      await hpage.screenshot({ path: path.join(outDir, 'hostile.screenshot.png'), fullPage: true });
      await hpage.close();
    }

    const ranks = expectFor('ranks');
    const rpage = await browser.open(path.join(outDir, 'ranks.html'));
    await check('ranks: "All Ranks" lists each of the 64 rows at most once, 20 at most, then how many more', async () => {
      await rpage.click('text=Hover: All Ranks');
      await hover(rpage, 1000, 10);
      const entries = await rpage.evaluate(() => Array.from(document.querySelectorAll('.rli-tooltip .rli-entry')).map((e) => e.textContent));
      const more = await rpage.evaluate(() => document.querySelector('.rli-tooltip .rli-more').textContent);
      assert.ok(entries.length <= 20, entries.length + ' entries');
      assert.strictEqual(more, 'and ' + (64 - entries.length) + ' more (of 64 rows busy here: filter or fold the rows to see them)');
      ranks.rows.forEach((label) => assert.ok(entries.filter((e) => e.startsWith(label + ':')).length <= 1, label));
      assert.strictEqual(new Set(entries.map((e) => e.split(':')[0])).size, entries.length);
    });
    await check('ranks: sub-pixel bars draw as their per-column union; zoomed in they are bars', async () => {
      const s = await state(rpage);
      assert.strictEqual(s.drawnBars, ranks.barCount);
      const tiny = ranks.bars.find((b) => b.name === 'kernel_launch');
      const row = tiny.row;
      const colour = hexToRgb(await rpage.evaluate(() => JSON.parse(document.getElementById('rli-model').textContent).series[1].color));
      const faint = await rpage.evaluate(([t, p]) => window.rliTimeline.pixelAt(t, p), [(tiny.start + tiny.end) / 2, row]);
      /* thinner than a pixel: blended toward the series colour, not drawn full nor dropped */
      assert.notDeepStrictEqual(faint.slice(0, 3), [255, 255, 255]);
      assert.notDeepStrictEqual(faint.slice(0, 3), colour);
      await rpage.evaluate(([l, r]) => window.rliTimeline.zoomTo(l, r), [tiny.start - 0.5, tiny.end + 0.5]);
      const solid = await rpage.evaluate(([t, p]) => window.rliTimeline.pixelAt(t, p), [(tiny.start + tiny.end) / 2, row]);
      assert.deepStrictEqual(solid.slice(0, 3), colour);
      assert.ok((await state(rpage)).drawnBars < ranks.barCount);
      await rpage.evaluate(() => window.rliTimeline.reset());
      assert.deepStrictEqual(browser.problems(), []);
    });
    await check('ranks: a bar stepped to from the keyboard is brought into view: the rows scrolled, the view panned', async () => {
      await rpage.evaluate(() => window.rliTimeline.reset());
      const first = ranks.bars[0];
      /* zoomed in to a sliver at the start: most rows' nearest bars lie outside it */
      await rpage.evaluate(([l, r]) => window.rliTimeline.zoomTo(l, r), [first.start, first.start + (ranks.xMax - ranks.xMin) / 200]);
      await rpage.focus('canvas');
      await rpage.keyboard.press(']');
      for (let k = 0; k < 63; k++) await rpage.keyboard.press('}');
      const got = await rpage.evaluate(() => {
        const t = window.rliTimeline.timeline, sel = t.selected, g = t.screen;
        const position = t.displayRows.indexOf(sel.row);
        return { row: sel.row, last: t.displayRows[t.displayRows.length - 1], start: t.bars.start[sel.index], end: t.bars.end[sel.index],
          left: t.left, right: t.right, top: position * g.pitch, scrollY: t.scrollY, height: g.plot[3], maxScroll: g.maxScroll };
      });
      assert.strictEqual(got.row, got.last, JSON.stringify(got));
      assert.ok(got.end >= got.left && got.start <= got.right, 'panned to the bar: ' + JSON.stringify(got));
      if (got.maxScroll > 0) assert.ok(got.top >= got.scrollY && got.top <= got.scrollY + got.height, 'scrolled to its row: ' + JSON.stringify(got));
      await rpage.keyboard.press('Escape');
      await rpage.evaluate(() => window.rliTimeline.reset());
    });
    await rpage.screenshot({ path: path.join(outDir, 'ranks.screenshot.png'), fullPage: true });
    await rpage.close();

    for (const name of ['hostile', 'ranks', 'fallback']) {
      const expect = expectFor(name);
      const other = await browser.open(path.join(outDir, name + '.html'));
      await check(name + ': every decoded bar time equals the model bit for bit', () => checkDecoded(other, expect));
      if (name === 'fallback') {
        await check('fallback: hover shows the exact figures of float64-encoded bars', async () => {
          for (const bar of expect.bars) {
            const t = bar.start + (bar.end - bar.start) / 2;
            await other.evaluate(([l, r]) => window.rliTimeline.zoomTo(l, r), [bar.start - (bar.end - bar.start), bar.end + (bar.end - bar.start)]);
            /* times in the unit of the view's axis, which its title names */
            const unit = /\((\w+)\)/.exec((await state(other)).xTitle)[1];
            assert.deepStrictEqual(await hover(other, t, bar.row), topBarAt(expect, bar.row, t).hoverIn[unit]);
          }
        });
      }
      await other.close();
    }

    const crowded = expectFor('crowded');
    const cpage = await browser.open(path.join(outDir, 'crowded.html'));
    await check('crowded: 2000 rows open grouped by role, every group folded; ungrouped, they are the model\'s', async () => {
      const g = await cpage.evaluate(() => window.rliTimeline.groups());
      assert.deepStrictEqual([g.grouped, g.folded.length, g.headers.length], [true, g.headers.length, g.headers.length]);
      assert.ok(g.headers.length >= 1);
      assert.deepStrictEqual((await state(cpage)).rows, []);
      await cpage.click('[data-action="group"]');
      assert.deepStrictEqual((await state(cpage)).rows, crowded.rows);
    });
    await check('crowded: with every group folded, ] unfolds the top group and selects its first bar in view', async () => {
      await cpage.evaluate(() => { const t = window.rliTimeline.timeline; t.setGrouped(true); t.foldAll(true); t.setScroll(0, false); });
      assert.deepStrictEqual((await state(cpage)).rows, [], 'every group folded');
      await cpage.focus('canvas');
      await cpage.keyboard.press(']');
      const got = await cpage.evaluate(() => {
        const t = window.rliTimeline.timeline, g = window.rliTimeline.groups();
        return { selected: t.selected, folded: g.folded.length, headers: g.headers.length,
          role: t.selected ? t.model.rows[t.selected.row].role : null, first: g.headers[0] };
      });
      assert.ok(got.selected, 'a bar is selected: ' + JSON.stringify(got));
      assert.strictEqual(got.folded, got.headers - 1, 'one group unfolded');
      await cpage.keyboard.press('Escape');
      await cpage.evaluate(() => window.rliTimeline.timeline.setGrouped(false));
      assert.deepStrictEqual((await state(cpage)).rows, crowded.rows);
    });
    await check('crowded: 2000 rows, thinned labels; sorting and hovering still find every row', async () => {
      const model = await cpage.evaluate(() => JSON.parse(document.getElementById('rli-model').textContent));
      assert.ok(model.rowLabels.some((label) => label.text === ''), 'the layout thinned labels');
      await cpage.click('text=Order: by rank');
      assert.deepStrictEqual((await state(cpage)).rows, crowded.roleOrder);
      const bar = crowded.bars[crowded.bars.length - 1];
      assert.deepStrictEqual(await hover(cpage, (bar.start + bar.end) / 2, bar.rolePosition), bar.hover);
      assert.deepStrictEqual(browser.problems(), []);
    });
    await cpage.screenshot({ path: path.join(outDir, 'crowded.screenshot.png'), clip: { x: 0, y: 0, width: 1400, height: 900 } });
    await cpage.close();
  } finally {
    await browser.close();
  }

  for (const size of WINDOWS) {
    const sized = await openBrowser({ viewport: size });
    try {
      await windowChecks(sized, size);
    } finally {
      await sized.close();
    }
  }
  return failures() ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
