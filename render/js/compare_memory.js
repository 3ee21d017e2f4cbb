/* compare_memory.js: the memory side of a comparison: each device's peak in both runs and the call sites whose memory grew most, as a figure drawn in the page (a lane's figures on hover or by Up and Down) and as tables. */
(function () {
  'use strict';

  var core = window.rliCore, element = core.element;
  var LANE_CSS_PX = 26;      /* one device (two bars) a lane */
  var TWO_LINE_LANE_CSS_PX = 34; /* one call site a lane: its text, and its device under it */
  var LABEL_SHARE = 0.34;    /* of the figure's width, for the lanes' labels */
  var VALUE_CSS_PX = 190;    /* room right of the bars for their values */
  var AXIS_CSS_PX = 34;
  var TITLE_CSS_PX = 22;
  var FONT_CSS_PX = 12;
  var MAX_LABEL_CHARS = 70;
  var MUTED_TEXT = '#4a5a73';  /* a call site's device, under it: the pages' secondary text */

  function kbToMb(kb) { return kb === null ? null : kb / 1024; }

  /* "+46.00 MB", "−1.20 GB": a change in the unit its size needs; "no change" for none. */
  function signedSize(mb) {
    if (mb === null || !isFinite(mb)) return '\u2014';
    if (mb === 0) return 'no change';
    var text = core.fmtSize(Math.abs(mb), core.sizeUnitFor(Math.abs(mb)));
    return (mb > 0 ? '+' : mb < 0 ? '\u2212' : '\u00b1') + text;
  }

  function sizeCell(mb, unit) { return mb === null ? '\u2014' : core.fmtSize(mb, unit); }

  /* One unit for a column: the one its largest value needs. */
  function columnUnit(values) {
    var largest = 0;
    values.forEach(function (v) { if (v !== null && Math.abs(v) > largest) largest = Math.abs(v); });
    return core.sizeUnitFor(largest);
  }

  /* A table: header, rows of cells; columns whose align is 'end' are numbers. */
  function table(caption, header, align, rows) {
    var t = element('table', 'rli-compare-table rli-memory-table');
    t.appendChild(element('caption', null, caption));
    var head = element('thead'), tr = element('tr');
    header.forEach(function (text, c) { tr.appendChild(element('th', align[c] === 'end' ? 'rli-num' : null, text)); });
    head.appendChild(tr);
    t.appendChild(head);
    var body = element('tbody');
    rows.forEach(function (row) {
      var line = element('tr');
      row.cells.forEach(function (text, c) {
        var td = element('td', align[c] === 'end' ? 'rli-num' : null, text);
        if (row.colors && row.colors[c]) td.style.color = row.colors[c];
        line.appendChild(td);
      });
      body.appendChild(line);
    });
    t.appendChild(body);
    return t;
  }

  function CompareMemory(spec, page) {
    var self = this;
    this.spec = spec;
    this.section = element('section', 'rli-compare-memory');
    this.section.appendChild(element('h2', 'rli-compare-memory-title', 'Memory: each device\u2019s peak in both runs, ' +
      'and the call sites whose memory grew most'));
    this.figures = element('div', 'rli-memory-figures');
    this.peakCanvas = element('canvas', 'rli-memory-figure');
    this.siteCanvas = element('canvas', 'rli-memory-figure');
    this.peakCanvas.setAttribute('role', 'img');
    this.siteCanvas.setAttribute('role', 'img');
    this.peakCanvas.tabIndex = 0;
    this.siteCanvas.tabIndex = 0;
    this.peakCanvas.setAttribute('aria-label', this.describePeaks() + '. Up and Down read each device\u2019s figures');
    this.siteCanvas.setAttribute('aria-label', this.describeSites() + '. Up and Down read each call site\u2019s figures');
    /* a lane's figures, as its table row has them: what the figure's shortened labels and bars leave out */
    this.devices = this.deviceRows();
    this.sites = this.siteRows();
    this.geometry = {};
    this.tips = {};
    this.figures.appendChild(this.figureBox(this.peakCanvas, 'peaks', this.devices));
    if (spec.sites.length) this.figures.appendChild(this.figureBox(this.siteCanvas, 'sites', this.sites));
    this.section.appendChild(this.figures);
    this.section.appendChild(table(this.devices.caption, this.devices.header, this.devices.align, this.devices.rows));
    this.section.appendChild(table(this.sites.caption, this.sites.header, this.sites.align, this.sites.rows));
    page.appendChild(this.section);
    this.draw();
    window.addEventListener('resize', function () { self.draw(); });
  }

  /* ---- the words ---- */

  CompareMemory.prototype.grownMost = function () {
    var best = null;
    this.spec.devices.forEach(function (d) {
      if (d.peakMb[0] === null || d.peakMb[1] === null) return;
      var change = d.peakMb[1] - d.peakMb[0];
      if (!best || change > best.change) best = { device: d, change: change };
    });
    return best;
  };

  CompareMemory.prototype.describePeaks = function () {
    var n = this.spec.devices.length, best = this.grownMost();
    return 'Peak memory per device, the baseline\u2019s bar above this run\u2019s: ' + n + ' device' + (n === 1 ? '' : 's') +
      (best ? '; the largest change ' + signedSize(best.change) + ' on ' + best.device.label : '');
  };

  CompareMemory.prototype.describeSites = function () {
    var sites = this.spec.sites;
    if (!sites.length) return 'No call site to compare';
    var top = sites[0], grown = this.growth(top);
    return 'The ' + sites.length + ' call sites whose memory grew most, the growth of each as a bar: the most, ' +
      signedSize(grown) + ', at ' + (top.text || '(no call stack)') + ' on ' + this.spec.devices[top.device].label;
  };

  /* A site's change (MB), as the page ranks them: the larger of its allocated and live-at-peak growth, else its larger fall. */
  CompareMemory.prototype.growth = function (site) {
    var allocated = site.allocatedKb[1] - site.allocatedKb[0], live = site.liveKb[1] - site.liveKb[0];
    var up = Math.max(allocated, live);
    return (up > 0 ? up : Math.min(allocated, live)) / 1024;
  };

  /* ---- the tables ---- */

  /* The devices' table: its caption, header, alignment and rows (a lane each of the peaks' figure). */
  CompareMemory.prototype.deviceRows = function () {
    var spec = this.spec, largest = 0;
    spec.devices.forEach(function (d) { largest = Math.max(largest, d.peakMb[0] || 0, d.peakMb[1] || 0); });
    var unit = core.sizeUnitFor(largest), colors = spec.colors;
    var freed = [0, 1].map(function (side) {
      return columnUnit(spec.devices.map(function (d) { return kbToMb(d.neverFreedKb[side]); }));
    });
    var rows = spec.devices.map(function (d) {
      var change = d.peakMb[0] !== null && d.peakMb[1] !== null ? d.peakMb[1] - d.peakMb[0] : null;
      var label = d.label + (d.presence === 'added' ? ' (this run only)' : d.presence === 'removed' ? ' (baseline only)' : '');
      return {
        cells: [label, sizeCell(d.peakMb[0], unit), sizeCell(d.peakMb[1], unit), signedSize(change),
          d.peakMs[0] === null ? '\u2014' : core.fmtDuration(d.peakMs[0]), d.peakMs[1] === null ? '\u2014' : core.fmtDuration(d.peakMs[1]),
          sizeCell(kbToMb(d.neverFreedKb[0]), freed[0]), sizeCell(kbToMb(d.neverFreedKb[1]), freed[1])],
        colors: [null, null, null, change > 0 ? colors.grew : change < 0 ? colors.shrank : null]
      };
    });
    return { caption: 'Peak memory per device: the baseline\u2019s and this run\u2019s, when each was reached (from the ' +
      'device\u2019s first allocation) and what was never freed',
      header: ['Device', 'Peak (baseline)', 'Peak', 'Change', 'At (baseline)', 'At', 'Never freed (baseline)', 'Never freed'],
      align: ['start', 'end', 'end', 'end', 'end', 'end', 'end', 'end'], rows: rows };
  };

  /* The call sites' table, as deviceRows: a lane each of the sites' figure. */
  CompareMemory.prototype.siteRows = function () {
    var spec = this.spec, self = this, colors = spec.colors;
    var units = [['allocatedKb', 0], ['allocatedKb', 1], ['liveKb', 0], ['liveKb', 1]].map(function (column) {
      return columnUnit(spec.sites.map(function (s) { return kbToMb(s[column[0]][column[1]]); }));
    });
    var rows = spec.sites.map(function (s) {
      var grown = self.growth(s);
      return {
        cells: [spec.devices[s.device].label, s.text || '(no call stack)', sizeCell(kbToMb(s.allocatedKb[0]), units[0]),
          sizeCell(kbToMb(s.allocatedKb[1]), units[1]), sizeCell(kbToMb(s.liveKb[0]), units[2]),
          sizeCell(kbToMb(s.liveKb[1]), units[3]), signedSize(grown)],
        colors: [null, null, null, null, null, null, grown > 0 ? colors.grew : grown < 0 ? colors.shrank : null]
      };
    });
    var caption = (spec.sites.length ? 'Call sites whose memory grew most: the ' + spec.sites.length + ' of ' +
      core.fmtThousands(spec.siteCount, 0) + ' whose bytes changed, by the larger of their allocated and live-at-peak growth' :
      'No call site\u2019s bytes changed (of ' + core.fmtThousands(spec.siteCount, 0) + ')') +
      (spec.complete ? '' : ' (a run read from a summary.json lists only each device\u2019s top sites)');
    return { caption: caption, header: ['Device', 'Call site (first frame)', 'Allocated (baseline)', 'Allocated',
      'Live at peak (baseline)', 'Live at peak', 'Change'], align: ['start', 'start', 'end', 'end', 'end', 'end', 'end'], rows: rows };
  };

  /* ---- reading a lane ---- */

  /*
   * A figure's canvas in a box with its tooltip: the pointer over a lane shows that lane's row of
   * the table, every column named; with the canvas focused, Up and Down go from lane to lane and
   * Escape puts the tooltip away.
   */
  CompareMemory.prototype.figureBox = function (canvas, kind, rows) {
    var self = this, box = element('div', 'rli-memory-figure-box'), tip = element('div', 'rli-tooltip');
    box.appendChild(canvas);
    box.appendChild(tip);
    this.tips[kind] = tip;
    var laneAt = function (y) {
      var g = self.geometry[kind];
      if (!g) return -1;
      var lane = Math.floor((y - g.top) / g.lanePx);
      return lane >= 0 && lane < g.count ? lane : -1;
    };
    canvas.addEventListener('mousemove', function (event) {
      var r = canvas.getBoundingClientRect(), lane = laneAt(event.clientY - r.top);
      if (lane < 0) self.hideLane(kind);
      else self.showLane(kind, rows, lane, event.clientX - r.left + 14, event.clientY - r.top + 14);
    });
    canvas.addEventListener('mouseleave', function () { self.hideLane(kind); });
    canvas.addEventListener('blur', function () { self.hideLane(kind); });
    canvas.addEventListener('keydown', function (event) {
      var g = self.geometry[kind], at = self.lane && self.lane.kind === kind ? self.lane.index : -1;
      if (!g) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        var next = at < 0 ? 0 : Math.max(0, Math.min(g.count - 1, at + (event.key === 'ArrowDown' ? 1 : -1)));
        self.showLane(kind, rows, next, g.left, g.top + (next + 1) * g.lanePx + 4);
      } else if (event.key === 'Escape') {
        self.hideLane(kind);
      }
    });
    return box;
  };

  CompareMemory.prototype.showLane = function (kind, rows, index, x, y) {
    var tip = this.tips[kind], row = rows.rows[index], box = tip.parentNode;
    tip.textContent = '';
    row.cells.forEach(function (text, c) {
      var line = element('span', 'rli-entry', c === 0 ? text : rows.header[c] + ': ' + text);
      if (c === 0) line.style.fontWeight = 'bold';
      if (row.colors && row.colors[c]) line.style.color = row.colors[c];
      tip.appendChild(line);
    });
    tip.style.display = 'block';
    /* kept inside the figure's box: left of the pointer where the right has no room */
    var width = tip.offsetWidth, room = box.clientWidth;
    tip.style.left = Math.max(0, x + width > room ? x - width - 28 : x) + 'px';
    tip.style.top = y + 'px';
    this.lane = { kind: kind, index: index };
  };

  CompareMemory.prototype.hideLane = function (kind) {
    this.tips[kind].style.display = 'none';
    if (this.lane && this.lane.kind === kind) this.lane = null;
  };

  /* ---- the figure ---- */

  /* A canvas sized to its box at the screen's pixel density; the context in CSS px. */
  function prepare(canvas, width, height) {
    var ratio = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(width * ratio));
    canvas.height = Math.max(1, Math.round(height * ratio));
    canvas.style.width = width + 'px';
    canvas.style.height = height + 'px';
    var ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    return ctx;
  }

  function shorten(ctx, text, room) {
    if (text.length > MAX_LABEL_CHARS) text = text.slice(0, MAX_LABEL_CHARS - 1) + '\u2026';
    if (ctx.measureText(text).width <= room) return text;
    while (text.length > 1 && ctx.measureText(text + '\u2026').width > room) text = text.slice(0, -1);
    return text + '\u2026';
  }

  /*
   * One panel of horizontal bars: lanes of {label, bars: [{value, color}], note}; the axis from
   * lo to hi (MB, lo < 0 when a bar shrinks), in the unit the largest value needs.
   */
  CompareMemory.prototype.panel = function (canvas, title, lanes, lo, hi) {
    var width = Math.max(480, this.figures.clientWidth || 900), font = FONT_CSS_PX + 'px ' + core.cssFontFamily(null);
    /* a lane with a second line (the device under a call site) is taller */
    var lanePx = lanes.some(function (lane) { return lane.sub; }) ? TWO_LINE_LANE_CSS_PX : LANE_CSS_PX;
    var height = TITLE_CSS_PX + lanes.length * lanePx + AXIS_CSS_PX;
    var ctx = prepare(canvas, width, height), colors = this.spec.colors;
    var left = Math.round(width * LABEL_SHARE), right = width - VALUE_CSS_PX, plotW = Math.max(40, right - left);
    var top = TITLE_CSS_PX, bottom = top + lanes.length * lanePx;
    if (!(hi > lo)) hi = lo + 1;
    var unit = core.sizeUnitFor(Math.max(Math.abs(lo), Math.abs(hi)));
    var x = function (mb) { return left + (mb - lo) / (hi - lo) * plotW; };
    ctx.font = 'bold ' + font;
    ctx.fillStyle = colors.text;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.fillText(title, 4, TITLE_CSS_PX / 2);
    ctx.font = font;
    var ticks = core.unitTicks(lo, hi, 6, 12, unit.mb);
    ctx.strokeStyle = colors.grid;
    ctx.lineWidth = 1;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ticks.forEach(function (tick) {
      var tx = Math.round(x(tick.value)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(tx, top);
      ctx.lineTo(tx, bottom);
      ctx.stroke();
      ctx.fillStyle = colors.text;
      ctx.fillText(tick.label, tx, bottom + 4);
    });
    ctx.fillText(unit.name, left + plotW / 2, bottom + 4 + FONT_CSS_PX + 3);
    if (lo < 0) {
      ctx.strokeStyle = colors.text;
      ctx.beginPath();
      ctx.moveTo(Math.round(x(0)) + 0.5, top);
      ctx.lineTo(Math.round(x(0)) + 0.5, bottom);
      ctx.stroke();
    }
    this.geometry[canvas === this.peakCanvas ? 'peaks' : 'sites'] = { top: top, lanePx: lanePx, count: lanes.length, left: left };
    lanes.forEach(function (lane, i) {
      var y = top + i * lanePx, n = lane.bars.length, thick = (lanePx - 6) / n;
      ctx.fillStyle = colors.text;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      if (lane.sub) {
        ctx.fillText(shorten(ctx, lane.label, left - 10), left - 6, y + lanePx * 0.3);
        ctx.fillStyle = MUTED_TEXT;
        ctx.fillText(shorten(ctx, lane.sub, left - 10), left - 6, y + lanePx * 0.72);
      } else {
        ctx.fillText(shorten(ctx, lane.label, left - 10), left - 6, y + lanePx / 2);
      }
      lane.bars.forEach(function (bar, b) {
        if (bar.value === null) return;
        var x0 = x(Math.min(0, bar.value)), x1 = x(Math.max(0, bar.value));
        ctx.fillStyle = bar.color;
        ctx.fillRect(x0, y + 3 + b * thick, Math.max(1, x1 - x0), thick - 1);
      });
      ctx.fillStyle = lane.noteColor || colors.text;
      ctx.textAlign = 'left';
      ctx.fillText(lane.note, right + 8, y + lanePx / 2);
    });
    return { lanes: lanes.length, unit: unit.name, ticks: ticks.map(function (t) { return t.label; }) };
  };

  CompareMemory.prototype.draw = function () {
    var spec = this.spec, colors = spec.colors, self = this, largest = 0;
    spec.devices.forEach(function (d) { largest = Math.max(largest, d.peakMb[0] || 0, d.peakMb[1] || 0); });
    var peaks = spec.devices.map(function (d) {
      var change = d.peakMb[0] !== null && d.peakMb[1] !== null ? d.peakMb[1] - d.peakMb[0] : null;
      return { label: d.label, bars: [{ value: d.peakMb[0], color: colors.baseline }, { value: d.peakMb[1], color: colors.current }],
        note: change === null ? (d.presence === 'added' ? 'this run only' : 'baseline only') : signedSize(change),
        noteColor: change > 0 ? colors.grew : change < 0 ? colors.shrank : null };
    });
    this.drawn = { peaks: this.panel(this.peakCanvas, 'Peak per device: baseline (grey, above) and this run (blue, below)',
      peaks, 0, largest * 1.02) };
    if (!spec.sites.length) return;
    var lo = 0, hi = 0;
    var sites = spec.sites.map(function (s) {
      var grown = self.growth(s);
      lo = Math.min(lo, grown);
      hi = Math.max(hi, grown);
      return { label: s.text || '(no call stack)', sub: spec.devices[s.device].label,
        bars: [{ value: grown, color: grown >= 0 ? colors.grew : colors.shrank }], note: signedSize(grown),
        noteColor: grown > 0 ? colors.grew : grown < 0 ? colors.shrank : null };
    });
    this.drawn.sites = this.panel(this.siteCanvas, 'Call sites whose memory grew most: the growth of each', sites,
      lo * 1.05, hi * 1.05);
  };

  window.rliCompareMemory = CompareMemory;
})();
