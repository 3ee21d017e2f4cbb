/* memory.js: a memory page: its model and data decoded, the page's DOM, and the queries hover and click ask (live blocks, overlaps). */
(function () {
  'use strict';

  var core = window.rliCore;
  var element = core.element, lowerBound = core.lowerBound;

  function Reader(bytes) { this.bytes = bytes; this.pos = 0; }
  /* LEB128 with arithmetic, not bit operations: values run past 32 bits */
  Reader.prototype.varint = function () {
    var value = 0, factor = 1, byte;
    do {
      byte = this.bytes[this.pos++];
      value += (byte & 127) * factor;
      factor *= 128;
    } while (byte & 128);
    return value;
  };
  Reader.prototype.zigzag = function () {
    var z = this.varint();
    return z % 2 ? -(z + 1) / 2 : z / 2;
  };

  /*
   * The data file's packed bytes: the header's JSON up to the first newline, then the streams
   * it gives the lengths of (html_memory_data.c: the bars' five fields, the totals, the lines'
   * x and y), each put in its place as a Uint8Array.
   */
  function unpackData(bytes) {
    var newline = bytes.indexOf(10);
    if (newline < 0) throw new Error('rl-insight: the memory data has no header');
    var data = JSON.parse(core.utf8(bytes.subarray(0, newline))), at = newline + 1;
    function take(length) {
      if (at + length > bytes.length) throw new Error('rl-insight: the memory data is cut short');
      var part = bytes.subarray(at, at + length);
      at += length;
      return part;
    }
    data.bars = data.bars.map(take);
    data.totals = take(data.totals);
    data.lines.forEach(function (line) {
      line.x = take(line.x);
      line.y = take(line.y);
    });
    if (data.exact) {
      data.exact.x = take(data.exact.x);
      data.exact.y = take(data.exact.y);
    }
    if (at !== bytes.length) throw new Error('rl-insight: the memory data holds more than its header says');
    return data;
  }

  /* The data file's streams into columns; times in integer units and in ms from the origin (memory_data.c says how). */
  function decodeData(data) {
    var n = data.count, scale = Math.pow(10, data.timeDecimals), unit = 1 / scale, sizeUnit = data.sizeUnit;
    var lanes = data.laneCounts.length;
    var d = {
      count: n, unit: unit, scale: scale, decimals: data.timeDecimals, originUnits: Number(data.originUnits),
      startU: new Float64Array(n), endU: new Float64Array(n), start: new Float64Array(n), end: new Float64Array(n),
      sizeKb: new Float64Array(n), totalMb: new Float64Array(n), stack: new Int32Array(n), match: new Uint8Array(n),
      openEnded: new Uint8Array(n), carried: new Uint8Array(n), gap: new Float64Array(n), lane: new Uint32Array(n),
      laneFirst: new Uint32Array(lanes + 1), maxEnd: new Float64Array(n), stacks: data.stacks
    };
    /* Per lane, the carried blocks never freed that are summed up rather than listed: count, KB, first start. */
    d.omitCount = new Float64Array(lanes);
    d.omitKb = new Float64Array(lanes);
    d.omitStartU = new Float64Array(lanes);
    d.total = n;
    data.carriedSummary.forEach(function (s, lane) {
      d.omitCount[lane] = s[0];
      d.omitKb[lane] = Number(s[1]) * sizeUnit / 1024;
      d.omitStartU[lane] = Number(s[2]);
      d.total += s[0];
    });
    d.openEndU = Number(data.openEndUnits);
    /* the bars' fields, each a stream of its own */
    var start = new Reader(data.bars[0]), codes = new Reader(data.bars[1]), lengths = new Reader(data.bars[2]);
    var sizes = new Reader(data.bars[3]), gaps = new Reader(data.bars[4]), k = 0, own = [];
    for (var lane = 0; lane < lanes; lane++) {
      var previous = 0, running = -Infinity;
      d.laneFirst[lane] = k;
      for (var c = 0; c < data.laneCounts[lane]; c++, k++) {
        var s = previous + start.zigzag(), e, code;
        d.stack[k] = -1;
        if (c < data.carriedCounts[lane]) {
          d.carried[k] = 1;
          code = lengths.varint();
          d.openEnded[k] = code === 0 ? 1 : 0;
          e = code === 0 ? -1 : s + code - 1;
          d.totalMb[k] = NaN;
        } else {
          code = codes.varint();
          d.openEnded[k] = code % 2;
          code = (code - d.openEnded[k]) / 2;
          d.match[k] = code % 3;
          d.stack[k] = (code - d.match[k]) / 3 - 1;
          e = d.openEnded[k] ? -1 : s + lengths.varint();
          own.push(k);
        }
        d.sizeKb[k] = sizes.varint() * sizeUnit / 1024;
        if (!d.carried[k] && d.match[k] === 2) d.gap[k] = gaps.varint() / scale;
        d.startU[k] = s;
        d.endU[k] = e;
        d.lane[k] = lane;
        previous = s;
      }
    }
    d.laneFirst[lanes] = k;
    if (k !== n || [start, codes, lengths, sizes, gaps].some(function (r) { return r.pos !== r.bytes.length; }))
      throw new Error('rl-insight: the memory data does not add up');
    /* Blocks never freed live to the end of the capture, which the data names once. */
    var last = Number(data.openEndUnits);
    for (k = 0; k < n; k++) {
      if (d.endU[k] < 0) d.endU[k] = last;
      d.start[k] = d.startU[k] / scale;
      d.end[k] = d.endU[k] / scale;
    }
    for (lane = 0; lane < lanes; lane++) {
      running = -Infinity;
      for (k = d.laneFirst[lane]; k < d.laneFirst[lane + 1]; k++) {
        if (d.end[k] > running) running = d.end[k];
        d.maxEnd[k] = running;
      }
    }
    /* The totals, in time order of the page's own bars. */
    own.sort(function (a, b) { return d.startU[a] - d.startU[b] || d.lane[a] - d.lane[b] || a - b; });
    var totals = new Reader(data.totals), total = 0;
    for (k = 0; k < own.length; k++) {
      total += totals.zigzag();
      d.totalMb[own[k]] = total / 100;
    }
    function decodeLine(line) {
      var xs = new Reader(line.x), ys = new Reader(line.y);
      var x = new Float64Array(line.count), y = new Float64Array(line.count), px = 0, py = 0, step = 0;
      var vunit = Math.pow(10, -data.valueDecimals);
      for (var j = 0; j < line.count; j++) {
        step += xs.zigzag();
        px += step;
        py += ys.zigzag();
        x[j] = px / scale;
        y[j] = py * vunit;
      }
      return { x: x, y: y, color: line.color, width: line.width, fillAlpha: line.fillAlpha, name: line.name };
    }
    d.lines = data.lines.map(decodeLine);
    /* The allocator's count comes as the segment's exact steps; without it the bars are summed. */
    d.curve = data.exact ? exactCurve(decodeLine(data.exact)) : buildCurve(d);
    return d;
  }

  /*
   * The exact curve inside the segment: every block alive there is one of its
   * bars, so the running sum of their sizes (in bytes, exact integers) at each
   * moment a block starts or ends. steps: time (ms) and value after it (MB).
   */
  function buildCurve(d) {
    var n = d.count, lanes = d.omitCount.length, m = n + lanes, i;
    var times = new Float64Array(2 * m), sizes = new Float64Array(m), order = new Uint32Array(2 * m);
    /* a block never freed is still held when the capture ends: its end is past every moment drawn */
    for (i = 0; i < n; i++) {
      times[2 * i] = d.startU[i];
      times[2 * i + 1] = d.openEnded[i] ? Infinity : d.endU[i];
      sizes[i] = Math.round(d.sizeKb[i] * 1024);
    }
    /* the blocks summed up: all alive from their first start to the end of the capture, and held */
    for (i = 0; i < lanes; i++) {
      times[2 * (n + i)] = d.omitStartU[i];
      times[2 * (n + i) + 1] = d.omitCount[i] ? Infinity : d.omitStartU[i];
      sizes[n + i] = Math.round(d.omitKb[i] * 1024);
    }
    for (i = 0; i < 2 * m; i++) order[i] = i;
    order.sort(function (a, b) { return times[a] < times[b] ? -1 : times[a] > times[b] ? 1 : 0; });
    var t = new Float64Array(2 * m + 1), v = new Float64Array(2 * m + 1), count = 0, bytes = 0;
    for (i = 0; i < 2 * m;) {
      var at = times[order[i]];
      if (at === Infinity) break;
      for (; i < 2 * m && times[order[i]] === at; i++) {
        var size = sizes[order[i] >> 1];
        bytes += order[i] & 1 ? -size : size;
      }
      t[count] = at / d.scale;
      v[count++] = bytes / 1048576;
    }
    return { t: t.subarray(0, count), v: v.subarray(0, count), count: count };
  }

  /*
   * The exact steps as written (two points a moment, the value before then after): the value after
   * each moment, as buildCurve gives it.
   */
  function exactCurve(line) {
    var t = new Float64Array(line.x.length), v = new Float64Array(line.x.length), count = 0;
    for (var i = 0; i < line.x.length; i++) {
      if (count && t[count - 1] === line.x[i]) count--;
      t[count] = line.x[i];
      v[count++] = line.y[i];
    }
    return { t: t.subarray(0, count), v: v.subarray(0, count), count: count };
  }

  function MemoryPage(model, data) {
    this.model = model;
    this.d = decodeData(data);
    this.curveModel = model.curve;
    this.ganttModel = model.gantt;
    this.nav = model.nav;
    this.segment = model.nav.links[model.nav.current];
    var first = model.nav.links[0], last = model.nav.links[model.nav.links.length - 1];
    this.range = new core.XRange(this.segment.xMin, this.segment.xMax, first.xMin, last.xMax);
    this.selected = -1;
    this.series = model.gantt.series;
  }

  /* ---- queries ---- */

  MemoryPage.prototype.laneSeries = function (lane) { return this.ganttModel.lanes[lane].series; };
  MemoryPage.prototype.opName = function (bar) { return this.series[this.laneSeries(this.d.lane[bar])].name; };
  /* Every time on the page counts from the run's t = 0 (the model's origin line says where it is), in the view's unit. */
  MemoryPage.prototype.unit = function () { return core.timeUnitFor(this.range.hi - this.range.lo); };
  MemoryPage.prototype.timeText = function (ms) { return core.fmtTimeUnit(ms, this.unit()); };
  /* Sizes: KB as the data has them, written in the unit they read best in ("1.50 MB"). */
  MemoryPage.prototype.sizeText = function (kb) { return core.fmtSize(kb / 1024, core.sizeUnitFor(kb / 1024)); };
  MemoryPage.prototype.inRange = function (bar, lo, hi) {
    var d = this.d;
    return d.end[bar] > d.start[bar] ? d.end[bar] > lo && d.start[bar] < hi : d.start[bar] >= lo && d.start[bar] <= hi;
  };

  /* Bars of a lane that reach into [lo, hi]: from the first whose running end passes lo, to the last starting before hi. */
  MemoryPage.prototype.laneBars = function (lane, lo, hi, visit) {
    var d = this.d, first = d.laneFirst[lane], stop = d.laneFirst[lane + 1];
    for (var i = lowerBound(d.maxEnd, first, stop, lo); i < stop && d.start[i] <= hi; i++)
      if (d.end[i] >= lo) visit(i);
  };

  /* memory.md §4.6: another bar of the same operator overlaps b when it holds b's midpoint. */
  MemoryPage.prototype.overlaps = function (bar, lo, hi) {
    var d = this.d, mid = d.start[bar] + (d.end[bar] - d.start[bar]) / 2, found = [];
    var lane = d.lane[bar], self = this;
    this.laneBars(lane, mid, mid, function (o) {
      if (o !== bar && d.start[o] <= mid && mid <= d.end[o] && (lo === undefined || self.inRange(o, lo, hi))) found.push(o);
    });
    found.sort(function (a, b) { return d.sizeKb[b] - d.sizeKb[a] || d.start[a] - d.start[b] || a - b; });
    return found;
  };

  /* The curve's value at t (MB) inside the segment: the last step at or before t. */
  MemoryPage.prototype.curveAt = function (t) {
    var c = this.d.curve, i = core.upperBound(c.t, 0, c.count, t) - 1;
    return i < 0 ? 0 : c.v[i];
  };

  /* The Total Reserved at t (MB): the reserved line's (the third, when the trace has one) last point at or before t; null without it. */
  MemoryPage.prototype.reservedAt = function (t) {
    var line = this.d.lines[2];
    if (!line || !line.x.length || t < line.x[0]) return null;
    return line.y[core.upperBound(line.x, 0, line.x.length, t) - 1];
  };

  /* Blocks alive at t (start <= t < end), the largest first: count and the top `top`. */
  MemoryPage.prototype.liveAt = function (t, top) {
    var d = this.d, best = [], count = 0;
    for (var lane = 0; lane + 1 < d.laneFirst.length; lane++) {
      this.laneBars(lane, t, t, function (i) {
        if (!(d.start[i] <= t && t < d.end[i])) return;
        count++;
        if (best.length === top && d.sizeKb[i] <= d.sizeKb[best[top - 1]]) return;
        var at = best.length;
        while (at > 0 && d.sizeKb[best[at - 1]] < d.sizeKb[i]) at--;
        best.splice(at, 0, i);
        if (best.length > top) best.pop();
      });
    }
    for (lane = 0; lane < d.omitCount.length; lane++)
      if (d.omitCount[lane] && d.omitStartU[lane] / d.scale <= t && t < d.openEndU / d.scale) count += d.omitCount[lane];
    return { count: count, top: best };
  };

  /* The summed-up blocks of a lane reach into [lo, hi]. */
  MemoryPage.prototype.omitIn = function (lane, lo, hi) {
    var d = this.d;
    return d.omitCount[lane] > 0 && d.omitStartU[lane] / d.scale < hi && d.openEndU / d.scale > lo;
  };

  /* What the range info line says: bars and operators reaching into the view, and its span. */
  MemoryPage.prototype.rangeInfo = function (lo, hi) {
    var d = this.d, events = 0, ops = 0;
    for (var lane = 0; lane + 1 < d.laneFirst.length; lane++) {
      var before = events, self = this;
      this.laneBars(lane, lo, hi, function (i) { if (self.inRange(i, lo, hi)) events++; });
      if (this.omitIn(lane, lo, hi)) events += d.omitCount[lane];
      if (events > before) ops++;
    }
    return { events: events, operators: ops, span: hi - lo };
  };

  /* The segment with the largest overlap with [lo, hi], among those with a page. */
  MemoryPage.prototype.bestSegment = function (lo, hi) {
    var best = -1, most = 0;
    this.nav.links.forEach(function (link, index) {
      var overlap = Math.min(hi, link.xMax) - Math.max(lo, link.xMin);
      if (link.target && overlap > most) { most = overlap; best = index; }
    });
    return best;
  };

  /* The bar of operator `name` starting at startMs (ms from t = 0, to the data's resolution); -1 when none. */
  MemoryPage.prototype.findBar = function (name, startMs) {
    var half = 0.5 / this.d.scale;
    for (var i = 0; i < this.d.count; i++)
      if (this.opName(i) === name && Math.abs(this.d.start[i] - startMs) <= half) return i;
    return -1;
  };

  /* ---- the DOM ---- */

  MemoryPage.prototype.buildDom = function () {
    var model = this.model, nav = this.nav, self = this;
    document.body.style.background = model.background;
    var app = element('div', 'rli-app rli-memory');
    app.style.fontFamily = core.cssFontFamily(model.fontFamily);
    app.style.color = model.textColor;
    app.appendChild(element('h1', 'rli-mem-title', model.title.text));
    if (model.origin && model.origin.text) app.appendChild(element('p', 'rli-origin', model.origin.text));

    var bar = element('div', 'rli-toolbar');
    var range = element('span', 'rli-range');
    this.leftInput = element('input', 'rli-time-input');
    this.rightInput = element('input', 'rli-time-input');
    this.unitLabels = [];
    [['Left', this.leftInput], ['Right', this.rightInput]].forEach(function (pair) {
      var label = element('label', null, pair[0] + ' ');
      pair[1].type = 'text';
      pair[1].inputMode = 'decimal';
      pair[1].spellcheck = false;
      pair[1].setAttribute('aria-describedby', 'rli-range-error');
      label.appendChild(pair[1]);
      var unit = element('span', 'rli-unit', 'ms');
      self.unitLabels.push(unit);
      label.appendChild(unit);
      range.appendChild(label);
    });
    this.rangeError = element('span', 'rli-range-error');
    this.rangeError.id = 'rli-range-error';
    this.rangeError.setAttribute('role', 'status');
    range.appendChild(this.rangeError);
    bar.appendChild(range);
    var group = element('span', 'rli-group');
    this.resetButton = element('button', null, 'Reset');
    this.resetButton.type = 'button';
    this.resetButton.title = 'the whole segment';
    group.appendChild(this.resetButton);
    bar.appendChild(group);

    var segs = element('span', 'rli-nav');
    function link(text, index, className) {
      var a = element('a', className, text);
      a.href = nav.links[index].target;
      return a;
    }
    if (nav.previous >= 0) segs.appendChild(link('\u2190 Prev', nav.previous, 'rli-prev'));
    segs.appendChild(element('span', 'rli-seg', 'Seg ' + (nav.current + 1) + '/' + nav.links.length + ': ' +
      this.segment.label));
    if (nav.next >= 0) segs.appendChild(link('Next \u2192', nav.next, 'rli-next'));
    segs.appendChild(element('span', 'rli-total', '(' + core.fmtThousands(nav.total, 0) + ' allocations in all)'));
    if (nav.up) {
      var up = element('a', 'rli-up', 'Run home');
      up.href = nav.up;
      up.title = 'Every output of this run: the timeline, every device\u2019s memory, the report, the tables';
      segs.appendChild(up);
    }
    if (nav.timeline) {
      /* the timeline at the time in view, its rows filtered to this device's (syncRange keeps the range) */
      this.timelineLink = element('a', 'rli-timeline-link', 'Timeline at this time');
      this.timelineLink.title = 'The timeline of this run, this device\u2019s row, the same time range';
      segs.appendChild(this.timelineLink);
    }
    bar.appendChild(segs);
    this.hint = element('span', 'rli-hint');
    bar.appendChild(this.hint);
    app.appendChild(bar);
    this.info = element('div', 'rli-info');
    app.appendChild(this.info);

    var main = element('div', 'rli-mem-main');
    var charts = element('div', 'rli-mem-charts');
    charts.appendChild(element('div', 'rli-chart-title', 'Memory usage over time (' + nav.title.text + ')'));
    if (nav.note) charts.appendChild(element('div', 'rli-chart-note', nav.note.text));
    this.curveStage = element('div', 'rli-stage rli-curve');
    this.curveCanvas = element('canvas');
    this.curveCanvas.setAttribute('role', 'img');
    this.curveCanvas.setAttribute('aria-label', 'Memory over time of ' + nav.title.text + '. Arrow keys pan, + and - ' +
      'zoom, 0 resets, a drag zooms to its span, Alt-drag pans');
    this.curveStage.appendChild(this.curveCanvas);
    charts.appendChild(this.curveStage);
    charts.appendChild(element('div', 'rli-chart-title', 'Operator memory Gantt: one lane per operator'));
    /* the lanes scroll in their band; the time axis under it stays */
    this.ganttStage = element('div', 'rli-stage rli-gantt');
    this.ganttCanvas = element('canvas');
    this.ganttCanvas.setAttribute('role', 'img');
    this.ganttCanvas.setAttribute('aria-label', 'Allocations of ' + nav.title.text + ', one lane per operator: click ' +
      'a bar for its size, call stack and lifetime (] and [ select the next and the previous of a lane, } and { the nearest ' +
      'on the next and the previous lane); Escape clears it');
    this.ganttStage.appendChild(this.ganttCanvas);
    charts.appendChild(this.ganttStage);
    this.axisCanvas = element('canvas', 'rli-gantt-axis');
    this.axisCanvas.setAttribute('role', 'img');
    this.axisCanvas.setAttribute('aria-label', 'The time axis of the allocations');
    charts.appendChild(this.axisCanvas);
    this.ganttStage.addEventListener('scroll', function () { self.hideTooltip(); });
    main.appendChild(charts);

    var aside = element('aside', 'rli-detail');
    aside.appendChild(element('h2', null, 'Operator detail'));
    this.detail = element('div', 'rli-detail-body');
    this.detail.appendChild(element('p', 'rli-placeholder', 'Click a bar to view details'));
    aside.appendChild(this.detail);
    main.appendChild(aside);
    app.appendChild(main);
    this.tooltip = element('div', 'rli-tooltip');
    app.appendChild(this.tooltip);
    document.body.appendChild(app);
    this.app = app;
    window.addEventListener('resize', function () { self.resize(); self.draw(); });
  };

  MemoryPage.unpackData = unpackData;
  window.rliMemoryPage = MemoryPage;
})();
