/* run.js: the HTML benchmark; writes a million-bar page, then times the first draw and zoom steps in headless chromium. */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { openBrowser, SKIP } = require('../../tests/html/browser_common');

const TARGETS = { firstDrawMs: 1500, zoomStepMs: 50, bytesPerBar: 16 };

function median(values) {
  const sorted = values.slice().sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function main() {
  const generator = process.argv[2];
  const bars = process.argv[3] || '1000000';
  if (!generator) {
    console.error('usage: node bench/html/run.js <build>/bench/html/bench_html [bars]');
    return 2;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rli-bench-html-'));
  const file = path.join(dir, 'rl_timeline.html');
  const written = JSON.parse(execFileSync(generator, [file, bars], { encoding: 'utf8' }));

  const deviceScaleFactor = Number(process.env.RLI_BENCH_DPR || 1);
  const browser = await openBrowser({ viewport: { width: 1600, height: 1000 }, deviceScaleFactor });
  if (browser === SKIP) return 77;
  const loads = [];
  let zoomSteps = [], wheelSteps = [], drawn = 0;
  try {
    /* three cold loads; the first draw is the mark the renderer sets once every bar is on the canvas */
    for (let run = 0; run < 3; run++) {
      const page = await browser.open(file);
      loads.push(await page.evaluate(() => ({ mark: performance.getEntriesByName('rli-first-draw')[0].startTime })));
      if (run < 2) await page.close();
      else {
        /* zoom steps: zoomTo repaints synchronously; a 1-pixel readback waits for the raster */
        const timings = await page.evaluate(() => {
          const api = window.rliTimeline, ctx = api.timeline.canvas.getContext('2d');
          const s = api.state(), out = [];
          let left = s.left, right = s.right;
          const centre = left + (right - left) * 0.37;
          const step = (factor) => {
            left = centre - (centre - left) * factor;
            right = centre + (right - centre) * factor;
            const t0 = performance.now();
            api.zoomTo(left, right);
            ctx.getImageData(0, 0, 1, 1);
            out.push(performance.now() - t0);
          };
          for (let i = 0; i < 30; i++) step(0.8);
          for (let i = 0; i < 30; i++) step(1.25);
          return { out, drawn: api.state().drawnBars };
        });
        zoomSteps = timings.out;
        drawn = timings.drawn;
        /* the same through wheel events dispatched in the page, timed to the next frame */
        wheelSteps = await page.evaluate(async () => {
          const api = window.rliTimeline, canvas = api.timeline.canvas, out = [];
          api.reset();
          /* the rows scroll under a fixed axis: bring row 20 into the band (pages before that have no revealRow) */
          if (api.revealRow) api.revealRow(20);
          const point = api.clientPoint(api.state().right * 0.4, 20);
          const full = api.state().right - api.state().left;
          let zoomedIn = Infinity;
          for (let i = 0; i < 20; i++) {
            const started = performance.now();
            canvas.dispatchEvent(new WheelEvent('wheel', { clientX: point.x, clientY: point.y, deltaY: i < 10 ? -120 : 120, bubbles: true, cancelable: true }));
            out.push(await new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now() - started))));
            if (i === 9) zoomedIn = api.state().right - api.state().left;
          }
          /* a wheel that missed the plot would time nothing */
          if (!(zoomedIn < full * 0.5)) throw new Error('the wheel events did not zoom');
          return out;
        });
        const problems = browser.problems();
        if (problems.length) throw new Error(problems.join('\n'));
        await page.close();
      }
    }
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const result = {
    viewport: '1600x1000 CSS px, device pixel ratio ' + deviceScaleFactor,
    bars: written.bars,
    fileBytes: written.bytes,
    bytesPerBar: Number(written.bytesPerBar.toFixed(2)),
    firstDrawMs: Math.round(median(loads.map((l) => l.mark))),
    zoomStepMedianMs: Number(median(zoomSteps).toFixed(1)),
    zoomStepMaxMs: Number(Math.max(...zoomSteps).toFixed(1)),
    wheelToFrameMedianMs: Number(median(wheelSteps).toFixed(1)),
    barsDrawnAtFullView: drawn,
  };
  console.log(JSON.stringify(result, null, 2));
  const verdict = [
    ['first draw', result.firstDrawMs, TARGETS.firstDrawMs, 'ms'],
    ['zoom step (median)', result.zoomStepMedianMs, TARGETS.zoomStepMs, 'ms'],
    ['file size', result.bytesPerBar, TARGETS.bytesPerBar, 'bytes/bar'],
  ];
  let missed = 0;
  for (const [name, value, target, unit] of verdict) {
    const ok = value < target;
    if (!ok) missed++;
    console.log((ok ? 'met    ' : 'MISSED ') + name + ': ' + value + ' ' + unit + ' (target < ' + target + ')');
  }
  return missed ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
