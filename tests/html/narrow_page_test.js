/* narrow_page_test.js: a page laid out narrow (--width 300, legend under the plot) opened in a laptop's window: the legend sits beside the plot, whole. */
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { openBrowser, SKIP } = require('./browser_common');

function nvtxTree(dir) {
  const names = ['compute_log_prob', 'compute_values', 'update_critic'];
  const lines = names.map((value, i) => JSON.stringify({ id: i + 1, table: 'StringIds', value }));
  lines.push(JSON.stringify({ startTime: 1000000, table: 'ANALYSIS_DETAILS' }));
  lines.push(JSON.stringify({ name: 'ENVIRONMENT_VARIABLE', table: 'META_DATA_CAPTURE', value: 'RANK=0' }));
  // The last range reaches the end of the run, right where a misplaced legend would cover it.
  names.forEach((_, i) => lines.push(JSON.stringify({ eventType: 60, start: i * 20e9, end: i * 20e9 + 19e9, textId: i + 1 })));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'worker_process_1.1.jsonl'), lines.join('\n') + '\n');
}

async function main() {
  const [bin, outDir] = process.argv.slice(2);
  const browser = await openBrowser({ viewport: { width: 1280, height: 800 } });
  if (browser === SKIP) return 77;
  fs.rmSync(outDir, { recursive: true, force: true });
  nvtxTree(path.join(outDir, 'in'));
  execFileSync(bin, ['-q', '--input-path', path.join(outDir, 'in'), '--vis-type', 'html', '--width', '300',
    '--output-path', path.join(outDir, 'out')], { stdio: 'inherit' });
  try {
    const page = await browser.open(path.join(outDir, 'out', 'rl_timeline.html'));
    const plot = (await page.evaluate(() => window.rliTimeline.layout())).plot;
    const legend = await page.evaluate(() => {
      const r = document.querySelector('.rli-legend').getBoundingClientRect();
      const cut = Array.from(document.querySelectorAll('.rli-legend-entry, .rli-legend-title'))
        .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth)
        .map((e) => e.textContent);
      return { left: r.left, right: r.right, cut };
    });
    assert.ok(legend.left >= plot.right, 'the legend (from x ' + legend.left + ') covers the plot (to x ' + plot.right + ')');
    assert.deepStrictEqual(legend.cut, [], 'legend texts cut off');
    assert.deepStrictEqual(browser.problems(), []);
    console.log('ok: the narrow page\'s legend sits beside the plot, whole');
    return 0;
  } catch (error) {
    console.error('FAIL: ' + error.message);
    return 1;
  } finally {
    await browser.context.close();
  }
}

main().then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });
