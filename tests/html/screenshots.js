/* screenshots.js: renders the shared samples as PNG and HTML with rl-insight and screenshots the pages, to look at side by side. */
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { openBrowser, SKIP, REPO } = require('./browser_common');

/* usage: node tests/html/screenshots.js <rl-insight binary> <out dir> [samples dir] */
async function main() {
  const [binary, outDir, samplesArg] = process.argv.slice(2);
  if (!binary || !outDir) {
    console.error('usage: node tests/html/screenshots.js <rl-insight> <out dir> [samples dir]');
    return 2;
  }
  const samples = samplesArg || path.resolve(REPO, '..', 'shared', 'samples');
  if (!fs.existsSync(samples)) {
    console.log('skipped: no samples at ' + samples);
    return 77;
  }
  let failed = 0;
  const made = [];
  for (const profiler of ['mstx', 'torch', 'nvtx']) {
    const input = path.join(samples, profiler + '_profile');
    const output = path.join(outDir, profiler);
    const run = spawnSync(binary, ['--input-path', input, '--profiler-type', profiler, '--output-path', output,
      '--vis-type', 'png,html', '-q'], { stdio: 'inherit', env: Object.assign({}, process.env, {
      FONTCONFIG_FILE: process.env.FONTCONFIG_FILE || path.join(REPO, 'fonts', 'fonts.conf') }) });
    if (run.status !== 0) {
      console.log(profiler + ': rl-insight exited with ' + run.status);
      failed++;
      continue;
    }
    made.push([profiler, output]);
  }
  /* the page lays itself out to the window: a laptop's and a desktop's */
  for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
    const tag = size.width + 'x' + size.height;
    const browser = await openBrowser({ viewport: size });
    if (browser === SKIP) return 77;
    try {
      for (const [profiler, output] of made) {
        const page = await browser.open(path.join(output, 'rl_timeline.html'));
        const shot = path.join(output, 'rl_timeline.html.' + tag + '.png');
        await page.screenshot({ path: shot });
        await page.close();
        console.log(profiler + ': ' + path.join(output, 'rl_timeline.png') + '  next to  ' + shot);
      }
      const problems = browser.problems();
      if (problems.length) {
        console.log(problems.join('\n'));
        failed++;
      }
    } finally {
      await browser.close();
    }
  }
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
