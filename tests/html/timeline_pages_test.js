/* timeline_pages_test.js: the timeline page of a 512-rank run at a laptop's and a desktop's size: groups by role, a capped hover, the jump to a rank, the selection in the URL, the statistics drawer, Tab and keys; and a torch run's title and tables. */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const assert = require('assert');
const { openBrowser, SKIP, makeChecks } = require('./browser_common');

const [binary, synth] = process.argv.slice(2, 4);
const work = process.argv[4] || fs.mkdtempSync(path.join(os.tmpdir(), 'rli-timeline-pages-'));
const { check, failures } = makeChecks();
const WINDOWS = [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }];
const RANKS = 512, ROLES = 4;

function run(cmd, args) {
  const result = spawnSync(cmd, args, { encoding: 'utf8', env: process.env });
  if (result.status !== 0) throw new Error(path.basename(cmd) + ' exit ' + result.status + ': ' + result.stderr);
}

function make(name, synthArgs, rliArgs) {
  const input = path.join(work, name + '-in'), out = path.join(work, name);
  fs.rmSync(input, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
  run(synth, synthArgs.concat(['--output', input]));
  run(binary, ['--input-path', input, '--vis-type', 'html', '--output-path', out, '-q'].concat(rliArgs || []));
  return out;
}

const state = (page) => page.evaluate(() => window.rliTimeline.state());
const groups = (page) => page.evaluate(() => window.rliTimeline.groups());

/* What the focused element is and whether its focus shows (an outline or a ring of its own). */
function focusInfo(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const shows = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    const rect = el.getBoundingClientRect();
    return { tag: el.tagName.toLowerCase(), text: (el.getAttribute('aria-label') || el.textContent || el.placeholder || '').trim().slice(0, 40),
      action: el.dataset ? el.dataset.action || null : null, cls: el.className || '', shows, visible: rect.width > 0 && rect.height > 0 };
  });
}

/* Tabs from the top of the page until the focus comes round again; the focused elements in order. */
async function tabRound(page, limit) {
  /* the focus at the page's start: the next Tab goes to its first control */
  await page.evaluate(() => { document.body.tabIndex = -1; document.body.focus(); document.body.removeAttribute('tabindex'); window.scrollTo(0, 0); });
  const seen = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const info = await focusInfo(page);
    if (!info) break;
    if (seen.length && seen[0].tag === info.tag && seen[0].text === info.text && seen[0].cls === info.cls) break;
    seen.push(info);
  }
  return seen;
}

