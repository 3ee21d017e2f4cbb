/* timeline_start.js: starts the timeline page once every part is loaded, and the test hook (window.rliTimeline). */
(function () {
  'use strict';

  var core = window.rliCore;
  var readJson = core.readJson, decodeBars = core.decodeBars, timeTicks = core.timeTicks;
  var parts = window.rliTimelineParts;
  var Timeline = parts.Timeline;

  /* ---- start ---- */

  /* A client rectangle {left, top, right, bottom} of x, y, w, h in canvas CSS px. */
  function clientRect(canvas, x, y, w, h) {
    var rect = canvas.getBoundingClientRect();
    return { left: rect.left + x, top: rect.top + y, right: rect.left + x + w, bottom: rect.top + y + h };
  }

  function start() {
    var model = readJson('rli-model');
    var bars = decodeBars(readJson('rli-bars'), model.rows.length);
    var timeline = new Timeline(model, bars);
    /* the statistics beside the chart, when the layout gave any */
    if (model.aside && model.aside.length) {
      timeline.aside = new parts.Aside(timeline, model.aside);
      timeline.resize();
    }
    if (model.nav) timeline.links = new parts.Links(timeline, model.nav);
    /* every name with its colour above the chart, a button each (legend.js) */
    if (window.rliLegend) timeline.seriesLegend = window.rliLegend.forTimeline(timeline);
    timeline.selection = new parts.Selection(timeline);
    timeline.groups = new parts.Groups(timeline);
    /* the view the URL names (a reload, Back, a link from another page of the run), kept there as it changes */
    timeline.viewState = new parts.ViewState(timeline);
    var named = parts.ViewState.readHash(location.hash);
    if (Object.keys(named).length) timeline.viewState.apply(named);
    else timeline.draw();
    performance.mark('rli-first-draw');
    window.rliTimeline = {
      timeline: timeline,
      firstDrawMs: performance.now(),
      state: function () {
        return {
          left: timeline.left, right: timeline.right, order: timeline.order, hoverMode: timeline.hoverMode,
          dragMode: timeline.dragMode, filter: timeline.filter,
          rows: timeline.displayRows.filter(function (r) { return r >= 0; }).map(function (r) { return model.rows[r].label; }),
          ticks: timeline.ticks().map(function (t) { return t.label; }),
          xTitle: timeline.axis().title,
          hidden: Array.from(timeline.hidden), drawnBars: timeline.drawnBars, barCount: bars.count,
          drawCount: timeline.drawCount, scrollTop: timeline.scrollY
        };
      },
      /* the model-to-window mapping in force: text sizes in CSS px, the plot and the axis as client rectangles */
      layout: function () {
        var g = timeline.screen, plot = g.plot, canvas = timeline.canvas;
        var xTitle = g.xTitle, axisBottom = plot[1] + plot[3] + g.tickLabelGap + g.tickLabelSize * 1.2;
        if (xTitle.text) axisBottom = Math.max(axisBottom, xTitle.y + xTitle.size * 1.25);
        return {
          textScale: g.k, rowLabelPx: model.rowLabels.length ? model.rowLabels[0].size * g.k : 0,
          tickLabelPx: g.tickLabelSize, titlePx: g.title.size,
          legendPx: timeline.legendEntries.map(function (e) { return parseFloat(getComputedStyle(e.node).fontSize); }),
          rowPitchPx: g.pitch, tickTarget: g.tickTarget, labelEvery: timeline.labelEvery,
          deviceScale: timeline.deviceScale, maxScroll: g.maxScroll, scrollTop: timeline.scrollY,
          canvas: clientRect(canvas, 0, 0, g.width, g.height),
          plot: clientRect(canvas, plot[0], plot[1], plot[2], plot[3]),
          axis: clientRect(canvas, plot[0], plot[1] + plot[3], plot[2], axisBottom - plot[1] - plot[3]),
          rowLabelRight: clientRect(canvas, plot[0] - (model.plot[0] - (model.rowLabels.length ? model.rowLabels[0].x : model.plot[0])) * g.k, 0, 0, 0).left
        };
      },
      aside: function () { return timeline.aside ? timeline.aside.state() : null; },
      /* the groups by role: on or off, the folded ones, the headers shown, each track's mean share busy, the jump */
      groups: function () { return timeline.groups.state(); },
      setGrouped: function (on) { timeline.setGrouped(on); },
      foldGroup: function (role, fold) { timeline.foldGroup(timeline.roleNames.indexOf(role), fold); },
      jump: function (text) { return timeline.groups.jump(text); },
      /* the view written into the URL now, not after it settles */
      flushUrl: function () { timeline.viewState.flush(); return location.hash; },
      /* the selected bar ({row, index} of the model) and the measured span, or null */
      selection: function () {
        var card = timeline.selection.card;
        return { selected: timeline.selected, measure: timeline.measure,
          details: card.style.display === 'block' ? card.innerText.split('\n').map(function (l) { return l.trim(); }).filter(Boolean) : null };
      },
      zoomTo: function (l, r) { return timeline.zoomTo(l, r); },
      reset: function () { return timeline.reset(); },
      setOrder: function (o) { timeline.setOrder(o); },
      setFilter: function (q) { timeline.setFilter(q); },
      toggleSeries: function (s) { timeline.toggleSeries(s); },
      revealRow: function (position) { timeline.revealRow(position); },
      scrollRows: function (top) { timeline.setScroll(top, false); return timeline.scrollY; },
      clientPoint: function (t, position) { return timeline.clientPoint(t, position); },
      /* the time axis rule (rli_time_ticks): tick labels for [l, r] ms in the span's unit */
      niceTicks: function (l, r, target) {
        return timeTicks(l, r, target || timeline.model.xtickTarget, timeline.model.xtickMax).ticks;
      },
      timeAxis: function (l, r, target) {
        var axis = timeTicks(l, r, target || timeline.model.xtickTarget, timeline.model.xtickMax);
        return { title: axis.title, labels: axis.ticks.map(function (t) { return t.label; }) };
      },
      /* [r, g, b, a] of the canvas at time t on display position `position`, at the bar's centre line */
      pixelAt: function (t, position) {
        timeline.revealRow(position);
        var g = timeline.screen, plot = g.plot, scale = timeline.deviceScale;
        var x = (plot[0] + (t - timeline.left) / (timeline.right - timeline.left) * plot[2]) * scale;
        var y = (g.rowsTop + (position + 0.5) * g.pitch) * scale;
        return Array.from(timeline.canvas.getContext('2d').getImageData(Math.floor(x), Math.floor(y), 1, 1).data);
      },
      legendPoint: function (s) {
        var entry = timeline.legendEntries.filter(function (e) { return e.series === s && e.swatch; })[0];
        if (!entry) return null;
        var rect = entry.swatch.getBoundingClientRect();
        return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
      }
    };
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
