/* timeline.js: rl-insight's canvas renderer for rl_timeline.html; it draws the layout model and never re-decides it. */
(function () {
  'use strict';

  var ALIGN_H = ['left', 'center', 'right'];
  var ALIGN_V = ['top', 'middle', 'bottom'];
  /* Bars wider than this many device pixels may be rectangles; thinner ones merge per column (as cairo_paint.c). */
  var WIDE_PX = 1;
  var HOVER_SLOP_CSS_PX = 3;
  var MAX_CANVAS_SIDE = 16000;
  var MAX_CANVAS_AREA = 1.2e8;
  var STRIP_LINES = 256;

  var core = window.rliCore;
  var readJson = core.readJson, decodeBars = core.decodeBars, lowerBound = core.lowerBound;
  var upperBound = core.upperBound, niceTicks = core.niceTicks, formatMs = core.formatMs;
  var cssFontFamily = core.cssFontFamily, parseColor = core.parseColor, element = core.element;
  var growFloat64 = core.growFloat64, addCoverage = core.addCoverage;

  /* ---- the application ---- */

  /*
   * Two geometries draw the same model. The page geometry is the model as
   * placed (the PNG's page, used by Export PNG). The window geometry maps it
   * to the browser window: every length the layout chose (margins, row pitch,
   * bar thickness, text sizes, gaps) times one factor k, chosen so the
   * smallest text is at least MIN_TEXT_CSS_PX and no larger than the model's
   * own size unless that is needed; only the plot's width stretches to the
   * window. Rows, their order, colours, label texts and thinning stay the
   * model's: thinning holds because the pitch and the label size scale alike.
   */
  var MIN_TEXT_CSS_PX = 11;
  var MIN_PLOT_CSS_PX = 240;
  var APP_PAD_CSS_PX = 10;      /* .rli-app's left and right padding */
  var BOTTOM_GAP_CSS_PX = 12;   /* kept below the stage so the axis never touches the window edge */

  function mapText(text, x, y, k, maxWidth) {
    var mapped = {};
    for (var key in text) mapped[key] = text[key];
    mapped.x = x;
    mapped.y = y;
    mapped.size = text.size * k;
    mapped.maxWidth = maxWidth === undefined ? text.maxWidth * k : maxWidth;
    return mapped;
  }

  function Timeline(model, bars) {
    var self = this;
    this.model = model;
    this.bars = bars;
    this.family = cssFontFamily(model.fontFamily);
    this.seriesRgb = model.series.map(function (s) { return parseColor(s.color); });
    this.hidden = new Uint8Array(model.series.length);
    this.order = 'rank';
    this.hoverMode = 'closest';
    this.dragMode = 'zoom';
    this.filter = '';
    this.left = model.xMin;
    this.right = model.xMax;
    this.scrollY = 0;
    this.ellipsized = new Map();
    this.summary = { count: new Float64Array(model.series.length), total: new Float64Array(model.series.length) };
    this.drawCount = 0;
    this.rowModelCenter = function (row) { return model.plot[1] + (row + 0.5) * model.rowPitch; };
    this.labelEvery = 1;
    for (var r = 1; r < model.rows.length; r++) {
      if (model.rowLabels[r] && model.rowLabels[r].text) break;
      if (model.rows[r].label) this.labelEvery = r + 1;
    }
    this.scrollbarWidth = measureScrollbar();
    this.page = this.pageGeometry();
    this.buildDom();
    this.updateDisplayRows();
    this.resize();
    window.addEventListener('resize', function () { self.resize(); self.draw(); });
  }

  function measureScrollbar() {
    var probe = element('div');
    probe.style.cssText = 'position:absolute;top:-200px;width:100px;height:100px;overflow-y:scroll';
    document.body.appendChild(probe);
    var width = probe.offsetWidth - probe.clientWidth;
    probe.remove();
    /* overlay scrollbars take no room; keep a strip to grab them by */
    return Math.max(10, width);
  }

  /* The model as placed, in page units: what the PNG back-end draws. */
  Timeline.prototype.pageGeometry = function () {
    var model = this.model, plot = model.plot;
    return {
      kind: 'page', width: model.width, height: model.height, k: 1,
      plot: plot.slice(), rowsTop: plot[1], pitch: model.rowPitch, barThickness: model.barThickness,
      outlineWidth: model.barOutlineWidth, outlineMinSize: model.barOutlineMinSize,
      gridWidth: model.gridWidth, tickTarget: model.xtickTarget,
      tickLabelSize: model.tickLabelSize, tickLabelGap: model.tickLabelGap,
      title: model.title, xTitle: model.xTitle, yTitle: model.yTitle,
      labelRoom: Infinity, clipLabels: false, legend: true
    };
  };

  /* The smallest text the page shows, in page units: row labels, tick labels, legend. */
  Timeline.prototype.smallestTextSize = function () {
    var model = this.model, sizes = [model.tickLabelSize];
    if (model.rowLabels.length) sizes.push(model.rowLabels[0].size);
    if (model.legendTitle && model.legendTitle.text) sizes.push(model.legendTitle.size);
    model.legendLabels.forEach(function (label) { if (label && label.text) sizes.push(label.size); });
    return Math.min.apply(null, sizes.filter(function (s) { return s > 0; }).concat([Infinity]));
  };

  /* The model mapped to a window `available` CSS px wide and `tall` CSS px high from the stage's top. */
  Timeline.prototype.windowGeometry = function (available, tall) {
    var model = this.model, plot = model.plot;
    var smallest = this.smallestTextSize();
    var k = Math.min(1, available / model.width);
    if (isFinite(smallest) && smallest * k < MIN_TEXT_CSS_PX) k = MIN_TEXT_CSS_PX / smallest;

    var modelRight = model.width - plot[0] - plot[2];
    var legendGap = model.legendTitle && model.legendTitle.text ? (model.legendTitle.x - plot[0] - plot[2]) * k : 0;
    var left = Math.min(plot[0] * k, 0.4 * available);
    var right = Math.min(modelRight * k, 0.35 * available);
    var bar = this.scrollbarWidth;
    var width = Math.max(available, left + MIN_PLOT_CSS_PX + bar + right);
    var plotWidth = width - left - bar - right;

    var top = model.title.text ? Math.round(2.2 * model.title.size * k) : Math.round(16 * k);
    var bottom = (model.height - plot[1] - plot[3]) * k;
    var pitch = model.rowPitch * k;
    var content = model.rows.length * pitch;
    var band = Math.min(content, Math.max(tall - top - bottom, Math.min(content, Math.max(3 * pitch, 120))));
    band = Math.max(band, 1);
    var height = Math.ceil(top + band + bottom);

    /* row labels keep the model's room unless the left margin had to give some up */
    var label = model.rowLabels[0];
    var labelGap = label ? (plot[0] - label.x) * k : 0;
    var yTitleRight = (model.yTitle.x + model.yTitle.size * 0.7) * k;
    var labelRoom = Math.max(20, left - labelGap - yTitleRight);

    var plotBottom = plot[1] + plot[3];
    return {
      kind: 'window', width: width, height: height, k: k,
      plot: [left, top, plotWidth, band], rowsTop: top - this.scrollY, pitch: pitch,
      barThickness: model.barThickness * k, outlineWidth: model.barOutlineWidth * k,
      outlineMinSize: model.barOutlineMinSize * k, gridWidth: model.gridWidth,
      /* the model's tick density (page units per tick) at the window's scale */
      tickTarget: Math.max(2, Math.round(plotWidth / (plot[2] / model.xtickTarget * k))),
      tickLabelSize: model.tickLabelSize * k, tickLabelGap: model.tickLabelGap * k,
      title: mapText(model.title, width / 2, top / 2, k),
      xTitle: mapText(model.xTitle, left + plotWidth / 2, top + band + (model.xTitle.y - plotBottom) * k, k),
      yTitle: mapText(model.yTitle, model.yTitle.x * k, top + band / 2, k),
      labelRoom: labelRoom, clipLabels: true, legend: false,
      scrollbarLeft: left + plotWidth, scrollbarWidth: bar,
      legendLeft: left + plotWidth + bar + legendGap, legendWidth: Math.max(0, right - legendGap),
      contentHeight: 0, maxScroll: 0
    };
  };

  Timeline.prototype.buildDom = function () {
    var self = this, model = this.model;
    document.body.style.fontFamily = this.family;
    var app = element('div', 'rli-app');
    var toolbar = element('div', 'rli-toolbar');
    this.buttons = {};

    function group(entries) {
      var box = element('div', 'rli-group');
      entries.forEach(function (entry) {
        var button = element('button', null, entry[1]);
        button.type = 'button';
        button.dataset.action = entry[0];
        button.addEventListener('click', entry[2]);
        self.buttons[entry[0]] = button;
        box.appendChild(button);
      });
      toolbar.appendChild(box);
    }
    group([['hover-closest', 'Hover: Current Only', function () { self.setHoverMode('closest'); }],
           ['hover-all', 'Hover: All Ranks', function () { self.setHoverMode('all'); }]]);
    /* one button that says the order in force; a click switches to the other */
    group([['order', 'Order: by rank', function () { self.setOrder(self.order === 'rank' ? 'role' : 'rank'); }]]);
    group([['mode-zoom', 'Zoom', function () { self.setDragMode('zoom'); }],
           ['mode-pan', 'Pan', function () { self.setDragMode('pan'); }],
           ['reset', 'Reset', function () { self.reset(); }]]);
    group([['export-png', 'Export PNG', function () { self.exportPng(); }]]);

    this.filterInput = element('input', 'rli-filter');
    this.filterInput.type = 'search';
    this.filterInput.placeholder = 'Filter: name, role or rank';
    this.filterInput.setAttribute('aria-label', 'Filter by name, role or rank');
    this.filterInput.addEventListener('input', function () { self.setFilter(self.filterInput.value); });
    toolbar.appendChild(this.filterInput);

    var range = element('span', 'rli-range');
    function rangeInput(label) {
      var wrapper = element('label', null, label + ' ');
      var input = element('input');
      input.type = 'number';
      input.step = 'any';
      input.addEventListener('change', function () { self.applyRangeInputs(input); });
      wrapper.appendChild(input);
      wrapper.appendChild(document.createTextNode(' ms'));
      range.appendChild(wrapper);
      return input;
    }
    this.leftInput = rangeInput('Left');
    this.rightInput = rangeInput('Right');
    this.rangeError = element('span', 'rli-range-error');
    this.rangeError.setAttribute('role', 'status');
    range.appendChild(this.rangeError);
    toolbar.appendChild(range);

    var stage = element('div', 'rli-stage');
    this.canvas = element('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', model.title.text);
    this.box = element('div', 'rli-box');
    this.tooltip = element('div', 'rli-tooltip');
    this.cursor = element('div', 'rli-cursor');
    this.empty = element('div', 'rli-empty');
    this.empty.setAttribute('role', 'status');
    /* the rows' scrollbar, between the plot and the legend; the canvas draws only the rows in view */
    this.scroller = element('div', 'rli-vscroll');
    this.scroller.setAttribute('aria-label', 'Scroll rows');
    this.scrollSpacer = element('div');
    this.scroller.appendChild(this.scrollSpacer);
    this.scroller.addEventListener('scroll', function () {
      /* the element rounds: its end is the rows' end, and sub-pixel echoes of setScroll are no change */
      var scroller = self.scroller, top = scroller.scrollTop;
      if (top >= scroller.scrollHeight - scroller.clientHeight - 1) top = self.screen.maxScroll;
      if (Math.abs(top - self.scrollY) < 1) return;
      self.setScroll(top, true);
    });
    this.legend = this.buildLegend();
    stage.appendChild(this.canvas);
    stage.appendChild(this.scroller);
    stage.appendChild(this.legend);
    stage.appendChild(this.empty);
    stage.appendChild(this.cursor);
    stage.appendChild(this.box);
    stage.appendChild(this.tooltip);
    this.stage = stage;

    var summary = element('div', 'rli-summary');
    var table = element('table');
    table.appendChild(element('caption', null, 'In view'));
    var head = element('tr');
    ['Name', 'Bars', 'Total duration (ms)'].forEach(function (h) { head.appendChild(element('th', null, h)); });
    table.appendChild(head);
    this.summaryCells = model.series.map(function (s, index) {
      var row = element('tr');
      var nameCell = element('td');
      var swatch = element('span', 'rli-swatch');
      swatch.style.background = s.color;
      nameCell.appendChild(swatch);
      nameCell.appendChild(document.createTextNode(s.name));
      var countCell = element('td', 'rli-num'), totalCell = element('td', 'rli-num');
      row.appendChild(nameCell);
      row.appendChild(countCell);
      row.appendChild(totalCell);
      row.dataset.series = String(index);
      row.title = 'Click to hide or show this name';
      row.addEventListener('click', function () { self.toggleSeries(index); });
      table.appendChild(row);
      return { row: row, count: countCell, total: totalCell };
    });
    summary.appendChild(table);

    app.appendChild(toolbar);
    app.appendChild(stage);
    app.appendChild(summary);
    document.body.appendChild(app);
    this.app = app;
    this.bindPointer();
    this.refreshButtons();
  };

  /*
   * The legend in the window: the model's entries (its texts, the swatches it
   * placed, its "... N more"), one column that scrolls when the window is
   * shorter than the page. Export PNG draws the model's own legend instead.
   */
  Timeline.prototype.buildLegend = function () {
    var self = this, model = this.model;
    var legend = element('div', 'rli-legend');
    var inner = element('div', 'rli-legend-inner');
    this.legendTitle = null;
    if (model.legendTitle && model.legendTitle.text) {
      var title = element('div', 'rli-legend-title', model.legendTitle.text);
      title.style.fontWeight = model.legendTitle.bold ? 'bold' : 'normal';
      title.style.color = model.legendTitle.color;
      inner.appendChild(title);
      this.legendTitle = title;
    }
    this.legendEntries = [];
    model.series.forEach(function (s, index) {
      var label = model.legendLabels[index], swatch = model.legendSwatches[index];
      if (!label || !label.text) return;
      var hasSwatch = swatch && swatch[2] > 0 && swatch[3] > 0;
      var entry = element(hasSwatch ? 'button' : 'div', 'rli-legend-entry');
      entry.style.color = label.color;
      var mark = element('span', 'rli-legend-swatch');
      if (hasSwatch) {
        entry.type = 'button';
        entry.dataset.series = String(index);
        entry.title = 'Click to hide or show ' + s.name;
        mark.style.background = s.color;
        entry.addEventListener('click', function () { self.toggleSeries(index); });
      }
      entry.appendChild(mark);
      entry.appendChild(element('span', 'rli-legend-text', label.text));
      inner.appendChild(entry);
      self.legendEntries.push({ series: index, node: entry, swatch: hasSwatch ? mark : null, label: label });
    });
    legend.appendChild(inner);
    return legend;
  };

  Timeline.prototype.refreshButtons = function () {
    var b = this.buttons;
    b['hover-closest'].classList.toggle('rli-active', this.hoverMode === 'closest');
    b['hover-all'].classList.toggle('rli-active', this.hoverMode === 'all');
    b.order.textContent = this.order === 'role' ? 'Order: by role' : 'Order: by rank';
    b.order.title = this.order === 'role'
      ? 'Rows are ordered by role, then rank. Click to order them by rank, as in the PNG.'
      : 'Rows are ordered by rank, as in the PNG. Click to order them by role.';
    b['mode-zoom'].classList.toggle('rli-active', this.dragMode === 'zoom');
    b['mode-pan'].classList.toggle('rli-active', this.dragMode === 'pan');
    this.canvas.classList.toggle('rli-pan', this.dragMode === 'pan');
    var hidden = this.hidden;
    this.legendEntries.forEach(function (entry) {
      entry.node.classList.toggle('rli-hidden', !!hidden[entry.series]);
      if (entry.swatch) entry.node.setAttribute('aria-pressed', hidden[entry.series] ? 'false' : 'true');
    });
  };

  /* Which rows show, top to bottom, and which series each may show under the filter. */
  Timeline.prototype.updateDisplayRows = function () {
    var model = this.model, bars = this.bars;
    var base = [], r;
    if (this.order === 'role') base = model.orderByRole.slice();
    else for (r = 0; r < model.rows.length; r++) base.push(r);
    var query = this.filter.trim().toLowerCase();
    this.rowSeriesMask = null;
    if (!query) {
      this.displayRows = base;
      this.updateEmpty();
      return;
    }
    var seriesMatch = model.series.map(function (s) { return s.name.toLowerCase().indexOf(query) >= 0; });
    var shown = [], masks = new Map();
    base.forEach(function (row) {
      var info = model.rows[row];
      if (info.label.toLowerCase().indexOf(query) >= 0 || info.role.toLowerCase().indexOf(query) >= 0 ||
          info.rank === query || ('rank ' + info.rank) === query) {
        shown.push(row);
        return;
      }
      var runs = bars.rowRuns[row];
      for (var k = 0; k < runs.length; k++) {
        if (seriesMatch[bars.runSeries[runs[k]]]) {
          shown.push(row);
          masks.set(row, seriesMatch);
          return;
        }
      }
    });
    this.displayRows = shown;
    this.rowSeriesMask = masks;
    this.updateEmpty();
  };

  /* Over an empty plot, say why: the filter matched no bar (its text as typed, as text). */
  Timeline.prototype.updateEmpty = function () {
    var query = this.filter.trim();
    var none = query !== '' && this.displayRows.length === 0;
    this.empty.textContent = none ? 'no bar matches \'' + query + '\'' : '';
    this.empty.style.display = none ? 'flex' : 'none';
  };

  Timeline.prototype.seriesShown = function (row, series) {
    if (this.hidden[series]) return false;
    if (!this.rowSeriesMask) return true;
    var mask = this.rowSeriesMask.get(row);
    return !mask || mask[series];
  };

  /* Lays the stage out for the window it is in: canvas, rows' scrollbar, legend, overlays. */
  Timeline.prototype.resize = function () {
    var root = document.documentElement;
    var available = Math.max(320, (root.clientWidth || window.innerWidth) - 2 * APP_PAD_CSS_PX);
    var stageTop = this.stage.getBoundingClientRect().top + (window.scrollY || 0);
    var tall = (window.innerHeight || 800) - stageTop - BOTTOM_GAP_CSS_PX;
    var g = this.windowGeometry(available, tall);
    this.screen = g;
    this.stageTop = stageTop;

    var ratio = window.devicePixelRatio || 1;
    this.deviceScale = Math.min(ratio, MAX_CANVAS_SIDE / g.width, MAX_CANVAS_SIDE / g.height,
                                Math.sqrt(MAX_CANVAS_AREA / (g.width * g.height)));
    this.canvas.width = Math.max(1, Math.round(g.width * this.deviceScale));
    this.canvas.height = Math.max(1, Math.round(g.height * this.deviceScale));
    this.canvas.style.width = g.width + 'px';
    this.canvas.style.height = g.height + 'px';
    this.stage.style.width = g.width + 'px';
    this.stage.style.height = g.height + 'px';

    var plot = g.plot, k = g.k, model = this.model;
    var scroller = this.scroller.style;
    scroller.left = g.scrollbarLeft + 'px';
    scroller.top = plot[1] + 'px';
    scroller.width = g.scrollbarWidth + 'px';
    scroller.height = plot[3] + 'px';

    var empty = this.empty.style;
    empty.left = plot[0] + 'px';
    empty.top = plot[1] + 'px';
    empty.width = plot[2] + 'px';
    empty.height = plot[3] + 'px';
    empty.fontSize = (model.tickLabelSize * k) + 'px';

    var legend = this.legend.style;
    legend.left = g.legendLeft + 'px';
    legend.top = plot[1] + 'px';
    legend.width = g.legendWidth + 'px';
    legend.height = plot[3] + 'px';
    var first = this.legendEntries[0];
    var line = model.legendTitle && first ? first.label.y - model.legendTitle.y : 22;
    if (!(line > 0)) line = 22;
    this.legend.style.lineHeight = (line * k) + 'px';
    if (this.legendTitle) this.legendTitle.style.fontSize = (model.legendTitle.size * k) + 'px';
    this.legendEntries.forEach(function (entry) {
      var swatch = model.legendSwatches[entry.series];
      entry.node.style.fontSize = (entry.label.size * k) + 'px';
      var mark = entry.node.firstChild.style;
      mark.width = ((swatch && swatch[2] > 0 ? swatch[2] : 20) * k) + 'px';
      mark.height = ((swatch && swatch[3] > 0 ? swatch[3] : 12) * k) + 'px';
      mark.marginRight = ((entry.label.x - (swatch && swatch[2] > 0 ? swatch[0] + swatch[2] : entry.label.x)) * k) + 'px';
      if (!entry.swatch) mark.visibility = 'hidden';
      entry.node.lastChild.style.maxWidth = (entry.label.maxWidth > 0 ? entry.label.maxWidth * k : g.legendWidth) + 'px';
    });
    this.updateScroll();
  };

  /* After the rows or the window change: the scrollbar's extent, and the scroll kept within it. */
  Timeline.prototype.updateScroll = function () {
    var g = this.screen;
    g.contentHeight = this.displayRows.length * g.pitch;
    g.maxScroll = Math.max(0, g.contentHeight - g.plot[3]);
    this.scrollSpacer.style.height = g.contentHeight + 'px';
    this.scroller.style.display = g.maxScroll > 0.5 ? 'block' : 'none';
    this.setScroll(this.scrollY, false);
  };

  /* Scrolls the rows to `top` CSS px; draws at once, or on the next frame when `later`. */
  Timeline.prototype.setScroll = function (top, later) {
    var g = this.screen;
    top = Math.max(0, Math.min(g.maxScroll, top || 0));
    var changed = top !== this.scrollY;
    this.scrollY = top;
    g.rowsTop = g.plot[1] - top;
    if (Math.abs(this.scroller.scrollTop - top) >= 1) this.scroller.scrollTop = top;
    if (!changed) return;
    this.hideTooltip();
    if (later) this.invalidate();
    else if (this.drawCount) this.draw();
  };

  /* Scrolls as little as needed for display position `position` to be in view. */
  Timeline.prototype.revealRow = function (position) {
    var g = this.screen;
    var top = position * g.pitch, bottom = top + g.pitch;
    if (top < this.scrollY) this.setScroll(top, false);
    else if (bottom > this.scrollY + g.plot[3]) this.setScroll(bottom - g.plot[3], false);
  };

  Timeline.prototype.ticks = function (g) {
    var model = this.model;
    g = g || this.screen;
    if (this.left === model.xMin && this.right === model.xMax && model.xticks.length && g.tickTarget === model.xtickTarget)
      return model.xticks;
    return niceTicks(this.left, this.right, g.tickTarget, model.xtickMax);
  };

  Timeline.prototype.fontFor = function (size, bold) {
    return (bold ? 'bold ' : '') + size + 'px ' + this.family;
  };

  Timeline.prototype.fitText = function (ctx, text, maxWidth) {
    if (!(maxWidth > 0) || ctx.measureText(text).width <= maxWidth) return text;
    var key = ctx.font + '\u0000' + maxWidth + '\u0000' + text;
    var cached = this.ellipsized.get(key);
    if (cached !== undefined) return cached;
    var chars = Array.from(text), lo = 0, hi = chars.length;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (ctx.measureText(chars.slice(0, mid).join('') + '\u2026').width <= maxWidth) lo = mid; else hi = mid - 1;
    }
    var result = chars.slice(0, lo).join('') + '\u2026';
    this.ellipsized.set(key, result);
    return result;
  };

  Timeline.prototype.drawText = function (ctx, text, y, color) {
    if (!text || !text.text) return;
    ctx.save();
    ctx.translate(text.x, y === undefined ? text.y : y);
    if (text.angle) ctx.rotate(-text.angle * Math.PI / 180);
    ctx.font = this.fontFor(text.size, text.bold);
    ctx.fillStyle = color || text.color;
    ctx.textAlign = ALIGN_H[text.halign] || 'left';
    ctx.textBaseline = ALIGN_V[text.valign] || 'alphabetic';
    ctx.fillText(this.fitText(ctx, text.text, text.maxWidth), 0, 0);
    ctx.restore();
  };

  /* Draws the view onto ctx in geometry g at `scale` device pixels per unit of g. */
  Timeline.prototype.paint = function (ctx, scale, g) {
    var model = this.model, plot = g.plot, self = this;
    var start = performance.now();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = model.background;
    ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    ctx.setTransform(scale, 0, 0, scale, 0, 0);

    var span = this.right - this.left;
    var ticks = this.ticks(g);
    ctx.strokeStyle = model.gridColor;
    ctx.lineWidth = g.gridWidth;
    ctx.beginPath();
    ticks.forEach(function (tick) {
      var x = plot[0] + (tick.value - self.left) / span * plot[2];
      if (x < plot[0] - 0.01 || x > plot[0] + plot[2] + 0.01) return;
      ctx.moveTo(x, plot[1]);
      ctx.lineTo(x, plot[1] + plot[3]);
    });
    ctx.stroke();

    this.paintBars(ctx, scale, g);

    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.font = this.fontFor(g.tickLabelSize, false);
    ctx.fillStyle = model.textColor;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ticks.forEach(function (tick) {
      var x = plot[0] + (tick.value - self.left) / span * plot[2];
      if (x < plot[0] - 0.01 || x > plot[0] + plot[2] + 0.01) return;
      ctx.fillText(tick.label, x, plot[1] + plot[3] + g.tickLabelGap);
    });

    this.drawText(ctx, g.title);
    this.drawText(ctx, g.xTitle);
    this.drawText(ctx, g.yTitle);
    this.paintRowLabels(ctx, g);
    if (g.kind === 'window' && g.maxScroll > 0) this.paintRowsShown(ctx, g);
    if (g.legend) {
      this.drawText(ctx, model.legendTitle);
      model.series.forEach(function (s, index) {
        var swatch = model.legendSwatches[index];
        ctx.globalAlpha = self.hidden[index] ? 0.35 : 1;
        if (swatch && swatch[2] > 0) {
          ctx.fillStyle = s.color;
          ctx.fillRect(swatch[0], swatch[1], swatch[2], swatch[3]);
        }
        self.drawText(ctx, model.legendLabels[index]);
        ctx.globalAlpha = 1;
      });
    }
    return performance.now() - start;
  };

  /* Which rows the band shows (their centres in view), when not all: under the labels, on the axis title's line. */
  Timeline.prototype.paintRowsShown = function (ctx, g) {
    var model = this.model, n = this.displayRows.length;
    var first = Math.max(1, Math.ceil(this.scrollY / g.pitch - 0.5 - 1e-9) + 1);
    var last = Math.min(n, Math.floor((this.scrollY + g.plot[3]) / g.pitch - 0.5 + 1e-9) + 1);
    if (first <= 1 && last >= n) return;
    var size = model.rowLabels.length ? model.rowLabels[0].size * g.k : g.tickLabelSize;
    var label = model.rowLabels[0];
    ctx.font = this.fontFor(size, false);
    ctx.fillStyle = model.textColor;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'top';
    ctx.fillText('rows ' + first + '\u2013' + last + ' of ' + n + ' \u2195',
                 g.plot[0] - (label ? (model.plot[0] - label.x) * g.k : 0), g.xTitle.y);
  };

  /*
   * Where the layout thinned labels (rows closer than a label is tall), the
   * same thinning applies to display positions, so labels never collide
   * after a sort or a filter; the texts are still the model's row labels.
   * Only the positions in the rows' band are drawn, clipped to it.
   */
  Timeline.prototype.paintRowLabels = function (ctx, g) {
    var model = this.model, plot = g.plot, rows = this.displayRows, k = g.k;
    var every = this.labelEvery;
    var first = 0, last = rows.length - 1;
    if (g.clipLabels) {
      /* a label may overhang the band by half its height, as the PNG's first and last labels overhang the plot */
      var overhang = rows.length && model.rowLabels[rows[0]] ? model.rowLabels[rows[0]].size * k * 0.6 : 0;
      ctx.save();
      ctx.beginPath();
      ctx.rect(0, plot[1] - overhang, plot[0], plot[3] + 2 * overhang);
      ctx.clip();
      first = Math.max(0, Math.floor((plot[1] - g.rowsTop) / g.pitch) - every);
      last = Math.min(last, Math.ceil((plot[1] + plot[3] - g.rowsTop) / g.pitch) + every);
    }
    for (var position = first - first % every; position <= last; position += every) {
      var row = rows[position];
      var label = model.rowLabels[row];
      if (!label) continue;
      var text = every > 1 ? model.rows[row].label : label.text;
      var y = g.rowsTop + (position + 0.5) * g.pitch + (label.y - this.rowModelCenter(row)) * k;
      var mapped = mapText(label, plot[0] - (model.plot[0] - label.x) * k, y, k,
                           Math.min(label.maxWidth > 0 ? label.maxWidth * k : Infinity, g.labelRoom));
      if (!(mapped.maxWidth < Infinity)) mapped.maxWidth = 0;
      mapped.text = text;
      this.drawText(ctx, mapped);
    }
    if (g.clipLabels) ctx.restore();
  };
  /*
   * Bars of the visible rows and time range only (binary search on each run's
   * prefix max of ends, stop at the first start past the view). Every row is
   * one line of device-pixel columns, composited here run by run as the
   * PNG's painter does: bars wide enough for an outline paint their outline's
   * outer edges, then themselves inset by half of it; every other bar adds its
   * exact per-column union to a coverage drawn with alpha = coverage. The line
   * is then stretched over the bar's height: no canvas call per bar.
   * Rows scrolled out of the band are only counted, for the summary.
   */
  Timeline.prototype.paintBars = function (ctx, scale, g) {
    var model = this.model, bars = this.bars, plot = g.plot;
    var left = this.left, right = this.right;
    var layerLeft = Math.floor(plot[0] * scale), layerTop = Math.floor(plot[1] * scale);
    var width = Math.max(1, Math.ceil((plot[0] + plot[2]) * scale) - layerLeft);
    var height = Math.max(1, Math.ceil((plot[1] + plot[3]) * scale) - layerTop);
    var layer = this.layerFor(width);
    var pixels = layer.pixels, coverage = layer.coverage, rowPixels = layer.row;
    var accR = layer.r, accG = layer.g, accB = layer.b, accA = layer.a;
    var spans = layer.spans;
    var pxPerMs = plot[2] * scale / (right - left);
    var origin = plot[0] * scale - layerLeft;
    var start = bars.start, end = bars.end, maxEnd = bars.maxEnd;
    var count = this.summary.count, total = this.summary.total;
    count.fill(0);
    total.fill(0);
    var half = g.barThickness * scale / 2;
    var outline = g.outlineWidth * scale;
    var outlineRgb = parseColor(model.barOutline);
    var outlineMin = g.outlineMinSize * scale;
    var outlined = outline > 0 && half * 2 >= outlineMin;
    var wideFrom = outlined ? Math.max(WIDE_PX, outlineMin) : Infinity;
    /* outlined bars lose half an outline top and bottom, as the PNG's stroke paints there */
    var inset = outlined ? outline / 2 : 0;
    var rows = this.displayRows;
    var drawn = 0;
    var rowMin, rowMax;

    /* Paints [from, to) opaquely in one colour over the row line, edges by their covered fraction. */
    function paintSpan(from, to, rgb) {
      if (from < 0) from = 0;
      if (to > width) to = width;
      if (!(to > from)) return;
      var first = Math.floor(from), last = Math.floor(to), c, f, keep;
      if (first < rowMin) rowMin = first;
      if ((to > last ? last : last - 1) > rowMax) rowMax = to > last ? last : last - 1;
      if (first === last) {
        f = to - from; keep = 1 - f;
        accR[first] = rgb[0] * f + accR[first] * keep;
        accG[first] = rgb[1] * f + accG[first] * keep;
        accB[first] = rgb[2] * f + accB[first] * keep;
        accA[first] = f + accA[first] * keep;
        return;
      }
      f = first + 1 - from; keep = 1 - f;
      accR[first] = rgb[0] * f + accR[first] * keep;
      accG[first] = rgb[1] * f + accG[first] * keep;
      accB[first] = rgb[2] * f + accB[first] * keep;
      accA[first] = f + accA[first] * keep;
      for (c = first + 1; c < last; c++) {
        accR[c] = rgb[0]; accG[c] = rgb[1]; accB[c] = rgb[2]; accA[c] = 1;
      }
      if (last < width && to > last) {
        f = to - last; keep = 1 - f;
        accR[last] = rgb[0] * f + accR[last] * keep;
        accG[last] = rgb[1] * f + accG[last] * keep;
        accB[last] = rgb[2] * f + accB[last] * keep;
        accA[last] = f + accA[last] * keep;
      }
    }

    var strips = [];
    var self = this;
    function flushStrips() {
      if (!strips.length) return;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      layer.context.putImageData(layer.image, 0, 0, 0, 0, width, strips.length);
      var smoothing = ctx.imageSmoothingEnabled;
      ctx.imageSmoothingEnabled = false;
      ctx.save();
      ctx.beginPath();
      ctx.rect(layerLeft, layerTop, width, height);
      ctx.clip();
      for (var q = 0; q < strips.length; q++) {
        var strip = strips[q], span = strip.max - strip.min + 1;
        ctx.drawImage(layer.canvas, strip.min, q, span, 1, layerLeft + strip.min, layerTop + strip.top, span, strip.height);
      }
      ctx.restore();
      ctx.imageSmoothingEnabled = smoothing;
      pixels.fill(0, 0, strips.length * width);
      strips = [];
      self.stripFlushes++;
    }
    this.stripFlushes = 0;

    for (var position = 0; position < rows.length; position++) {
      var row = rows[position];
      var centre = (g.rowsTop + (position + 0.5) * g.pitch) * scale - layerTop;
      if (centre - half > height || centre + half < 0) {
        drawn += this.countRow(row);
        continue;
      }
      rowMin = width;
      rowMax = -1;
      var runs = bars.rowRuns[row];
      for (var k = 0; k < runs.length; k++) {
        var run = runs[k], series = bars.runSeries[run];
        if (!this.seriesShown(row, series)) continue;
        var rgb = this.seriesRgb[series];
        var stop = bars.runFirst[run + 1];
        var first = lowerBound(maxEnd, bars.runFirst[run], stop, left);
        var unionLeft = 0, unionRight = -1, minColumn = width, maxColumn = -1;
        var seriesCount = 0, seriesTotal = 0, spanCount = 0;
        for (var i = first; i < stop; i++) {
          var s = start[i];
          if (s > right) break;
          var e = end[i];
          if (e < left) continue;
          var a = s < left ? left : s, b = e > right ? right : e;
          seriesCount++;
          seriesTotal += b - a;
          var x0 = origin + (a - left) * pxPerMs, x1 = origin + (b - left) * pxPerMs;
          if (x1 - x0 >= wideFrom) {
            if (spanCount * 2 === spans.length) spans = layer.spans = growFloat64(spans);
            spans[spanCount * 2] = x0;
            spans[spanCount * 2 + 1] = x1;
            spanCount++;
            continue;
          }
          if (x0 > unionRight) {
            if (unionRight > unionLeft) {
              addCoverage(coverage, width, unionLeft, unionRight);
              if (unionLeft < minColumn) minColumn = Math.max(0, Math.floor(unionLeft));
              maxColumn = Math.min(width - 1, Math.floor(unionRight));
            }
            unionLeft = x0;
            unionRight = x1;
          } else if (x1 > unionRight) {
            unionRight = x1;
          }
        }
        if (unionRight > unionLeft) {
          addCoverage(coverage, width, unionLeft, unionRight);
          if (unionLeft < minColumn) minColumn = Math.max(0, Math.floor(unionLeft));
          maxColumn = Math.min(width - 1, Math.floor(unionRight));
        }
        count[series] += seriesCount;
        total[series] += seriesTotal;
        drawn += seriesCount;
        if (spanCount) {
          var h = outline / 2, n;
          for (n = 0; n < spanCount; n++) paintSpan(spans[2 * n] - h, spans[2 * n + 1] + h, outlineRgb);
          for (n = 0; n < spanCount; n++) paintSpan(spans[2 * n] + h, spans[2 * n + 1] - h, rgb);
        }
        if (maxColumn >= minColumn) {
          for (var c = minColumn; c <= maxColumn; c++) {
            var alpha = coverage[c];
            if (alpha <= 0) continue;
            if (alpha > 1) alpha = 1;
            var keep = 1 - alpha;
            accR[c] = rgb[0] * alpha + accR[c] * keep;
            accG[c] = rgb[1] * alpha + accG[c] * keep;
            accB[c] = rgb[2] * alpha + accB[c] * keep;
            accA[c] = alpha + accA[c] * keep;
            coverage[c] = 0;
          }
          if (minColumn < rowMin) rowMin = minColumn;
          if (maxColumn > rowMax) rowMax = maxColumn;
        }
      }
      if (rowMax >= rowMin) {
        for (var column = rowMin; column <= rowMax; column++) {
          var opacity = accA[column];
          if (opacity > 0) {
            var inverse = 1 / opacity;
            rowPixels[column] = ((Math.round(opacity * 255) << 24) | (Math.round(accB[column] * inverse) << 16) |
                                 (Math.round(accG[column] * inverse) << 8) | Math.round(accR[column] * inverse)) >>> 0;
          } else {
            rowPixels[column] = 0;
          }
          accR[column] = accG[column] = accB[column] = accA[column] = 0;
        }
        pixels.set(rowPixels.subarray(rowMin, rowMax + 1), strips.length * width + rowMin);
        strips.push({ min: rowMin, max: rowMax, top: centre - half + inset, height: half * 2 - 2 * inset });
        if (strips.length === layer.lines) flushStrips();
      }
    }
    flushStrips();
    this.drawnBars = drawn;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  };

  /* The coverage strip: STRIP_LINES rows of one device-pixel line each, plus per-column accumulators. */
  Timeline.prototype.layerFor = function (width) {
    var layer = this.layer;
    if (layer && layer.width === width) return layer;
    var canvas = element('canvas');
    canvas.width = width;
    canvas.height = STRIP_LINES;
    var context = canvas.getContext('2d');
    var image = context.createImageData(width, STRIP_LINES);
    layer = {
      width: width, lines: STRIP_LINES, canvas: canvas, context: context, image: image,
      pixels: new Uint32Array(image.data.buffer),
      coverage: new Float32Array(width + 1), row: new Uint32Array(width), spans: new Float64Array(1024),
      r: new Float32Array(width), g: new Float32Array(width), b: new Float32Array(width), a: new Float32Array(width)
    };
    this.layer = layer;
    return layer;
  };

  /* Counts a row's shown bars in the time range into the summary, without drawing; returns the count. */
  Timeline.prototype.countRow = function (row) {
    var bars = this.bars, runs = bars.rowRuns[row], left = this.left, right = this.right;
    var start = bars.start, end = bars.end, maxEnd = bars.maxEnd;
    var counted = 0;
    for (var k = 0; k < runs.length; k++) {
      var run = runs[k], series = bars.runSeries[run];
      if (!this.seriesShown(row, series)) continue;
      var stop = bars.runFirst[run + 1], n = 0, sum = 0;
      for (var i = lowerBound(maxEnd, bars.runFirst[run], stop, left); i < stop; i++) {
        var s = start[i];
        if (s > right) break;
        var e = end[i];
        if (e < left) continue;
        n++;
        sum += (e > right ? right : e) - (s < left ? left : s);
      }
      this.summary.count[series] += n;
      this.summary.total[series] += sum;
      counted += n;
    }
    return counted;
  };

  Timeline.prototype.draw = function () {
    var ctx = this.canvas.getContext('2d');
    var elapsed = this.paint(ctx, this.deviceScale, this.screen);
    this.drawCount++;
    this.lastDrawMs = elapsed;
    this.updateSummary();
    this.updateRangeInputs();
    return elapsed;
  };

  Timeline.prototype.invalidate = function () {
    var self = this;
    if (this.pending) return;
    this.pending = requestAnimationFrame(function () {
      self.pending = 0;
      self.draw();
    });
  };

  Timeline.prototype.updateSummary = function () {
    var count = this.summary.count, total = this.summary.total, hidden = this.hidden;
    this.summaryCells.forEach(function (cells, index) {
      cells.row.classList.toggle('rli-hidden', !!hidden[index]);
      cells.count.textContent = hidden[index] ? 'hidden' : String(count[index]);
      cells.total.textContent = hidden[index] ? '' : formatMs(total[index]);
    });
  };

  /* The boxes show the range in force, except one being typed in or one holding a refused value. */
  Timeline.prototype.updateRangeInputs = function () {
    [[this.leftInput, this.left], [this.rightInput, this.right]].forEach(function (pair) {
      var input = pair[0];
      if (document.activeElement === input || input.classList.contains('rli-invalid')) return;
      var text = formatMs(pair[1]);
      if (input.value !== text) input.value = text;
    });
  };

  Timeline.prototype.markRange = function (input, message) {
    [this.leftInput, this.rightInput].forEach(function (box) {
      var bad = box === input;
      box.classList.toggle('rli-invalid', bad);
      if (bad) box.setAttribute('aria-invalid', 'true'); else box.removeAttribute('aria-invalid');
      box.title = bad ? message : '';
    });
    this.rangeError.textContent = message || '';
    this.relayoutIfMoved();
  };

  Timeline.prototype.clearRangeMarks = function () {
    if (this.leftInput.classList.contains('rli-invalid') || this.rightInput.classList.contains('rli-invalid') ||
        this.rangeError.textContent)
      this.markRange(null, '');
  };

  /*
   * A range from the boxes is taken only when both are numbers, Right is past
   * Left, it overlaps the data and it is no wider than zoom allows. Otherwise
   * the box just changed turns red with the reason beside it, and the range
   * in force stays (the refused number stays visible in red, not as if taken).
   */
  Timeline.prototype.applyRangeInputs = function (changed) {
    var model = this.model;
    var lText = this.leftInput.value.trim(), rText = this.rightInput.value.trim();
    var l = Number(lText), r = Number(rText);
    var full = model.xMax - model.xMin || 1;
    var message = '';
    if (lText === '' || !isFinite(l)) message = 'Left is not a number';
    else if (rText === '' || !isFinite(r)) message = 'Right is not a number';
    else if (!(r > l)) message = 'Right must be greater than Left';
    else if (r <= model.xMin || l >= model.xMax)
      message = 'outside the data (' + formatMs(model.xMin) + ' to ' + formatMs(model.xMax) + ' ms)';
    else if (r - l > full * 20) message = 'wider than 20 times the data';
    if (message) {
      var box = changed || this.rightInput;
      if (/^Left/.test(message)) box = this.leftInput;
      else if (/^Right is/.test(message)) box = this.rightInput;
      this.markRange(box, message);
      return false;
    }
    this.markRange(null, '');
    this.zoomTo(l, r);
    return true;
  };

  /* When the toolbar's height changed (a message wrapped it), the stage moved: lay it out again. */
  Timeline.prototype.relayoutIfMoved = function () {
    var top = this.stage.getBoundingClientRect().top + (window.scrollY || 0);
    if (Math.abs(top - this.stageTop) < 0.5) return;
    this.resize();
    this.draw();
  };

  /* ---- state changes (also the test hook's methods) ---- */

  Timeline.prototype.zoomTo = function (left, right) {
    var full = this.model.xMax - this.model.xMin || 1;
    if (!(right > left)) return this.lastDrawMs;
    var minimum = Math.max(1e-6, Math.abs(left) * 1e-12);
    if (right - left < minimum) {
      var middle = (left + right) / 2;
      left = middle - minimum / 2;
      right = middle + minimum / 2;
    }
    if (right - left > full * 20) return this.lastDrawMs;
    this.left = left;
    this.right = right;
    this.clearRangeMarks();
    this.hideTooltip();
    return this.draw();
  };

  Timeline.prototype.reset = function () {
    return this.zoomTo(this.model.xMin, this.model.xMax);
  };

  Timeline.prototype.setOrder = function (order) {
    this.order = order === 'role' ? 'role' : 'rank';
    this.updateDisplayRows();
    this.refreshButtons();
    this.hideTooltip();
    this.updateScroll();
    this.draw();
  };

  Timeline.prototype.setHoverMode = function (mode) {
    this.hoverMode = mode === 'all' ? 'all' : 'closest';
    this.refreshButtons();
    this.hideTooltip();
  };

  Timeline.prototype.setDragMode = function (mode) {
    this.dragMode = mode === 'pan' ? 'pan' : 'zoom';
    this.refreshButtons();
  };

  Timeline.prototype.setFilter = function (text) {
    this.filter = String(text || '');
    if (this.filterInput.value !== this.filter) this.filterInput.value = this.filter;
    this.updateDisplayRows();
    this.hideTooltip();
    this.updateScroll();
    this.draw();
  };

  Timeline.prototype.toggleSeries = function (index) {
    if (index < 0 || index >= this.hidden.length) return;
    this.hidden[index] = this.hidden[index] ? 0 : 1;
    this.refreshButtons();
    this.hideTooltip();
    this.draw();
  };

  /* The view (range, order, filter, hidden names) drawn on the model's own page, at the PNG's scale. */
  Timeline.prototype.exportPng = function () {
    var model = this.model;
    var scale = Math.min(model.scale || 2, MAX_CANVAS_SIDE / model.width, MAX_CANVAS_SIDE / model.height,
                         Math.sqrt(MAX_CANVAS_AREA / (model.width * model.height)));
    var canvas = element('canvas');
    canvas.width = Math.max(1, Math.round(model.width * scale));
    canvas.height = Math.max(1, Math.round(model.height * scale));
    var savedLayer = this.layer;
    this.layer = null;
    this.paint(canvas.getContext('2d'), scale, this.page);
    this.layer = savedLayer;
    this.draw();
    canvas.toBlob(function (blob) {
      if (!blob) return;
      var url = URL.createObjectURL(blob);
      var link = element('a');
      link.href = url;
      link.download = 'rl_timeline.png';
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
    }, 'image/png');
  };

  /* ---- pointer: hover, box zoom, pan, wheel; points are CSS px from the canvas' top left ---- */

  Timeline.prototype.pagePoint = function (event) {
    var rect = this.canvas.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  Timeline.prototype.inPlot = function (point) {
    var plot = this.screen.plot;
    return point.x >= plot[0] && point.x <= plot[0] + plot[2] && point.y >= plot[1] && point.y <= plot[1] + plot[3];
  };

  Timeline.prototype.inRowsBand = function (point) {
    var plot = this.screen.plot;
    return point.x >= 0 && point.x <= plot[0] + plot[2] && point.y >= plot[1] && point.y <= plot[1] + plot[3];
  };

  Timeline.prototype.timeAt = function (x) {
    var plot = this.screen.plot;
    return this.left + (x - plot[0]) / plot[2] * (this.right - this.left);
  };

  /* Client coordinates of time t on display position `position` (for tests and tools). */
  Timeline.prototype.clientPoint = function (t, position) {
    var g = this.screen, plot = g.plot, rect = this.canvas.getBoundingClientRect();
    var x = plot[0] + (t - this.left) / (this.right - this.left) * plot[2];
    var y = g.rowsTop + (position + 0.5) * g.pitch;
    return { x: rect.left + x, y: rect.top + y };
  };

  /* The topmost shown bar of `row` at time t, or within slop of it; -1 if none. */
  Timeline.prototype.barAt = function (row, t, slop) {
    var bars = this.bars, runs = bars.rowRuns[row];
    var start = bars.start, end = bars.end, maxEnd = bars.maxEnd;
    var best = -1, bestDistance = Infinity;
    for (var k = runs.length - 1; k >= 0; k--) {
      var run = runs[k];
      if (!this.seriesShown(row, bars.runSeries[run])) continue;
      var lo = bars.runFirst[run];
      var i = upperBound(start, lo, bars.runFirst[run + 1], t + slop) - 1;
      for (; i >= lo && maxEnd[i] >= t - slop; i--) {
        if (end[i] < t - slop) continue;
        var distance = start[i] > t ? start[i] - t : end[i] < t ? t - end[i] : 0;
        if (distance < bestDistance) {
          best = i;
          bestDistance = distance;
          if (distance === 0) return best;
        }
      }
    }
    return best;
  };

  Timeline.prototype.seriesOfBar = function (row, index) {
    var bars = this.bars, runs = bars.rowRuns[row];
    for (var k = 0; k < runs.length; k++)
      if (index >= bars.runFirst[runs[k]] && index < bars.runFirst[runs[k] + 1]) return bars.runSeries[runs[k]];
    return -1;
  };

  Timeline.prototype.hideTooltip = function () {
    if (!this.tooltip) return;
    this.tooltip.style.display = 'none';
    this.cursor.style.display = 'none';
    this.hovered = null;
  };

  Timeline.prototype.showTooltip = function (point, event) {
    var model = this.model, tooltip = this.tooltip, g = this.screen;
    var t = this.timeAt(point.x);
    var slop = HOVER_SLOP_CSS_PX / g.plot[2] * (this.right - this.left);
    var self = this;
    while (tooltip.firstChild) tooltip.removeChild(tooltip.firstChild);
    var entries = [];
    if (this.hoverMode === 'all') {
      this.displayRows.forEach(function (row) {
        var index = self.barAt(row, t, 0);
        if (index >= 0) entries.push({ row: row, index: index });
      });
      if (!entries.length) return this.hideTooltip();
      /* the time line every listed bar crosses, like the reference's unified hover */
      var cursor = this.cursor.style;
      cursor.display = 'block';
      cursor.left = point.x + 'px';
      cursor.top = g.plot[1] + 'px';
      cursor.height = g.plot[3] + 'px';
      tooltip.appendChild(element('div', 'rli-head', 'Time: ' + formatMs(t) + ' ms'));
      entries.forEach(function (entry) {
        var series = self.seriesOfBar(entry.row, entry.index);
        var line = element('span', 'rli-entry');
        var swatch = element('span', 'rli-swatch');
        swatch.style.background = model.series[series].color;
        line.appendChild(swatch);
        line.appendChild(document.createTextNode(model.rows[entry.row].label + ': '));
        line.appendChild(element('b', null, model.series[series].name));
        var s = self.bars.start[entry.index], e = self.bars.end[entry.index];
        line.appendChild(document.createTextNode('  ' + formatMs(s) + ' \u2013 ' + formatMs(e) + ' ms (' + formatMs(e - s) + ' ms)'));
        tooltip.appendChild(line);
      });
    } else {
      var position = Math.floor((point.y - g.rowsTop) / g.pitch);
      var row = this.displayRows[position];
      if (row === undefined) return this.hideTooltip();
      var index = this.barAt(row, t, slop);
      if (index < 0) return this.hideTooltip();
      var series = this.seriesOfBar(row, index);
      var s = this.bars.start[index], e = this.bars.end[index];
      tooltip.appendChild(element('b', 'rli-name', model.series[series].name));
      ['Start: ' + formatMs(s) + ' ms', 'End: ' + formatMs(e) + ' ms', 'Duration: ' + formatMs(e - s) + ' ms',
       'Rank: ' + model.rows[row].rank].forEach(function (text) {
        tooltip.appendChild(element('br'));
        tooltip.appendChild(document.createTextNode(text));
      });
      entries.push({ row: row, index: index });
    }
    this.hovered = entries;
    tooltip.style.display = 'block';
    var stageRect = this.stage.getBoundingClientRect();
    var x = event.clientX - stageRect.left + 14, y = event.clientY - stageRect.top + 14;
    var width = tooltip.offsetWidth, height = tooltip.offsetHeight;
    if (x + width > stageRect.width) x = Math.max(0, event.clientX - stageRect.left - width - 14);
    if (y + height > stageRect.height) y = Math.max(0, event.clientY - stageRect.top - height - 14);
    tooltip.style.left = x + 'px';
    tooltip.style.top = y + 'px';
  };

  Timeline.prototype.bindPointer = function () {
    var self = this, canvas = this.canvas;
    var drag = null;

    canvas.addEventListener('mousedown', function (event) {
      if (event.button !== 0) return;
      var point = self.pagePoint(event);
      if (!self.inPlot(point)) return;
      event.preventDefault();
      var pan = self.dragMode === 'pan' || event.shiftKey || event.altKey;
      drag = { pan: pan, x: point.x, clientX: event.clientX, left: self.left, right: self.right };
      self.hideTooltip();
    });

    window.addEventListener('mousemove', function (event) {
      var point = self.pagePoint(event);
      if (drag) {
        var plot = self.screen.plot;
        if (drag.pan) {
          var shift = (point.x - drag.x) / plot[2] * (drag.right - drag.left);
          self.left = drag.left - shift;
          self.right = drag.right - shift;
          self.clearRangeMarks();
          self.invalidate();
        } else {
          var xa = Math.max(plot[0], Math.min(plot[0] + plot[2], Math.min(point.x, drag.x)));
          var xb = Math.max(plot[0], Math.min(plot[0] + plot[2], Math.max(point.x, drag.x)));
          var box = self.box.style;
          box.display = 'block';
          box.left = xa + 'px';
          box.width = (xb - xa) + 'px';
          box.top = plot[1] + 'px';
          box.height = plot[3] + 'px';
        }
        return;
      }
      if (event.target !== canvas) {
        if (self.hovered) self.hideTooltip();
        return;
      }
      if (self.inPlot(point)) self.showTooltip(point, event);
      else self.hideTooltip();
    });

    window.addEventListener('mouseup', function (event) {
      if (!drag) return;
      var finished = drag;
      drag = null;
      self.box.style.display = 'none';
      if (finished.pan) return;
      var point = self.pagePoint(event);
      if (Math.abs(point.x - finished.x) < 4) return;
      var plot = self.screen.plot;
      var xa = Math.max(plot[0], Math.min(point.x, finished.x));
      var xb = Math.min(plot[0] + plot[2], Math.max(point.x, finished.x));
      self.zoomTo(self.timeAt(xa), self.timeAt(xb));
    });

    canvas.addEventListener('dblclick', function (event) {
      if (self.inPlot(self.pagePoint(event))) self.reset();
    });

    canvas.addEventListener('mouseleave', function () { if (!drag) self.hideTooltip(); });

    /* the wheel zooms over the plot and scrolls the rows over their labels */
    canvas.addEventListener('wheel', function (event) {
      var point = self.pagePoint(event);
      var delta = event.deltaY * (event.deltaMode === 1 ? 33 : event.deltaMode === 2 ? 400 : 1);
      if (self.inPlot(point)) {
        event.preventDefault();
        var factor = Math.exp(Math.max(-300, Math.min(300, delta)) * 0.002);
        var t = self.timeAt(point.x);
        self.zoomTo(t - (t - self.left) * factor, t + (self.right - t) * factor);
      } else if (self.inRowsBand(point) && self.screen.maxScroll > 0) {
        var before = self.scrollY;
        self.setScroll(before + delta, true);
        if (self.scrollY !== before) event.preventDefault();
      }
    }, { passive: false });

    window.addEventListener('keydown', function (event) {
      if (event.target && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
      var span = self.right - self.left, g = self.screen;
      if (event.key === 'ArrowLeft') self.zoomTo(self.left - span * 0.1, self.right - span * 0.1);
      else if (event.key === 'ArrowRight') self.zoomTo(self.left + span * 0.1, self.right + span * 0.1);
      else if (event.key === '+' || event.key === '=') self.zoomTo(self.left + span * 0.1, self.right - span * 0.1);
      else if (event.key === '-') self.zoomTo(self.left - span * 0.125, self.right + span * 0.125);
      else if (event.key === '0' || event.key === 'Escape') self.reset();
      else if (g.maxScroll > 0 && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
        event.preventDefault();
        self.setScroll(self.scrollY + (event.key === 'ArrowUp' ? -g.pitch : g.pitch), true);
      } else if (g.maxScroll > 0 && (event.key === 'PageUp' || event.key === 'PageDown')) {
        event.preventDefault();
        self.setScroll(self.scrollY + (event.key === 'PageUp' ? -1 : 1) * Math.max(g.pitch, g.plot[3] - g.pitch), true);
      }
    });
  };

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
    timeline.draw();
    performance.mark('rli-first-draw');
    window.rliTimeline = {
      timeline: timeline,
      firstDrawMs: performance.now(),
      state: function () {
        return {
          left: timeline.left, right: timeline.right, order: timeline.order, hoverMode: timeline.hoverMode,
          dragMode: timeline.dragMode, filter: timeline.filter,
          rows: timeline.displayRows.map(function (r) { return model.rows[r].label; }),
          ticks: timeline.ticks().map(function (t) { return t.label; }),
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
      zoomTo: function (l, r) { return timeline.zoomTo(l, r); },
      reset: function () { return timeline.reset(); },
      setOrder: function (o) { timeline.setOrder(o); },
      setFilter: function (q) { timeline.setFilter(q); },
      toggleSeries: function (s) { timeline.toggleSeries(s); },
      revealRow: function (position) { timeline.revealRow(position); },
      scrollRows: function (top) { timeline.setScroll(top, false); return timeline.scrollY; },
      clientPoint: function (t, position) { return timeline.clientPoint(t, position); },
      niceTicks: function (l, r, target) {
        return niceTicks(l, r, target || timeline.model.xtickTarget, timeline.model.xtickMax);
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
