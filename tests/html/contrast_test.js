/* contrast_test.js: every visible text of every page kind (timeline, memory, compare, index, gmm_heatmap, trend) at least 4.5:1 against what it sits on, at 1280x800 and 1920x1080. */
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');

const MIN_RATIO = 4.5;

function run(bin, args) {
  execFileSync(bin, args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

/*
 * In the page: each element's own text (a text node child, not blank), where it is rendered (a box,
 * not visibility: hidden, no ancestor display: none), not a disabled control. Its colour is the
 * computed colour with its alpha and every ancestor's opacity (a box's: its value, or its placeholder's); its background is the colours of
 * the element and its ancestors composited top down over white (the page's canvas). Returns what
 * reads under MIN_RATIO: [{text, ratio, color, background, element}].
 */
function lowContrast(page, minRatio) {
  return page.evaluate((min) => {
    function rgba(text) {
      const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(text);
      return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : [0, 0, 0, 0];
    }
    /* colour c (alpha a) over opaque colour under */
    function over(c, a, under) {
      return [0, 1, 2].map((i) => c[i] * a + under[i] * (1 - a));
    }
    function luminance(c) {
      const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
      return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
    }
    function effectiveBackground(el) {
      const chain = [];
      for (let n = el; n && n.nodeType === 1; n = n.parentElement) chain.push(n);
      let bg = [255, 255, 255];
      for (let i = chain.length - 1; i >= 0; i--) {
        const style = getComputedStyle(chain[i]), c = rgba(style.backgroundColor);
        if (c[3] > 0) bg = over(c, c[3] * Number(style.opacity), bg);
      }
      return bg;
    }
    const bad = [];
    let checked = 0, least = Infinity;
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest('script, style, noscript, template, [hidden]')) continue;
      let own = Array.from(el.childNodes).filter((n) => n.nodeType === 3 && n.textContent.trim()).map((n) => n.textContent.trim()).join(' ');
      let pseudo = null;
      /* a box's text is its value, or while empty its placeholder (in the placeholder's colour) */
      if (el.matches('input:not([type="checkbox"]):not([type="radio"]):not([type="hidden"]), textarea, select')) {
        own = el.value || '';
        if (!own && el.placeholder) { own = el.placeholder; pseudo = '::placeholder'; }
      }
      if (!own) continue;
      if (el.matches(':disabled, [aria-disabled="true"]') || el.closest('fieldset:disabled')) continue;
      const style = getComputedStyle(el);
      if (style.visibility !== 'visible' || el.getClientRects().length === 0) continue;
      const box = el.getBoundingClientRect();
      if (box.width < 1 || box.height < 1) continue;
      let opacity = 1;
      for (let n = el; n && n.nodeType === 1; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
      if (opacity === 0) continue;
      const bg = effectiveBackground(el), fg = rgba(pseudo ? getComputedStyle(el, pseudo).color : style.color);
      const text = over(fg, fg[3] * opacity, bg);
      const a = luminance(text), b = luminance(bg);
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      checked++;
      least = Math.min(least, ratio);
      if (ratio < min) {
        bad.push({ text: own.slice(0, 40), ratio: Math.round(ratio * 100) / 100, color: style.color,
          background: 'rgb(' + bg.map(Math.round).join(', ') + ')',
          element: el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '') });
      }
    }
    return { bad, checked, least };
  }, minRatio);
}

/*
 * The texts a canvas draws: every {text, color} of the page's embedded model (the layout's, which
 * the PNG draws too), against the model's background (white without one).
 */
function lowContrastDrawn(page, minRatio) {
  return page.evaluate((min) => {
    function hex(c) { const n = parseInt(String(c).slice(1), 16); return [n >> 16 & 255, n >> 8 & 255, n & 255]; }
    function luminance(c) {
      const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
      return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
    }
    const bad = [];
    let checked = 0;
    for (const script of document.querySelectorAll('script[type="application/json"]')) {
      let model;
      try { model = JSON.parse(script.textContent); } catch (error) { continue; }
      const background = typeof model.background === 'string' && /^#[0-9a-f]{6}$/i.test(model.background) ? hex(model.background) : [255, 255, 255];
      const walk = (node) => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) { node.forEach(walk); return; }
        if (typeof node.text === 'string' && node.text.trim() && typeof node.color === 'string' && /^#[0-9a-f]{6}$/i.test(node.color)) {
          const a = luminance(hex(node.color)), b = luminance(background);
          const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
          checked++;
          if (ratio < min) bad.push({ text: node.text.slice(0, 40), ratio: Math.round(ratio * 100) / 100, color: node.color, model: script.id });
        }
        Object.keys(node).forEach((k) => walk(node[k]));
      };
      walk(model);
    }
    return { bad, checked };
  }, minRatio);
}

