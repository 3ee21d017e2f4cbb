/* hostile_pages_test.js: profiles whose names carry script for every context, through rl-insight to the page: nothing runs, all shows as text. */
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const zlib = require('zlib');
const { openBrowser, SKIP } = require('./browser_common');

/*
 * One payload per context a string can land in: element text, an attribute (both quotes), a
 * script string and a template, a URL, CSS, markup comments and CDATA, and the line separators
 * JSON allows and old JavaScript does not. Each would set window.__pwned, open a dialog or fetch.
 */
const PAYLOADS = [
  '</script><script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  '"><svg onload=window.__pwned=1>',
  "'><iframe src=javascript:window.__pwned=1>",
  "';window.__pwned=1;//",
  '${window.__pwned=1}`',
  'javascript:alert(1)',
  '</style><style>body{background:url(http://127.0.0.1:9/css)}</style>',
  '<!-- --><![CDATA[ ]]>',
  'line\u2028sep\u2029para',
  '&lt;b&gt;&amp;#x3C;',
  '{{constructor.constructor("window.__pwned=1")()}}',
];
/* A folder name cannot hold '/': the payloads that can be role names as they are. */
const FOLDER_PAYLOADS = PAYLOADS.filter((p) => !p.includes('/'));

function nvtxTree(dir) {
  // NVTX: the range text is the role and the bar's name (timeline.md, NVTX).
  fs.mkdirSync(dir, { recursive: true });
  const lines = [];
  PAYLOADS.forEach((text, i) => lines.push(JSON.stringify({ id: i + 1, table: 'StringIds', value: text })));
  lines.push(JSON.stringify({ startTime: 1000000, table: 'ANALYSIS_DETAILS' }));
  lines.push(JSON.stringify({ name: 'ENVIRONMENT_VARIABLE', table: 'META_DATA_CAPTURE', value: 'RANK=0' }));
  PAYLOADS.forEach((text, i) => lines.push(JSON.stringify({ eventType: 60, start: i * 2000000, end: i * 2000000 + 1500000, textId: i + 1 })));
  fs.writeFileSync(path.join(dir, 'worker_process_1.1.jsonl'), lines.join('\n') + '\n');
}

function torchTree(dir) {
  // torch: the role is the folder the trace sits in.
  FOLDER_PAYLOADS.forEach((role, i) => {
    const folder = path.join(dir, role);
    fs.mkdirSync(folder, { recursive: true });
    const trace = { distributedInfo: { backend: 'nccl', rank: 0, world_size: 1 },
      traceEvents: [{ ph: 'X', name: role, pid: 1, tid: 1, ts: 1000 + i * 3000, dur: 2000 }] };
    fs.writeFileSync(path.join(folder, 'prof_rank-0_1.json.gz'), zlib.gzipSync(JSON.stringify(trace)));
  });
}

function mstxTree(dir) {
  // MSTX: the role is the folder above the *_ascend_pt capture.
  const info = { config: {}, start_info: {}, end_info: {}, torch_npu_version: '2.7.1', cann_version: '8.3', rank_id: 0 };
  FOLDER_PAYLOADS.forEach((role, i) => {
    const unit = path.join(dir, role, 'x_ascend_pt');
    fs.mkdirSync(path.join(unit, 'ASCEND_PROFILER_OUTPUT'), { recursive: true });
    fs.writeFileSync(path.join(unit, 'profiler_info_0.json'), JSON.stringify(info));
    fs.writeFileSync(path.join(unit, 'ASCEND_PROFILER_OUTPUT', 'trace_view.json'), JSON.stringify([
      { name: 'process_name', pid: 5, tid: 0, ph: 'M', args: { name: 'Overlap Analysis' } },
      { name: role, pid: 5, tid: 0, ph: 'X', ts: String(2000 + i * 3000), dur: 2000, args: {} }]));
  });
}

async function checkPage(browser, file, expected, label) {
  const page = await browser.open(file);
  assert.strictEqual(await page.evaluate(() => typeof window.__pwned), 'undefined', label + ': a payload ran');
  assert.strictEqual(await page.evaluate(() => document.querySelectorAll('img, iframe, svg, object, embed').length), 0,
    label + ': markup from the input became elements');
  assert.strictEqual(await page.evaluate(() => document.querySelectorAll('style').length), 1, label + ': a style from the input');
  const s = await page.evaluate(() => window.rliTimeline.state());
  const summary = await page.evaluate(() => document.querySelector('.rli-summary').textContent);
  for (const text of expected) {
    assert.ok(s.rows.some((row) => row.startsWith(text + ' - Rank ')) || summary.includes(text),
      label + ': not shown as text: ' + JSON.stringify(text));
  }
  // Hovering every bar shows its name in the tooltip, literally; nothing runs meanwhile.
  const bars = await page.evaluate(() => window.rliTimeline.state().rows.length);
  assert.ok(bars >= expected.length, label + ': ' + bars + ' rows for ' + expected.length + ' names');
  await page.mouse.move(400, 300);
  await page.mouse.move(600, 320);
  assert.strictEqual(await page.evaluate(() => typeof window.__pwned), 'undefined', label + ': a payload ran on hover');
  assert.deepStrictEqual(browser.problems(), [], label + ': console errors, dialogs or requests');
  await page.close();
}

async function main() {
  const [bin, outDir] = process.argv.slice(2);
  if (!bin || !outDir) {
    console.error('usage: hostile_pages_test.js <rl-insight> <out dir>');
    return 2;
  }
  const browser = await openBrowser({ viewport: { width: 1280, height: 800 } });
  if (browser === SKIP) return 77;
  fs.rmSync(outDir, { recursive: true, force: true });
  let failures = 0;
  try {
    for (const [name, make, expected] of [['nvtx', nvtxTree, PAYLOADS], ['torch', torchTree, FOLDER_PAYLOADS],
      ['mstx', mstxTree, FOLDER_PAYLOADS]]) {
      const input = path.join(outDir, name, 'in');
      const output = path.join(outDir, name, 'out');
      make(input);
      execFileSync(bin, ['-q', '--input-path', input, '--profiler-type', name, '--vis-type', 'html', '--output-path', output],
        { stdio: 'inherit' });
      try {
        await checkPage(browser, path.join(output, 'rl_timeline.html'), expected, name);
        console.log('ok: ' + name + ': ' + expected.length + ' payloads shown as text, none ran');
      } catch (error) {
        failures++;
        console.error('FAIL: ' + error.message);
      }
    }
  } finally {
    await browser.context.close();
  }
  return failures ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });
