/* timeline_select.js: the timeline's selection: a clicked (or stepped-to) bar's details (phase, rank, times, against its role's median), a measured span; Escape clears both. */
(function () {
  'use strict';

  var core = window.rliCore, element = core.element;
  var parts = window.rliTimelineParts;
  var Timeline = parts.Timeline;

  function median(sorted) {
    var n = sorted.length;
    return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /* The overlays (the selected bar's outline, the measured band) and the details card, in the timeline's stage. */
  function Selection(timeline) {
    var self = this;
    this.timeline = timeline;
    this.medians = null;
    this.outline = element('div', 'rli-selected');
    this.band = element('div', 'rli-measure');
    this.bandLabel = element('div', 'rli-measure-label');
    this.band.appendChild(this.bandLabel);
    this.card = element('section', 'rli-details');
    this.card.setAttribute('aria-label', 'Selected bar');
    this.card.setAttribute('aria-live', 'polite');
    this.cardBody = element('div', 'rli-details-body');
    var close = element('button', 'rli-details-close', '\u00d7');
    close.type = 'button';
    close.title = 'Clear the selection (Escape)';
    close.setAttribute('aria-label', 'Clear the selection');
    close.addEventListener('click', function () { self.clear(); });
    this.card.appendChild(close);
    this.card.appendChild(this.cardBody);
    [this.band, this.outline, this.card].forEach(function (node) { timeline.stage.appendChild(node); });
  }

  /* Each (role, phase)'s median bar length, worked out once, when a first bar is selected. */
  Selection.prototype.medianOf = function (role, series) {
    var t = this.timeline, bars = t.bars, model = t.model;
    if (!this.medians) {
      var lengths = new Map();
      bars.rowRuns.forEach(function (runs, row) {
        runs.forEach(function (run) {
          var key = model.rows[row].role + '\u0000' + bars.runSeries[run];
          if (!lengths.has(key)) lengths.set(key, []);
          var list = lengths.get(key);
          for (var i = bars.runFirst[run]; i < bars.runFirst[run + 1]; i++) list.push(bars.end[i] - bars.start[i]);
        });
      });
      this.medians = new Map();
      var self = this;
      lengths.forEach(function (list, key) {
        list.sort(function (a, b) { return a - b; });
        self.medians.set(key, { median: median(list), count: list.length });
      });
    }
    return this.medians.get(role + '\u0000' + series);
  };

  /* The card's lines for bar `index` of model row `row`. */
  Selection.prototype.fill = function (row, index) {
    var t = this.timeline, model = t.model, bars = t.bars, info = model.rows[row], body = this.cardBody;
    var series = t.seriesOfBar(row, index), s = bars.start[index], e = bars.end[index], unit = t.viewUnit();
    var stats = this.medianOf(info.role, series), step = 0;
    bars.rowRuns[row].forEach(function (run) {
      if (index >= bars.runFirst[run] && index < bars.runFirst[run + 1]) step = index - bars.runFirst[run] + 1;
    });
    body.textContent = '';
    var head = element('h2', 'rli-details-name');
    var swatch = element('span', 'rli-swatch');
    swatch.style.background = model.series[series].color;
    head.appendChild(swatch);
    head.appendChild(document.createTextNode(model.series[series].name));
    body.appendChild(head);
    var table = element('table', 'rli-fields');
    var against = '';
    if (stats && stats.count > 1 && stats.median > 0) {
      var change = (e - s) / stats.median - 1;
      against = (change >= 0 ? '+' : '\u2212') + core.fmtThousands(Math.abs(change) * 100, 1) + '% (median ' +
        core.fmtDuration(stats.median) + ' over ' + core.fmtThousands(stats.count, 0) + ' bars of ' + info.role + ')';
    } else {
      against = 'the only bar of ' + info.role + ' with this name';
    }
    [['Row', info.label], ['Rank', info.rank], ['Role', info.role], ['Step', step + ' (the rank\u2019s ' + step + '. ' +
      model.series[series].name + ' bar)'], ['Start', core.fmtTimeUnit(s, unit)], ['End', core.fmtTimeUnit(e, unit)],
     ['Duration', core.fmtDuration(e - s)], ['Against the median', against]].forEach(function (pair) {
      var tr = element('tr');
      tr.appendChild(element('th', null, pair[0]));
      tr.appendChild(element('td', null, String(pair[1])));
      table.appendChild(tr);
    });
    body.appendChild(table);
    var actions = element('p', 'rli-details-actions');
    if (t.links && t.links.memoryHref(row, t.left, t.right)) {
      var memory = element('a', 'rli-details-memory', 'Memory of this device at this time \u2192');
      memory.href = t.links.memoryHref(row, Math.max(t.left, s - (e - s) * 0.05), Math.min(t.right, e + (e - s) * 0.05));
      actions.appendChild(memory);
    }
    var only = element('button', 'rli-details-only', 'Show only this rank');
    only.type = 'button';
    only.addEventListener('click', function () { t.setFilter(core.rowFilterText(info.role, info.rank)); });
    actions.appendChild(only);
    body.appendChild(actions);
  };

  Selection.prototype.clear = function () {
    var t = this.timeline;
    if (!t.selected && !t.measure) return false;
    t.selected = null;
    t.measure = null;
    t.draw();
    return true;
  };

  /* Places the outline, the band and the card where the view now puts them. */
  Selection.prototype.place = function () {
    var t = this.timeline, g = t.screen, plot = g.plot, sel = t.selected;
    var x = function (time) { return plot[0] + (time - t.left) / (t.right - t.left) * plot[2]; };
    var position = sel ? t.displayRows.indexOf(sel.row) : -1;
    if (position >= 0) {
      var y = g.rowsTop + (position + 0.5) * g.pitch, half = Math.max(3, g.barThickness / 2 + 2);
      var x0 = Math.max(plot[0] - 2, x(t.bars.start[sel.index])), x1 = Math.min(plot[0] + plot[2] + 2, x(t.bars.end[sel.index]));
      var visible = x1 >= plot[0] && x0 <= plot[0] + plot[2] && y + half >= plot[1] && y - half <= plot[1] + plot[3];
      var o = this.outline.style;
      o.display = visible ? 'block' : 'none';
      o.left = (x0 - 2) + 'px';
      o.width = Math.max(2, x1 - x0) + 'px';
      o.top = (y - half) + 'px';
      o.height = (2 * half) + 'px';
      if (this.shown !== sel.row + ':' + sel.index + ':' + t.viewUnit().name) {
        this.fill(sel.row, sel.index);
        this.shown = sel.row + ':' + sel.index + ':' + t.viewUnit().name;
      }
      var c = this.card.style;
      c.display = 'block';
      c.top = plot[1] + 'px';
      /* on the side of the plot the bar leaves free */
      var right = (x0 + x1) / 2 < plot[0] + plot[2] / 2;
      c.left = right ? '' : (plot[0] + 8) + 'px';
      c.right = right ? (g.width - plot[0] - plot[2] + 8) + 'px' : '';
    } else {
      this.outline.style.display = 'none';
      this.card.style.display = 'none';
      this.shown = null;
    }
    var m = t.measure, b = this.band.style;
    if (m) {
      var a = Math.max(plot[0], x(Math.min(m[0], m[1]))), z = Math.min(plot[0] + plot[2], x(Math.max(m[0], m[1])));
      b.display = z > a - 1 ? 'block' : 'none';
      b.left = a + 'px';
      b.width = Math.max(1, z - a) + 'px';
      b.top = plot[1] + 'px';
      b.height = plot[3] + 'px';
      this.bandLabel.textContent = '\u0394 ' + core.fmtDuration(Math.abs(m[1] - m[0])) + '  (' +
        core.fmtTimeUnit(Math.min(m[0], m[1]), t.viewUnit()) + ' \u2192 ' + core.fmtTimeUnit(Math.max(m[0], m[1]), t.viewUnit()) + ')';
    } else {
      b.display = 'none';
    }
  };

  /* ---- the timeline's side ---- */

  Timeline.prototype.select = function (row, index) {
    this.selected = row >= 0 && index >= 0 ? { row: row, index: index } : null;
    this.draw();
  };

  /*
   * The shown bar of model row `row` after (direction 1) or before (-1) the bar at time `s` of
   * index `i`, in the order a reader meets them: by start, then by index (a run's bars are in
   * that order, so each run is searched, not walked); -1 when there is none.
   */
  Timeline.prototype.barNextTo = function (row, s, i, direction) {
    var bars = this.bars, start = bars.start, runs = bars.rowRuns[row], best = -1;
    var before = function (a, b) { return start[a] < start[b] || (start[a] === start[b] && a < b); };
    for (var k = 0; k < runs.length; k++) {
      var run = runs[k], lo = bars.runFirst[run], hi = bars.runFirst[run + 1], j;
      if (!this.seriesShown(row, bars.runSeries[run])) continue;
      if (direction > 0) {
        for (j = core.lowerBound(start, lo, hi, s); j < hi && start[j] === s && j <= i; j++);
        if (j < hi && (best < 0 || before(j, best))) best = j;
      } else {
        for (j = core.upperBound(start, lo, hi, s) - 1; j >= lo && start[j] === s && j >= i; j--);
        if (j >= lo && (best < 0 || before(best, j))) best = j;
      }
    }
    return best;
  };

  /* Brings bar `index` of model row `row` into view: scrolled to its row, panned (the zoom kept) to it. */
  Timeline.prototype.showBar = function (row, index) {
    var g = this.screen, position = this.displayRows.indexOf(row), span = this.right - this.left;
    var start = this.bars.start[index], end = this.bars.end[index];
    if (position >= 0 && g.maxScroll > 0) {
      var top = position * g.pitch, visible = g.plot[3] - g.pitch;
      if (top < this.scrollY || top > this.scrollY + visible) this.setScroll(top - visible / 2, true);
    }
    if (end < this.left || start > this.right) this.zoomTo((start + end) / 2 - span / 2, (start + end) / 2 + span / 2);
  };

  /*
   * The keyboard's selection: ] and [ step to the next and the previous bar of the selected bar's
   * row (with none selected, the first bar to start in view on the top row in view, or the last);
   * } and { to the bar nearest it in time on the next and the previous row shown.
   */
  Timeline.prototype.stepSelection = function (direction, acrossRows) {
    var rows = this.displayRows.filter(function (row) { return row >= 0; }), sel = this.selected, row, index = -1;
    if (!rows.length && this.grouped && this.displayRows.length) {
      /* every group folded (a run of many rows opens so): the top group in view unfolds, its bars to step through */
      var d = this.displayRows, at = Math.min(d.length - 1, Math.max(0, Math.ceil(this.scrollY / this.screen.pitch)));
      this.foldGroup(this.headerGroup(d[at]), false);
      rows = this.displayRows.filter(function (r) { return r >= 0; });
    }
    if (!rows.length) return false;
    if (!sel || rows.indexOf(sel.row) < 0) {
      /* from the top row in view down (a group's header aside), round to the rows above it */
      var d = this.displayRows, top = Math.min(d.length - 1, Math.max(0, Math.ceil(this.scrollY / this.screen.pitch)));
      for (var tries = 0; tries < d.length && index < 0; tries++) {
        row = d[(top + tries) % d.length];
        if (row < 0) continue;
        index = direction > 0 ? this.barNextTo(row, this.left, -1, 1) : this.barNextTo(row, this.right, Infinity, -1);
      }
    } else if (!acrossRows) {
      row = sel.row;
      index = this.barNextTo(row, this.bars.start[sel.index], sel.index, direction);
    } else {
      var at = rows.indexOf(sel.row), t = this.bars.start[sel.index];
      for (var step = 1; step < rows.length && index < 0; step++) {
        var next = at + direction * step;
        if (next < 0 || next >= rows.length) break;
        row = rows[next];
        /* the bar that starts nearest the selected one's start, the later of two as near */
        var after = this.barNextTo(row, t, -1, 1), before = this.barNextTo(row, t, -1, -1);
        var starts = this.bars.start;
        index = after < 0 ? before : before < 0 ? after : t - starts[before] < starts[after] - t ? before : after;
      }
    }
    if (index < 0) return false;
    this.showBar(row, index);
    this.select(row, index);
    return true;
  };

  /* "row:bar" for the URL; restoreSelection reads it back (a bar beyond the data is no selection). */
  Timeline.prototype.selectionKey = function () {
    return this.selected ? this.selected.row + ':' + this.selected.index : '';
  };
  Timeline.prototype.restoreSelection = function (key, measure) {
    var match = /^(\d+):(\d+)$/.exec(key || ''), row = match ? Number(match[1]) : -1, index = match ? Number(match[2]) : -1;
    var bars = this.bars, ok = row >= 0 && row < bars.rowRuns.length && bars.rowRuns[row].some(function (run) {
      return index >= bars.runFirst[run] && index < bars.runFirst[run + 1];
    });
    this.selected = ok ? { row: row, index: index } : null;
    this.measure = measure ? measure.slice() : null;
  };

  var draw = Timeline.prototype.draw;
  Timeline.prototype.draw = function () {
    var elapsed = draw.call(this);
    if (this.selection) this.selection.place();
    return elapsed;
  };

  parts.Selection = Selection;
})();
