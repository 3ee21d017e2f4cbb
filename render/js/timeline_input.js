/* timeline_input.js: the timeline page's state and input: range, zoom, order, filter, legend, hover, box zoom and pan. */
(function () {
  'use strict';

  var core = window.rliCore;
  var upperBound = core.upperBound, formatMs = core.formatMs, element = core.element;
  var fmtTime = core.fmtTime, fmtTimeUnit = core.fmtTimeUnit, fmtDuration = core.fmtDuration;
  var parts = window.rliTimelineParts;
  var HOVER_SLOP_CSS_PX = parts.HOVER_SLOP_CSS_PX, MAX_CANVAS_SIDE = parts.MAX_CANVAS_SIDE;
  var MAX_CANVAS_AREA = parts.MAX_CANVAS_AREA, Timeline = parts.Timeline;
  var HOVER_ALL_MAX = 20; /* "Hover: All Ranks" lists at most this many rows, then "and N more" */

  /* The "In view" table: bars and their time per name, one unit for the column (its largest value's). */
  Timeline.prototype.updateSummary = function () {
    var count = this.summary.count, total = this.summary.total, hidden = this.hidden, largest = 0;
    for (var i = 0; i < total.length; i++) if (!hidden[i] && total[i] > largest) largest = total[i];
    var unit = core.durationUnit(largest);
    if (this.summaryTotalHead) this.summaryTotalHead.textContent = 'Total duration (' + unit.name + ')';
    this.summaryCells.forEach(function (cells, index) {
      cells.row.classList.toggle('rli-hidden', !!hidden[index]);
      cells.count.textContent = hidden[index] ? 'hidden' : core.fmtThousands(count[index], 0);
      cells.total.textContent = hidden[index] ? '' : fmtTime(total[index], unit);
    });
  };

  /* The unit the view's axis counts in (its span's), which the boxes, the tooltips and the summary follow. */
  Timeline.prototype.viewUnit = function () {
    return core.timeUnitFor(this.right - this.left);
  };

  /*
   * The boxes show the range in force in the axis's unit, named beside them, except one being typed
   * in or one holding a refused value (kept as typed, in red, with the reason); force: all of them.
   */
  Timeline.prototype.updateRangeInputs = function (force) {
    if (this.keepRangeText && !force) return;
    var unit = this.viewUnit();
    this.unitLabels.forEach(function (label) { label.textContent = unit.name; });
    [[this.leftInput, this.left], [this.rightInput, this.right]].forEach(function (pair) {
      var input = pair[0];
      if (!force && (document.activeElement === input || input.classList.contains('rli-invalid'))) return;
      var text = fmtTime(pair[1], unit);
      if (input.value !== text) input.value = text;
      input.dataset.unit = unit.name;
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
    /* a message that rewraps the toolbar redraws the chart: the boxes keep what was typed meanwhile */
    this.keepRangeText = true;
    try {
      this.relayoutIfMoved();
    } finally {
      this.keepRangeText = false;
    }
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
    /* a box reads in the unit it was written in (named beside it), or the unit typed */
    function unitOf(input) {
      var name = input.dataset.unit || 'ms';
      return { name: name, ms: name === 'min' ? 60e3 : name === 's' ? 1e3 : 1 };
    }
    var lp = core.parseTime(this.leftInput.value, unitOf(this.leftInput), 'Left');
    var rp = core.parseTime(this.rightInput.value, unitOf(this.rightInput), 'Right');
    var data = core.timeUnitFor(model.xMax - model.xMin);
    var message = '', box = changed || this.rightInput;
    if (lp.error) { message = lp.error; box = this.leftInput; }
    else if (rp.error) { message = rp.error; box = this.rightInput; }
    else if (!(rp.ms > lp.ms))
      message = 'Right (' + fmtTimeUnit(rp.ms, data) + ') must be after Left (' + fmtTimeUnit(lp.ms, data) + ')';
    else if (rp.ms <= model.xMin || lp.ms >= model.xMax)
      message = 'That range is outside the data, which runs from ' + fmtTimeUnit(model.xMin, data) + ' to ' +
        fmtTimeUnit(model.xMax, data);
    else if (rp.ms - lp.ms < this.minSpan())
      message = 'That range is narrower than ' + fmtDuration(this.minSpan()) + ', the closest zoom';
    if (message) {
      this.markRange(box, message);
      return false;
    }
    this.markRange(null, '');
    this.zoomTo(lp.ms, rp.ms);
    this.updateRangeInputs(true);
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

  /* The closest zoom: a microsecond across the plot, or the whole data when it is shorter. */
  Timeline.prototype.minSpan = function () {
    return Math.min(1e-3, this.model.xMax - this.model.xMin || 1e-3);
  };

  /*
   * [left, right] kept within zoom's bounds: no wider than the data (out: the whole of it), no
   * narrower than minSpan (about its middle), and inside the data (moved along, not cut).
   */
  Timeline.prototype.clampRange = function (left, right) {
    var lo = this.model.xMin, hi = this.model.xMax, span = right - left, min = this.minSpan();
    if (!(span >= min)) {
      var middle = (left + right) / 2;
      left = middle - min / 2;
      right = middle + min / 2;
      span = min;
    }
    if (span >= hi - lo) return [lo, hi];
    if (left < lo) { left = lo; right = lo + span; }
    if (right > hi) { right = hi; left = hi - span; }
    return [left, right];
  };

  Timeline.prototype.zoomTo = function (left, right) {
    if (!(right > left) || !isFinite(left) || !isFinite(right)) return this.lastDrawMs;
    var range = this.clampRange(left, right);
    this.left = range[0];
    this.right = range[1];
    this.clearRangeMarks();
    this.hideTooltip();
    var elapsed = this.draw();
    this.rangeChanged(false);
    return elapsed;
  };

  /*
   * Tells the page of a range the reader set here (a page with several
   * timelines keeps them together); later: this one draws on the next frame.
   */
  Timeline.prototype.rangeChanged = function (later) {
    if (this.options.onRange) this.options.onRange(this.left, this.right, !!later);
  };

  /* Shows left..right because another timeline of the page did (now, or on the next frame when later), told to no one. */
  Timeline.prototype.follow = function (left, right, later) {
    if (left === this.left && right === this.right) return;
    this.left = left;
    this.right = right;
    this.clearRangeMarks();
    this.hideTooltip();
    if (later) this.invalidate();
    else this.draw();
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

  /* A new filter shows its rows from the first: the rows scrolled past are other rows now. */
  Timeline.prototype.setFilter = function (text) {
    var changed = String(text || '') !== this.filter;
    this.filter = String(text || '');
    if (this.filterInput.value !== this.filter) this.filterInput.value = this.filter;
    this.updateDisplayRows();
    this.hideTooltip();
    if (changed) this.scrollY = 0;
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

  /* The bar a click at point selects (the one the hover shows there), or none: the selection cleared. */
  Timeline.prototype.clickAt = function (point) {
    if (!this.selection) return;
    var g = this.screen, position = Math.floor((point.y - g.rowsTop) / g.pitch), row = this.displayRows[position];
    var slop = HOVER_SLOP_CSS_PX / g.plot[2] * (this.right - this.left);
    var index = row === undefined || row < 0 || !this.inPlot(point) ? -1 : this.barAt(row, this.timeAt(point.x), slop);
    if (index >= 0) this.select(row, index);
    else if (this.selected) this.select(-1, -1);
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
    var t = this.timeAt(point.x), unit = this.viewUnit();
    var slop = HOVER_SLOP_CSS_PX / g.plot[2] * (this.right - this.left);
    var self = this;
    while (tooltip.firstChild) tooltip.removeChild(tooltip.firstChild);
    var entries = [];
    var position = Math.floor((point.y - g.rowsTop) / g.pitch), header = this.displayRows[position];
    if (header < 0) {
      /* a group's track: how many of its rows are busy at the cursor */
      this.groupHoverLines(-header - 1, t).forEach(function (text, i) {
        if (i) tooltip.appendChild(element('br'));
        tooltip.appendChild(i ? document.createTextNode(text) : element('b', 'rli-name', text));
      });
      entries.push({ row: header, index: -1 });
    } else if (this.hoverMode === 'all') {
      this.displayRows.forEach(function (row) {
        if (row < 0) return;
        var index = self.barAt(row, t, 0);
        if (index >= 0) entries.push({ row: row, index: index });
      });
      if (!entries.length) return this.hideTooltip();
      /* one line per row up to a screenful, then how many more: a tooltip of 512 ranks would leave the screen */
      var shownCount = Math.max(1, Math.min(HOVER_ALL_MAX, Math.floor((g.height - 60) / 18) - 1));
      var more = entries.length - shownCount;
      if (more === 1) shownCount++, more = 0;
      var listed = more > 0 ? entries.slice(0, shownCount) : entries;
      /* the time line every listed bar crosses, like the reference's unified hover */
      var cursor = this.cursor.style;
      cursor.display = 'block';
      cursor.left = point.x + 'px';
      cursor.top = g.plot[1] + 'px';
      cursor.height = g.plot[3] + 'px';
      tooltip.appendChild(element('div', 'rli-head', 'Time: ' + fmtTimeUnit(t, unit)));
      listed.forEach(function (entry) {
        var series = self.seriesOfBar(entry.row, entry.index);
        var line = element('span', 'rli-entry');
        var swatch = element('span', 'rli-swatch');
        swatch.style.background = model.series[series].color;
        line.appendChild(swatch);
        line.appendChild(document.createTextNode(model.rows[entry.row].label + ': '));
        line.appendChild(element('b', null, model.series[series].name));
        var s = self.bars.start[entry.index], e = self.bars.end[entry.index];
        line.appendChild(document.createTextNode('  ' + fmtTime(s, unit) + ' \u2013 ' + fmtTimeUnit(e, unit) + ' (' + fmtDuration(e - s) + ')'));
        tooltip.appendChild(line);
      });
      if (more > 0)
        tooltip.appendChild(element('div', 'rli-more', 'and ' + core.fmtThousands(more, 0) + ' more (of ' +
          core.fmtThousands(entries.length, 0) + ' rows busy here: filter or fold the rows to see them)'));
    } else {
      var row = this.displayRows[position];
      if (row === undefined) return this.hideTooltip();
      var index = this.barAt(row, t, slop);
      if (index < 0) return this.hideTooltip();
      var series = this.seriesOfBar(row, index);
      var s = this.bars.start[index], e = this.bars.end[index];
      tooltip.appendChild(element('b', 'rli-name', model.series[series].name));
      ['Start: ' + fmtTimeUnit(s, unit), 'End: ' + fmtTimeUnit(e, unit), 'Duration: ' + fmtDuration(e - s),
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
      if (canvas.focus) canvas.focus({ preventScroll: true });
      /* Shift-drag measures a span, Alt-drag (or the Pan mode) pans, a plain drag draws a box to zoom to */
      var pan = self.dragMode === 'pan' || event.altKey, measure = event.shiftKey && !pan;
      drag = { pan: pan, measure: measure, x: point.x, y: point.y, clientX: event.clientX, left: self.left, right: self.right,
        moved: false };
      self.hideTooltip();
    });

    window.addEventListener('mousemove', function (event) {
      var point = self.pagePoint(event);
      if (drag) {
        var plot = self.screen.plot;
        if (Math.abs(point.x - drag.x) >= 4) drag.moved = true;
        if (drag.measure) {
          if (drag.moved) {
            var clampX = function (x) { return Math.max(plot[0], Math.min(plot[0] + plot[2], x)); };
            self.measure = [self.timeAt(clampX(drag.x)), self.timeAt(clampX(point.x))];
            self.invalidate();
          }
          return;
        }
        if (drag.pan) {
          var shift = (point.x - drag.x) / plot[2] * (drag.right - drag.left);
          var panned = self.clampRange(drag.left - shift, drag.right - shift);
          self.left = panned[0];
          self.right = panned[1];
          self.clearRangeMarks();
          self.invalidate();
          self.rangeChanged(true);
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
      var point = self.pagePoint(event);
      if (!finished.moved) {
        /* a click: the bar under it is selected, a click beside every bar clears the selection */
        self.clickAt(point);
        return;
      }
      if (finished.pan || finished.measure) {
        if (finished.measure) self.draw();
        return;
      }
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

    /*
     * Keys act where the focus is: on the chart (the canvas takes focus by Tab or a click), or on the
     * page itself; a focused button, link or box keeps its own keys.
     */
    canvas.tabIndex = 0;
    window.addEventListener('keydown', function (event) {
      if (self.options.keys === false) return;
      var target = event.target;
      if (target !== canvas && target !== document.body && target !== document.documentElement && target !== self.stage) return;
      var span = self.right - self.left, g = self.screen;
      if (event.key === 'ArrowLeft') self.zoomTo(self.left - span * 0.1, self.right - span * 0.1);
      else if (event.key === 'ArrowRight') self.zoomTo(self.left + span * 0.1, self.right + span * 0.1);
      else if (event.key === '+' || event.key === '=') self.zoomTo(self.left + span * 0.1, self.right - span * 0.1);
      else if (event.key === '-') self.zoomTo(self.left - span * 0.125, self.right + span * 0.125);
      else if (event.key === '0') self.reset();
      else if (event.key === 'Escape') { if (self.selection) self.selection.clear(); }
      else if (self.selection && (event.key === ']' || event.key === '[')) {
        event.preventDefault();
        self.stepSelection(event.key === ']' ? 1 : -1, false);
      } else if (self.selection && (event.key === '}' || event.key === '{')) {
        event.preventDefault();
        self.stepSelection(event.key === '}' ? 1 : -1, true);
      } else if (g.maxScroll > 0 && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
        event.preventDefault();
        self.setScroll(self.scrollY + (event.key === 'ArrowUp' ? -g.pitch : g.pitch), true);
      } else if (g.maxScroll > 0 && (event.key === 'PageUp' || event.key === 'PageDown')) {
        event.preventDefault();
        self.setScroll(self.scrollY + (event.key === 'PageUp' ? -1 : 1) * Math.max(g.pitch, g.plot[3] - g.pitch), true);
      }
    });
  };
})();