async function timelineChecks(browser, size, big, torch) {
  const tag = size.width + 'x' + size.height;
  const page = await browser.open(path.join(big, 'rl_timeline.html'));

  await check(tag + ': 2,048 rows open as their overview: grouped by role, every group folded, one track a role', async () => {
    const g = await groups(page);
    assert.strictEqual(g.grouped, true);
    assert.strictEqual(g.headers.length, ROLES);
    assert.deepStrictEqual(g.folded.length, ROLES);
    assert.strictEqual((await state(page)).rows.length, 0);
    assert.strictEqual(g.shares.length, ROLES);
    assert.ok(g.shares.every((s) => s.share > 0 && s.share < 1), JSON.stringify(g.shares));
    assert.strictEqual(await page.evaluate(() => location.hash), '');
    await page.screenshot({ path: path.join(work, 'overview-' + tag + '.png') });
  });

  await check(tag + ': "rank 1" keeps exactly rank 1\'s rows of each role (of 2,048), its groups unfolded', async () => {
    await page.fill('.rli-filter', 'rank 1');
    const rows = (await state(page)).rows;
    assert.strictEqual(rows.length, ROLES, JSON.stringify(rows));
    assert.ok(rows.every((label) => / - Rank 1$/.test(label)), JSON.stringify(rows));
    await page.fill('.rli-filter', '');
    assert.strictEqual((await state(page)).rows.length, RANKS * ROLES);
  });

  await check(tag + ': rows grouped by role, each with an occupancy track drawn from the bars in view; a group folds and unfolds', async () => {
    let g = await groups(page);
    assert.strictEqual(g.grouped, true);
    assert.deepStrictEqual(g.folded, []);
    assert.strictEqual(g.headers.length, ROLES);
    assert.strictEqual((await state(page)).rows.length, RANKS * ROLES);
    /* the first header's track: its rows' first bars make a busy column, drawn dark */
    const probe = await page.evaluate(() => {
      const t = window.rliTimeline.timeline, b = t.bars, members = t.groupMembers[0], run = b.rowRuns[members[0]][0];
      const i = b.runFirst[run], mid = (b.start[i] + b.end[i]) / 2;
      const g = t.screen, x = (g.plot[0] + (mid - t.left) / (t.right - t.left) * g.plot[2]) * t.deviceScale;
      const y = (g.rowsTop + g.pitch * 0.85) * t.deviceScale;
      const px = Array.from(t.canvas.getContext('2d').getImageData(Math.floor(x), Math.floor(y), 1, 1).data);
      return { px, share: t.trackShares[0] };
    });
    assert.deepStrictEqual(probe.px.slice(0, 3), [0x5a, 0x6b, 0x85], 'the track at a busy time: ' + JSON.stringify(probe));
    assert.ok(probe.share > 0 && probe.share < 1, JSON.stringify(probe));
    /* live: zoomed into the first bar, the track is busier */
    const before = probe.share;
    await page.evaluate(() => {
      const t = window.rliTimeline.timeline, b = t.bars, run = b.rowRuns[t.groupMembers[0][0]][0], i = b.runFirst[run];
      window.rliTimeline.zoomTo(b.start[i], b.end[i]);
    });
    const after = await page.evaluate(() => window.rliTimeline.timeline.trackShares[0]);
    assert.ok(after > before, before + ' then ' + after);
    await page.click('text=Reset');
    /* the header's label is a button: a click folds its group, the other groups stay */
    const role = g.headers[0];
    await page.click('.rli-group-head[data-group="0"]');
    g = await groups(page);
    assert.deepStrictEqual(g.folded, [role]);
    const rows = (await state(page)).rows;
    assert.strictEqual(rows.length, RANKS * (ROLES - 1));
    assert.ok(!rows.some((label) => label.startsWith(role + ' - ')));
    assert.strictEqual(await page.getAttribute('.rli-group-head[data-group="0"]', 'aria-expanded'), 'false');
    assert.match(await page.evaluate(() => window.rliTimeline.flushUrl()), /^#fold=0$/);
    /* Enter on the focused label unfolds it again */
    await page.focus('.rli-group-head[data-group="0"]');
    await page.keyboard.press('Enter');
    assert.deepStrictEqual((await groups(page)).folded, []);
    await page.click('[data-action="fold-all"]');
    assert.strictEqual((await groups(page)).folded.length, ROLES);
    assert.strictEqual((await state(page)).rows.length, 0);
    await page.screenshot({ path: path.join(work, 'folded-' + tag + '.png') });
    await page.click('[data-action="fold-all"]');
    assert.strictEqual((await state(page)).rows.length, RANKS * ROLES);
    /* ungrouped, the rows as the order puts them; grouped again, as they were */
    await page.click('[data-action="group"]');
    assert.strictEqual((await groups(page)).headers.length, 0);
    assert.strictEqual((await state(page)).rows.length, RANKS * ROLES);
    assert.match(await page.evaluate(() => window.rliTimeline.flushUrl()), /group=0/);
    await page.click('[data-action="group"]');
    assert.strictEqual((await groups(page)).headers.length, ROLES);
  });

  await check(tag + ': "Hover: All Ranks" lists a screenful of rows and says how many more', async () => {
    await page.click('text=Hover: All Ranks');
    const point = await page.evaluate(() => {
      const t = window.rliTimeline.timeline, b = t.bars, row = t.groupMembers[0][0], run = b.rowRuns[row][0], i = b.runFirst[run];
      const position = t.displayRows.indexOf(row);
      window.rliTimeline.revealRow(position);
      return window.rliTimeline.clientPoint((b.start[i] + b.end[i]) / 2, position);
    });
    await page.mouse.move(point.x, point.y);
    const tip = await page.evaluate(() => {
      const node = document.querySelector('.rli-tooltip'), rect = node.getBoundingClientRect();
      return { lines: node.innerText.split('\n').filter((l) => l.trim()), bottom: rect.bottom, top: rect.top };
    });
    const more = tip.lines[tip.lines.length - 1];
    assert.match(more, /^and [\d,]+ more \(of [\d,]+ rows busy here/);
    assert.ok(tip.lines.length <= 22, tip.lines.length + ' lines');
    assert.ok(tip.top >= 0 && tip.bottom <= size.height, JSON.stringify(tip.bottom));
    const listed = tip.lines.length - 2, total = Number(/of ([\d,]+) rows/.exec(more)[1].replace(/,/g, ''));
    assert.strictEqual(listed + Number(/and ([\d,]+)/.exec(more)[1].replace(/,/g, '')), total);
    /* over a group's track: how many of its rows are busy */
    const header = await page.evaluate(() => {
      const t = window.rliTimeline.timeline, b = t.bars, row = t.groupMembers[0][0], run = b.rowRuns[row][0], i = b.runFirst[run];
      const position = t.displayRows.indexOf(-1);
      window.rliTimeline.revealRow(position);
      return window.rliTimeline.clientPoint((b.start[i] + b.end[i]) / 2, position);
    });
    await page.mouse.move(header.x, header.y);
    const text = await page.evaluate(() => document.querySelector('.rli-tooltip').innerText);
    assert.match(text, /[\d,]+ of 512 rows busy \(\d+%\)/);
    await page.mouse.move(1, 1);
    await page.click('text=Hover: Current Only');
  });

  await check(tag + ': g on the chart goes to the rank box; a rank typed scrolls to its row and marks it', async () => {
    await page.focus('.rli-stage canvas');
    await page.keyboard.press('g');
    assert.strictEqual(await page.evaluate(() => document.activeElement.className), 'rli-jump');
    await page.keyboard.type('300');
    await page.keyboard.press('Enter');
    let g = await groups(page);
    const info = await page.evaluate((row) => {
      const t = window.rliTimeline.timeline, position = t.displayRows.indexOf(row), s = t.screen;
      const top = position * s.pitch - t.scrollY;
      return { label: t.model.rows[row].label, inBand: top >= 0 && top + s.pitch <= s.plot[3] + 0.5 };
    }, g.markedRow);
    assert.match(info.label, / - Rank 300$/);
    assert.ok(info.inBand, JSON.stringify(info));
    assert.match(g.jumpStatus, /Rank 300/);
    assert.strictEqual(await page.evaluate(() => getComputedStyle(document.querySelector('.rli-jump-mark')).display), 'block');
    /* a rank in a folded group unfolds it; a filter that hides it is cleared */
    const roles = g.headers;
    await page.evaluate((role) => window.rliTimeline.foldGroup(role, true), roles[2]);
    await page.fill('.rli-filter', 'rank 0-9');
    await page.fill('.rli-jump', roles[2] + ' 411');
    await page.press('.rli-jump', 'Enter');
    g = await groups(page);
    assert.deepStrictEqual(g.folded, []);
    assert.strictEqual((await state(page)).filter, '');
    assert.strictEqual(await page.evaluate((row) => window.rliTimeline.timeline.model.rows[row].label, g.markedRow), roles[2] + ' - Rank 411');
    await page.fill('.rli-jump', '9999');
    await page.press('.rli-jump', 'Enter');
    assert.match((await groups(page)).jumpStatus, /^No rank 9999: ranks run 0\u2013511/);
    await page.fill('.rli-jump', '');
  });

  await check(tag + ': a reload keeps a zoomed view, its groups and the selected bar; Back undoes a cleared selection', async () => {
    const point = await page.evaluate(() => {
      const t = window.rliTimeline.timeline, b = t.bars, row = t.groupMembers[1][5], run = b.rowRuns[row][0], i = b.runFirst[run];
      window.rliTimeline.zoomTo(b.start[i] - 1000, b.end[i] + 1000);
      const position = t.displayRows.indexOf(row);
      window.rliTimeline.revealRow(position);
      return window.rliTimeline.clientPoint((b.start[i] + b.end[i]) / 2, position);
    });
    await page.mouse.click(point.x, point.y);
    const before = await page.evaluate(() => window.rliTimeline.selection());
    assert.ok(before.selected && before.details, JSON.stringify(before));
    const s0 = await state(page);
    const hash = await page.evaluate(() => window.rliTimeline.flushUrl());
    assert.match(hash, /range=.*fold=&.*sel=/);
    await page.reload();
    await page.waitForFunction(() => window.rliTimeline !== undefined);
    const s1 = await state(page);
    /* the URL keeps times to the nanosecond */
    assert.ok(Math.abs(s1.left - s0.left) < 1e-5 && Math.abs(s1.right - s0.right) < 1e-5, JSON.stringify([s0, s1].map((s) => [s.left, s.right])));
    const after = await page.evaluate(() => window.rliTimeline.selection());
    assert.deepStrictEqual(after.selected, before.selected);
    assert.deepStrictEqual(after.details, before.details);
    assert.deepStrictEqual([(await groups(page)).grouped, (await groups(page)).folded], [true, []]);
    await page.screenshot({ path: path.join(work, 'selected-' + tag + '.png') });
    /* Escape clears the selection (a new entry in the history); Back brings it back */
    await page.focus('.rli-stage canvas');
    await page.keyboard.press('Escape');
    assert.strictEqual((await page.evaluate(() => window.rliTimeline.selection())).selected, null);
    assert.doesNotMatch(await page.evaluate(() => window.rliTimeline.flushUrl()), /sel=/);
    await page.goBack();
    await page.waitForFunction(() => window.rliTimeline.selection().selected !== null, null, { timeout: 5000 });
    assert.deepStrictEqual((await page.evaluate(() => window.rliTimeline.selection())).selected, before.selected);
    await page.keyboard.press('Escape');
    await page.click('text=Reset');
  });

  await check(tag + ': Tab reaches every control with its focus shown; the chart takes focus and is labelled', async () => {
    await page.evaluate(() => window.rliTimeline.scrollRows(0));
    const round = await tabRound(page, 400);
    const hidden = round.filter((f) => !f.shows);
    assert.deepStrictEqual(hidden, [], 'focus not shown');
    const actions = new Set(round.map((f) => f.action).filter(Boolean));
    for (const want of ['hover-closest', 'hover-all', 'order', 'mode-zoom', 'mode-pan', 'reset', 'export-png', 'group', 'fold-all', 'statistics'])
      assert.ok(actions.has(want), want + ' not reached: ' + JSON.stringify([...actions]));
    const classes = round.map((f) => String(f.cls));
    for (const want of ['rli-filter', 'rli-help-toggle', 'rli-time-input', 'rli-jump', 'rli-group-head', 'rli-rank-link', 'rli-columns'])
      assert.ok(classes.some((c) => c.split(' ').includes(want)), want + ' not reached');
    assert.ok(round.some((f) => f.tag === 'canvas'), 'the canvas');
    assert.ok(round.some((f) => f.tag === 'tr'), 'the "In view" rows that hide a name');
    const label = await page.evaluate(() => [document.querySelector('.rli-stage canvas').getAttribute('role'),
      document.querySelector('.rli-stage canvas').getAttribute('aria-label')]);
    assert.strictEqual(label[0], 'img');
    assert.match(label[1], /: the bars of \d+ phases over time on 2,048 rows \(4 roles\), from 0\.000 ms to [\d.,]+ (s|min)\. Arrow keys pan/);
    /* an "In view" row hides its name by keyboard */
    await page.focus('.rli-summary tr[data-series="0"]');
    await page.keyboard.press('Enter');
    assert.strictEqual((await state(page)).hidden[0], 1);
    await page.keyboard.press(' ');
    assert.strictEqual((await state(page)).hidden[0], 0);
  });

  await check(tag + ': ArrowRight pans on the focused chart, never on a focused button or box', async () => {
    await page.evaluate(() => window.rliTimeline.zoomTo(20000, 40000));
    for (const selector of ['[data-action="reset"]', '[data-action="group"]', '.rli-jump', '.rli-filter']) {
      await page.focus(selector);
      await page.keyboard.press('ArrowRight');
      const s = await state(page);
      assert.deepStrictEqual([s.left, s.right], [20000, 40000], 'ArrowRight on ' + selector);
    }
    await page.focus('.rli-stage canvas');
    await page.keyboard.press('ArrowRight');
    const s = await state(page);
    assert.ok(Math.abs(s.left - 22000) < 1e-6 && Math.abs(s.right - 42000) < 1e-6, JSON.stringify([s.left, s.right]));
    await page.click('text=Reset');
  });

  await check(tag + ': the statistics panel sits beside the chart at this width', async () => {
    const aside = await page.evaluate(() => window.rliTimeline.aside());
    assert.strictEqual(aside.drawer, false);
    assert.strictEqual(aside.open, true);
  });
  await page.close();

  const tpage = await browser.open(path.join(torch, 'rl_timeline.html'));
  await check(tag + ': a torch run\'s title states t = 0 without its raw clock; its tables: one unit a column, separators, main columns', async () => {
    const title = await tpage.evaluate(() => [document.title, window.rliTimeline.timeline.model.title.text]);
    for (const text of title) {
      assert.ok(!/Origin =|\d{7,}/.test(text), text);
      assert.match(text, /t = 0/);
    }
    const tables = await tpage.evaluate(() => Array.from(document.querySelectorAll('.rli-aside-table table')).map((t) => ({
      header: Array.from(t.querySelectorAll('th')).map((th) => th.textContent),
      shown: Array.from(t.querySelectorAll('th')).map((th) => getComputedStyle(th).display !== 'none'),
      cells: Array.from(t.querySelectorAll('tbody tr')).map((tr) => Array.from(tr.children).map((td) => td.textContent))
    })));
    const kinds = new Map();
    for (const t of tables) {
      const key = t.header.map((h) => h.replace(/\s*\((ms|s|min)\)$/, '')).join('|');
      if (!kinds.has(key)) kinds.set(key, []);
      kinds.get(key).push(t);
    }
    let mixed = 0;
    for (const list of kinds.values()) {
      if (list.length < 2) continue;
      list[0].header.forEach((h, c) => { if (new Set(list.map((t) => t.header[c])).size > 1) mixed++; });
    }
    assert.strictEqual(mixed, 0, 'columns with two units across roles');
    for (const t of tables)
      for (const row of t.cells)
        for (const cell of row)
          assert.ok(!/^-?\d{4,}(\.\d+)?$/.test(cell), 'a number without separators: ' + cell);
    /* the phases table shows its main columns; the rest come with its button */
    const phases = tables.find((t) => t.header[0] === 'Phase');
    assert.ok(phases.shown.filter(Boolean).length <= 7 && phases.shown.filter((s) => !s).length >= 5, JSON.stringify(phases.shown));
    const wide = await tpage.evaluate(() => {
      const wrap = document.querySelector('.rli-aside-table'), table = wrap.querySelector('table');
      return { fits: table.getBoundingClientRect().width <= wrap.getBoundingClientRect().width + 1 };
    });
    assert.ok(wide.fits, 'the table scrolls sideways');
    await tpage.click('.rli-columns');
    const all = await tpage.evaluate(() => Array.from(document.querySelector('.rli-aside-table table').querySelectorAll('th'))
      .every((th) => getComputedStyle(th).display !== 'none'));
    assert.ok(all, 'every column on demand');
  });
  await tpage.close();

  const home = await browser.open(path.join(big, 'index.html'), { ready: null });
  await check(tag + ': the home page: Tab reaches every link with its focus shown', async () => {
    const links = await home.evaluate(() => document.querySelectorAll('a[href]').length);
    const round = await tabRound(home, 200);
    assert.strictEqual(round.filter((f) => f.tag === 'a').length, links);
    assert.deepStrictEqual(round.filter((f) => !f.shows), []);
  });
  await home.close();
  await check(tag + ': no console error, no request', async () => assert.deepStrictEqual(browser.problems(), []));
}

async function drawerChecks(browser, big) {
  const page = await browser.open(path.join(big, 'rl_timeline.html'));
  await check('1000x800: under 1100 px the statistics are a drawer: closed, its button opens it over the chart, Escape closes it', async () => {
    let aside = await page.evaluate(() => window.rliTimeline.aside());
    assert.deepStrictEqual([aside.drawer, aside.open], [true, false]);
    const plotBefore = await page.evaluate(() => window.rliTimeline.layout().plot);
    await page.click('[data-action="statistics"]');
    aside = await page.evaluate(() => window.rliTimeline.aside());
    assert.strictEqual(aside.open, true);
    assert.deepStrictEqual(await page.evaluate(() => window.rliTimeline.layout().plot), plotBefore, 'the chart keeps its width');
    assert.strictEqual(await page.evaluate(() => document.activeElement.className), 'rli-aside-close');
    await page.screenshot({ path: path.join(work, 'drawer-1000x800.png') });
    await page.keyboard.press('Escape');
    aside = await page.evaluate(() => window.rliTimeline.aside());
    assert.strictEqual(aside.open, false);
    assert.strictEqual(await page.evaluate(() => document.activeElement.dataset.action), 'statistics');
    /* a rank link in the drawer closes it and shows the row */
    await page.click('[data-action="statistics"]');
    await page.click('.rli-rank-link');
    aside = await page.evaluate(() => window.rliTimeline.aside());
    assert.strictEqual(aside.open, false);
    assert.ok(aside.markedRow >= 0);
  });
  await page.close();
  await check('1000x800: no console error, no request', async () => assert.deepStrictEqual(browser.problems(), []));
}

async function main() {
  const probe = await openBrowser();
  if (probe === SKIP) return 77;
  await probe.close();
  const big = make('ranks512', ['--format', 'mstx', '--ranks', String(RANKS), '--roles', String(ROLES), '--steps', '2',
    '--events-per-unit', '4', '--seed', '7']);
  const torch = make('torch', ['--format', 'torch', '--ranks', '4', '--roles', '3', '--steps', '2', '--seed', '3'],
    ['--profiler-type', 'torch']);
  for (const size of WINDOWS) {
    const browser = await openBrowser({ viewport: size });
    try {
      await timelineChecks(browser, size, big, torch);
    } finally {
      await browser.close();
    }
  }
  const narrow = await openBrowser({ viewport: { width: 1000, height: 800 } });
  try {
    await drawerChecks(narrow, big);
  } finally {
    await narrow.close();
  }
  return failures() ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
