/* timeline.js: the timeline page: the model mapped to the window, the page's DOM, rows and scrolling. It never re-decides the layout. */
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
  var LEGEND_GAP_CSS_PX = 16; /* between the plot and a legend the window moved beside it */
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

  /*
   * options (all optional), for a page that holds more than one timeline
   * (compare.js): container, the element the timeline goes into (the body);
   * tall(), the CSS px its stage may take from its top (to the window's
   * bottom); keys: false leaves the keyboard to another timeline; summary:
   * false leaves out the "In view" table; onRange(left, right, later), told of
   * every change of the x range the reader makes here; margins(left, right),
   * the CSS px to keep left and right of the plot given its own.
   */
  function Timeline(model, bars, options) {
    var self = this;
    this.options = options || {};
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

  /* True when the layout placed the legend under the plot (a narrow page) rather than to its right. */
  Timeline.prototype.legendBelowPlot = function () {
    var model = this.model;
    return !!(model.legendTitle && model.legendTitle.text && model.legendTitle.y >= model.plot[1] + model.plot[3]);
  };

  /* About how wide, in page units, the legend's widest text and its swatch are (generous for a sans-serif's average advance). */
  Timeline.prototype.legendTextWidth = function () {
    var model = this.model, widest = 0;
    [model.legendTitle].concat(model.legendLabels).forEach(function (label) {
      if (label && label.text) widest = Math.max(widest, label.text.length * label.size * 0.7 + 2 * label.size);
    });
    return widest;
  };

  /* The model mapped to a window `available` CSS px wide and `tall` CSS px high from the stage's top. */
  Timeline.prototype.windowGeometry = function (available, tall) {
    var model = this.model, plot = model.plot;
    var smallest = this.smallestTextSize();
    var k = Math.min(1, available / model.width);
    if (isFinite(smallest) && smallest * k < MIN_TEXT_CSS_PX) k = MIN_TEXT_CSS_PX / smallest;

    var modelRight = model.width - plot[0] - plot[2];
    var legendGap = model.legendTitle && model.legendTitle.text ? (model.legendTitle.x - plot[0] - plot[2]) * k : 0;
    if (this.legendBelowPlot()) {
      /* A narrow page put its legend under the plot; the window keeps it beside, with room for its texts. */
      legendGap = LEGEND_GAP_CSS_PX;
      modelRight = this.legendTextWidth() + LEGEND_GAP_CSS_PX / k;
    }
    var left = Math.min(plot[0] * k, 0.4 * available);
    var right = Math.min(modelRight * k, 0.35 * available);
    if (this.options.margins) {
      /* a page of several timelines gives them all the widest margins, so their plots line up */
      var margins = this.options.margins(left, right);
      left = margins[0];
      right = margins[1];
    }
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

    var filterBox = element('span', 'rli-filter-box');
    this.filterInput = element('input', 'rli-filter');
    this.filterInput.type = 'search';
    this.filterInput.placeholder = 'rank 0-7,12 \u00b7 role \u00b7 /regex/';
    this.filterInput.title = 'Filter the rows: ' + core.parseFilter.HELP;
    this.filterInput.setAttribute('aria-label', 'Filter the rows');
    this.filterInput.setAttribute('aria-describedby', 'rli-filter-help rli-filter-status');
    this.filterInput.addEventListener('input', function () { self.setFilter(self.filterInput.value); });
    filterBox.appendChild(this.filterInput);
    var help = element('details', 'rli-filter-help-box');
    var helpSummary = element('summary', 'rli-help-toggle', '?');
    helpSummary.title = 'How to filter';
    helpSummary.setAttribute('aria-label', 'How to filter the rows');
    help.appendChild(helpSummary);
    var helpText = element('div', 'rli-filter-help', 'Filter the rows by ' + core.parseFilter.HELP);
    helpText.id = 'rli-filter-help';
    help.appendChild(helpText);
    filterBox.appendChild(help);
    document.addEventListener('mousedown', function (event) { if (help.open && !help.contains(event.target)) help.open = false; });
    this.filterStatus = element('span', 'rli-filter-status');
    this.filterStatus.id = 'rli-filter-status';
    this.filterStatus.setAttribute('role', 'status');
    filterBox.appendChild(this.filterStatus);
    toolbar.appendChild(filterBox);

    var range = element('span', 'rli-range');
    this.unitLabels = [];
    function rangeInput(label) {
      var wrapper = element('label', null, label + ' ');
      var input = element('input', 'rli-time-input');
      input.type = 'text';
      input.inputMode = 'decimal';
      input.spellcheck = false;
      input.setAttribute('aria-describedby', 'rli-range-error');
      input.addEventListener('change', function () { self.applyRangeInputs(input); });
      input.addEventListener('keydown', function (event) {
        if (event.key === 'Enter') self.applyRangeInputs(input);
        else if (event.key === 'Escape') { input.classList.remove('rli-invalid'); self.markRange(null, ''); self.updateRangeInputs(true); }
      });
      wrapper.appendChild(input);
      var unit = element('span', 'rli-unit', 'ms');
      self.unitLabels.push(unit);
      wrapper.appendChild(unit);
      range.appendChild(wrapper);
      return input;
    }
    this.leftInput = rangeInput('Left');
    this.rightInput = rangeInput('Right');
    this.rangeError = element('span', 'rli-range-error');
    this.rangeError.id = 'rli-range-error';
    this.rangeError.setAttribute('role', 'status');
    range.appendChild(this.rangeError);
    toolbar.appendChild(range);

    var stage = element('div', 'rli-stage');
    this.canvas = element('canvas');
    this.canvas.setAttribute('role', 'img');
    /* what the chart shows, then its keys: a reader who cannot see it learns both */
    var roles = new Set(model.rows.map(function (row) { return row.role; })).size;
    this.canvas.setAttribute('aria-label', model.title.text + ': the bars of ' + model.series.length +
      (model.series.length === 1 ? ' phase' : ' phases') + ' over time on ' + core.fmtThousands(model.rows.length, 0) +
      ' rows (' + roles + (roles === 1 ? ' role' : ' roles') + '), from ' + core.fmtDuration(model.xMin) + ' to ' +
      core.fmtDuration(model.xMax) + '. Arrow keys pan, + and - zoom, 0 resets, Up and Down scroll the rows, ' +
      '] and [ select the next and the previous bar of a row, } and { the nearest on the next and the previous row, ' +
      'Escape clears the selection');
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
    ['Name', 'Bars', 'Total duration (ms)'].forEach(function (h, i) {
      var th = element('th', null, h);
      if (i === 2) self.summaryTotalHead = th;
      head.appendChild(th);
    });
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
      /* reachable by Tab too: Enter or Space hides and shows it */
      row.tabIndex = 0;
      row.setAttribute('role', 'button');
      row.addEventListener('click', function () { self.toggleSeries(index); });
      row.addEventListener('keydown', function (event) {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); self.toggleSeries(index); }
      });
      table.appendChild(row);
      return { row: row, count: countCell, total: totalCell };
    });
    summary.appendChild(table);

    app.appendChild(toolbar);
    app.appendChild(stage);
    if (this.options.summary !== false) app.appendChild(summary);
    (this.options.container || document.body).appendChild(app);
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

  /*
   * Which rows show, top to bottom, and which series each may show under the filter (filter.js):
   * its roles and ranks pick rows; its words and patterns keep a row whose label or role they match,
   * else the row's phases they match (the others hidden on it). A filter that cannot be read says
   * why beside the box and leaves the rows as they were.
   */
  Timeline.prototype.updateDisplayRows = function () {
    var model = this.model, bars = this.bars, self = this;
    var base = [], r;
    if (this.order === 'role') base = model.orderByRole.slice();
    else for (r = 0; r < model.rows.length; r++) base.push(r);
    if (!this.roleNames) {
      var seen = new Set();
      this.roleNames = [];
      model.rows.forEach(function (row) { if (!seen.has(row.role)) { seen.add(row.role); self.roleNames.push(row.role); } });
    }
    var filter = core.parseFilter(this.filter, this.roleNames), match = core.parseFilter;
    this.filterError = filter.error;
    this.showFilterError(filter.error);
    if (filter.error && this.displayRows) return;
    this.rowSeriesMask = null;
    if (filter.error || filter.empty) {
      this.displayRows = base;
      this.updateEmpty();
      return;
    }
    var seriesMatch = filter.terms.length ? model.series.map(function (s) {
      return filter.terms.some(function (term) { return match.termMatches(term, s.name); });
    }) : null;
    var shown = [], masks = new Map();
    base.forEach(function (row) {
      var info = model.rows[row];
      if (filter.roles.length && filter.roles.indexOf(info.role) < 0) return;
      if (filter.ranks.length && !match.rankIn(filter.ranks, info.rank)) return;
      if (!filter.terms.length || filter.terms.some(function (term) {
        return match.termMatches(term, info.label) || match.termMatches(term, info.role);
      })) {
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

  /* The filter's problem in words beside its box (and the box marked), or none. */
  Timeline.prototype.showFilterError = function (message) {
    if (!this.filterStatus) return;
    this.filterStatus.textContent = message || '';
    this.filterInput.classList.toggle('rli-invalid', !!message);
    if (message) this.filterInput.setAttribute('aria-invalid', 'true'); else this.filterInput.removeAttribute('aria-invalid');
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
    /* a side panel open at the right (timeline_aside.js) takes its width from the chart's */
    var aside = this.asideRoom ? this.asideRoom() : 0;
    var available = Math.max(320, (root.clientWidth || window.innerWidth) - 2 * APP_PAD_CSS_PX - aside);
    var stageTop = this.stage.getBoundingClientRect().top + (window.scrollY || 0);
    var tall = this.options.tall ? this.options.tall() : (window.innerHeight || 800) - stageTop - BOTTOM_GAP_CSS_PX;
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

  /* What the other parts of the page (timeline_paint.js, timeline_input.js, timeline_start.js) share. */
  window.rliTimelineParts = {
    ALIGN_H: ALIGN_H,
    ALIGN_V: ALIGN_V,
    WIDE_PX: WIDE_PX,
    STRIP_LINES: STRIP_LINES,
    mapText: mapText,
    HOVER_SLOP_CSS_PX: HOVER_SLOP_CSS_PX,
    MAX_CANVAS_SIDE: MAX_CANVAS_SIDE,
    MAX_CANVAS_AREA: MAX_CANVAS_AREA,
    Timeline: Timeline
  };
})();