/* The pages of the kinds, each written by rl-insight from generated inputs: [kind, file, the global it sets]. */
function makePages(bin, synth, outDir) {
  fs.rmSync(outDir, { recursive: true, force: true });
  const demo = path.join(outDir, 'demo');
  run(synth, ['--demo', '--output', demo]);
  const timeline = path.join(outDir, 'timeline'), memory = path.join(outDir, 'memory');
  run(bin, ['-q', '--input-path', path.join(demo, 'mstx'), '--vis-type', 'html', '--output-path', timeline]);
  run(bin, ['-q', '--input-path', path.join(demo, 'memory'), '--vis-type', 'html', '--output-path', memory]);
  const memoryPage = fs.readdirSync(memory).filter((f) => /^memory_timeline_.*_00\.html$/.test(f)).sort()[0];

  const a = path.join(outDir, 'A'), b = path.join(outDir, 'B'), compare = path.join(outDir, 'compare');
  run(synth, ['--format', 'mstx', '--ranks', '4', '--roles', '3', '--steps', '4', '--seed', '1', '--output', a]);
  run(synth, ['--format', 'mstx', '--ranks', '4', '--roles', '3', '--steps', '4', '--seed', '2', '--output', b]);
  run(bin, ['-q', '--input-path', b, '--baseline', a, '--output-path', compare, '--vis-type', 'html']);

  const gmm = path.join(outDir, 'gmm');
  run(synth, ['--format', 'gmm', '--ranks', '2', '--roles', '2', '--steps', '2', '--gmm-ops', '3', '--experts', '16',
    '--output', path.join(outDir, 'gmm-in')]);
  run(bin, ['-q', '--input-path', path.join(outDir, 'gmm-in'), '--vis-type', 'html', '--output-path', gmm]);

  const db = path.join(outDir, 'history.db'), nights = path.join(outDir, 'nights'), prof = path.join(nights, 'prof');
  for (let k = 1; k <= 4; k++) {
    const pair = path.join(nights, 'pair' + k);
    run(synth, ['--pair', k === 4 ? 'slowdown' : 'identical', '--jitter', '0.05', '--jitter-seed', String(k), '--format', 'mstx',
      '--ranks', '4', '--roles', '3', '--steps', '4', '--output', pair]);
    /* one input folder for every night, so that the trend has them all */
    fs.rmSync(prof, { recursive: true, force: true });
    fs.cpSync(path.join(pair, 'current'), prof, { recursive: true });
    run(bin, ['-q', '--input-path', prof, '--history', db, '--run-label', 'nightly:c' + k,
      '--vis-type', k === 4 ? 'html,trend' : 'html', '--output-path', path.join(nights, 'out' + k)]);
  }
  return [
    ['timeline', path.join(timeline, 'rl_timeline.html'), 'rliTimeline'],
    ['index', path.join(timeline, 'index.html'), null],
    ['memory', path.join(memory, memoryPage), 'rliMemory'],
    ['memory index', path.join(memory, 'index.html'), null],
    ['compare', path.join(compare, 'compare.html'), 'rliCompare'],
    ['gmm_heatmap', path.join(gmm, 'gmm_heatmap.html'), 'rliGmm'],
    ['trend', path.join(nights, 'out4', 'trend.html'), 'rliTrend'],
  ];
}

/* The timeline page in the states that show more text: a name hidden, the filter's help and a filter it cannot read, a bar's tooltip and details. */
async function timelineStates(page) {
  await page.evaluate(() => window.rliTimeline.toggleSeries(0));
  await page.click('.rli-help-toggle');
  await page.fill('.rli-filter', '/[/');
  await page.press('.rli-filter', 'Enter');
  const point = await page.evaluate(() => {
    const api = window.rliTimeline, t = api.timeline, b = t.bars;
    for (let p = 0; p < t.displayRows.length; p++) {
      const row = t.displayRows[p], runs = b.rowRuns[row];
      for (const run of runs || []) {
        const i = b.runFirst[run];
        if (!t.hidden[b.runSeries[run]]) { api.revealRow(p); return api.clientPoint((b.start[i] + b.end[i]) / 2, p); }
      }
    }
    return null;
  });
  if (point) {
    await page.mouse.move(point.x, point.y);
    await page.waitForTimeout(50);
  }
}

