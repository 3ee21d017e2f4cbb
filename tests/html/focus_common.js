/* focus_common.js: what the pages' keyboard tests share: a walk with Tab over a page, noting what it reached and whether each showed its focus. */
'use strict';

/*
 * Presses Tab up to `limit` times from the top of the page: {missed, unmarked, count}. missed: the
 * visible controls (buttons, links, inputs, summaries, focusable canvases and rows) Tab never
 * reached; unmarked: those it reached that showed no focus ring (an outline or a box shadow).
 */
async function tabWalk(page, limit) {
  await page.evaluate(() => { if (document.activeElement) document.activeElement.blur(); window.scrollTo(0, 0); });
  const reached = new Set(), unmarked = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      if (!el.dataset.tabId) el.dataset.tabId = String(Math.random());
      const style = getComputedStyle(el);
      const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      return { id: el.dataset.tabId, tag: el.tagName, text: (el.textContent || el.getAttribute('aria-label') || '').slice(0, 40), ring };
    });
    if (!info) continue;
    if (reached.has(info.id)) break;
    reached.add(info.id);
    if (!info.ring) unmarked.push(info.tag + ' ' + info.text);
  }
  const missed = await page.evaluate((ids) => Array.from(document.querySelectorAll('button, a[href], input, summary, canvas[tabindex], [tabindex="0"]'))
    .filter((el) => {
      const b = el.getBoundingClientRect();
      return b.width > 0 && b.height > 0 && getComputedStyle(el).visibility !== 'hidden' &&
        !el.closest('details:not([open]) > :not(summary)') && !ids.includes(el.dataset.tabId);
    })
    .map((el) => el.tagName + ' ' + (el.textContent || el.getAttribute('aria-label') || '').slice(0, 40)), Array.from(reached));
  return { missed, unmarked, count: reached.size };
}

/* Every canvas of the page as [role, has an aria-label]. */
async function canvasLabels(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('canvas'))
    .map((c) => [c.getAttribute('role'), !!(c.getAttribute('aria-label') || '').trim()]));
}

module.exports = { tabWalk, canvasLabels };