/* The memory page with an allocation selected (its details card) and another hovered (its tooltip). */
async function memoryStates(page) {
  const points = await page.evaluate(() => {
    const m = window.rliMemory, d = m.d, box = m.ganttCanvas.getBoundingClientRect(), found = [];
    for (let i = 0; i < d.start.length && found.length < 2; i++) {
      const lo = Math.max(d.start[i], m.range.lo), hi = Math.min(d.end[i], m.range.hi);
      if (!(hi > lo)) continue;
      const x = Math.round(box.left + m.xOf((lo + hi) / 2)), y = Math.round(box.top + m.laneTop(d.lane[i]) + m.geom.pitch / 2);
      if (y > box.top && y < box.bottom && m.barAt(x - box.left, y - box.top) === i) found.push({ x, y });
    }
    return found;
  });
  assert.ok(points.length > 0, 'no allocation to point at');
  await page.mouse.click(points[0].x, points[0].y);
  await page.mouse.move(points[points.length - 1].x, points[points.length - 1].y);
  await page.waitForTimeout(50);
}

/* The compare page with a bar of the baseline selected (both sides' details cards) and hovered (its tooltip). */
async function compareStates(page) {
  const point = await page.evaluate(() => {
    const t = window.rliCompare.runs[0], b = t.bars;
    for (let p = 0; p < t.displayRows.length; p++) {
      const runs = b.rowRuns[t.displayRows[p]] || [];
      for (const run of runs) {
        const i = b.runFirst[run];
        if (i < b.runFirst[run + 1]) { t.revealRow(p); return t.clientPoint((b.start[i] + b.end[i]) / 2, p); }
      }
    }
    return null;
  });
  assert.ok(point, 'no bar to point at');
  await page.mouse.click(point.x, point.y);
  await page.mouse.move(point.x + 1, point.y);
  await page.waitForTimeout(50);
}

/* The heatmap with a cell hovered (its tooltip) and one clicked (its expert's and layer's profiles). */
async function gmmStates(page) {
  const box = await page.locator('canvas.rli-gmm-heat').boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width / 3, box.y + box.height / 3);
  await page.waitForTimeout(50);
}

const STATES = {
  rliTimeline: [' (a name hidden, help, a bad filter, a tooltip)', timelineStates],
  rliMemory: [' (an allocation selected, another hovered)', memoryStates],
  rliCompare: [' (a bar selected and hovered)', compareStates],
  rliGmm: [' (a cell clicked, another hovered)', gmmStates],
};

async function main() {
  const [bin, synth, fixtures, outDir] = process.argv.slice(2);
  const { check, failures } = makeChecks();
  const pages = makePages(bin, synth, outDir);
  /* a page whose chart has its own legend (names that the rows do not say), from the HTML fixtures */
  run(fixtures, [path.join(outDir, 'fixtures')]);
  pages.push(['timeline with its own legend', path.join(outDir, 'fixtures', 'known.html'), 'rliTimeline']);
  for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
    const tag = size.width + 'x' + size.height;
    const browser = await openBrowser({ viewport: size });
    if (browser === SKIP) return 77;
    try {
      for (const [kind, file, ready] of pages) {
        const states = STATES[ready] ? [['', null], STATES[ready]] : [['', null]];
        for (const [what, act] of states) {
          await check(tag + ' ' + kind + what + ': every text at least ' + MIN_RATIO + ':1', async () => {
            assert.ok(fs.existsSync(file), 'no ' + file);
            const page = await browser.open(file, { ready });
            if (!ready) await page.waitForLoadState('load');
            await page.waitForTimeout(200);
            if (act) await act(page);
            const { bad, checked, least } = await lowContrast(page, MIN_RATIO);
            const drawn = await lowContrastDrawn(page, MIN_RATIO);
            await page.close();
            assert.deepStrictEqual(drawn.bad, [], kind + ': text the canvas draws under ' + MIN_RATIO + ':1');
            assert.ok(checked > 5, kind + ': only ' + checked + ' texts found');
            if (process.env.RLI_CONTRAST_VERBOSE) console.log('     ' + kind + what + ': ' + checked + ' texts, the least ' + least.toFixed(2) + ':1');
            assert.deepStrictEqual(bad, [], kind + ': text under ' + MIN_RATIO + ':1');
          });
        }
      }
      await check(tag + ': no console error, no request', async () => assert.deepStrictEqual(browser.problems(), []));
    } finally {
      await browser.close();
    }
  }
  return failures() ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });
