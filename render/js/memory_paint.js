/* memory_paint.js: a memory page's drawing: the curve (exact in the segment, the envelope elsewhere) and the Gantt, with level of detail. */
(function () {
  'use strict';

  var core = window.rliCore, MemoryPage = window.rliMemoryPage;
  var parseColor = core.parseColor, addCoverage = core.addCoverage;
  var AXIS_PX = 46;      /* below a chart: tick labels, then the axis title */
  var TOP_PX = 10;
  var RIGHT_PX = 24;
  var Y_TICKS = 6;       /* the value axis's density, as the layout's (memory_axes.c) */
  var MIN_GANTT_PX = 160; /* the Gantt's band is never shorter, however short the window */
  var OUTSIDE = 'rgba(120, 130, 150, 0.10)';

  function setupCanvas(canvas, width, height) {
    var ratio = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(width * ratio));
    canvas.height = Math.max(1, Math.round(height * ratio));
    canvas.style.width = width + 'px';
    canvas.style.height = height + 'px';
    var ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    return ctx;
  }

  /*
   * Geometry in CSS px: the model's left margin (the lane labels' room) and heights; the width is the
   * window's. The Gantt's lanes scroll in a band that ends above the window's bottom, its time axis
   * drawn under the band, so both charts' axes stay in view.
   */
  MemoryPage.prototype.resize = function () {
    var g = this.ganttModel, c = this.curveModel;
    var width = Math.max(360, this.curveStage.clientWidth || this.curveStage.parentNode.clientWidth);
    var left = Math.min(g.plot[0], 0.4 * width);
    this.geom = {
      width: width, left: left, plotW: Math.max(60, width - left - RIGHT_PX),
      curveH: c.plot[3] + TOP_PX + AXIS_PX, curvePlotH: c.plot[3],
      ganttH: g.lanes.length * g.rowPitch + TOP_PX + 2, pitch: g.rowPitch, labelW: left - 12
    };
    this.curveCtx = setupCanvas(this.curveCanvas, width, this.geom.curveH);
    this.ganttCtx = setupCanvas(this.ganttCanvas, width, this.geom.ganttH);
    this.axisCtx = setupCanvas(this.axisCanvas, width, AXIS_PX);
    var top = this.ganttStage.getBoundingClientRect().top + (window.scrollY || 0);
    var room = Math.max(MIN_GANTT_PX, (window.innerHeight || 800) - top - AXIS_PX - 12);
    this.ganttStage.style.maxHeight = Math.min(this.geom.ganttH, room) + 'px';
  };

  MemoryPage.prototype.xOf = function (t) {
    var r = this.range;
    return this.geom.left + (t - r.lo) / (r.hi - r.lo) * this.geom.plotW;
  };
  MemoryPage.prototype.tOf = function (x) {
    var r = this.range;
    return r.lo + (x - this.geom.left) / this.geom.plotW * (r.hi - r.lo);
  };
  MemoryPage.prototype.yOfValue = function (v) {
    var y = this.yAxis || { min: this.curveModel.yMin, max: this.curveModel.yMax };
    return TOP_PX + (1 - (v - y.min) / (y.max - y.min)) * this.geom.curvePlotH;
  };

  /*
   * The value axis for what the view shows: from 0 to a little above the highest value in it (the
   * layout's rule, rli_memory_y_ticks), in the unit that top reads best in, so a zoom into a low
   * stretch of the curve fills the plot; its title names the unit.
   */
  MemoryPage.prototype.valueAxis = function (highest) {
    var top = highest > 0 ? highest * 1.12 : 1, unit = core.sizeUnitFor(top);
    var ticks = core.unitTicks(0, top, Y_TICKS, 64, unit.mb);
    var max = ticks.length ? Math.max(top, ticks[ticks.length - 1].value) : top;
    var quantity = this.curveModel.yTitle.text.replace(/\s*\([^)]*\)\s*$/, '');
    return { min: 0, max: max, unit: unit, ticks: ticks, title: quantity + ' (' + unit.name + ')' };
  };
  MemoryPage.prototype.laneOfY = function (y) {
    var lane = Math.floor((y - TOP_PX) / this.geom.pitch);
    return lane >= 0 && lane < this.ganttModel.lanes.length ? lane : -1;
  };
  MemoryPage.prototype.laneTop = function (lane) { return TOP_PX + lane * this.geom.pitch; };

  /* The time axis in view: ticks at the layout's density for the plot's width now, in the span's unit, and its title. */
  MemoryPage.prototype.timeAxis = function () {
    var model = this.ganttModel;
    var target = Math.max(2, Math.round(model.xtickTarget * this.geom.plotW / model.plot[2]));
    return core.timeTicks(this.range.lo, this.range.hi, target, model.xtickMax);
  };
  MemoryPage.prototype.ticks = function () { return this.timeAxis().ticks; };

  /* Grid lines at the ticks and the plot's frame; with labelsAt, the tick labels under y = labelsAt and the axis title. */
  MemoryPage.prototype.drawAxis = function (ctx, top, height, labelsAt) {
    var geom = this.geom, self = this, model = this.ganttModel, axis = this.timeAxis();
    ctx.save();
    ctx.font = model.tickLabelSize * 0.85 + 'px ' + core.cssFontFamily(this.model.fontFamily);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    axis.ticks.forEach(function (tick) {
      var x = Math.round(self.xOf(tick.value)) + 0.5;
      if (height > 0) {
        ctx.strokeStyle = model.gridColor;
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + height);
        ctx.stroke();
      }
      if (labelsAt !== undefined) {
        ctx.fillStyle = self.model.textColor;
        ctx.fillText(tick.label, x, labelsAt + 5);
      }
    });
    if (labelsAt !== undefined) {
      ctx.font = 'bold ' + model.tickLabelSize * 0.9 + 'px ' + core.cssFontFamily(this.model.fontFamily);
      ctx.fillText(axis.title, geom.left + geom.plotW / 2, labelsAt + 5 + model.tickLabelSize * 1.15);
    }
    if (height > 0) {
      ctx.strokeStyle = '#9aa7bd';
      ctx.strokeRect(geom.left + 0.5, top + 0.5, geom.plotW - 1, height - 1);
    }
    ctx.restore();
    this.axisTitle = axis.title;
  };

  /* Grey over the parts of the view outside this segment: their bars are on other pages. */
  MemoryPage.prototype.shadeOutside = function (ctx, top, height) {
    var lo = this.xOf(this.segment.xMin), hi = this.xOf(this.segment.xMax), geom = this.geom;
    ctx.fillStyle = OUTSIDE;
    if (lo > geom.left) ctx.fillRect(geom.left, top, Math.min(lo, geom.left + geom.plotW) - geom.left, height);
    if (hi < geom.left + geom.plotW) ctx.fillRect(Math.max(hi, geom.left), top, geom.left + geom.plotW - Math.max(hi, geom.left), height);
  };

  MemoryPage.prototype.drawCurve = function () {
    var ctx = this.curveCtx, geom = this.geom, c = this.curveModel, d = this.d, self = this;
    var top = TOP_PX, h = geom.curvePlotH, columns = Math.ceil(geom.plotW);
    ctx.clearRect(0, 0, geom.width, geom.curveH);
    this.curveDrawn = [this.range.lo, this.range.hi];

    /* Per pixel column the least and greatest value: the envelope outside the segment, the exact steps inside. */
    var lo = new Float64Array(columns).fill(NaN), hi = new Float64Array(columns).fill(NaN), col;
    var segLo = this.segment.xMin, segHi = this.segment.xMax;
    var env = d.lines, ex = env[0].x, n = ex.length, step = n > 1 ? ex[1] - ex[0] : 0;
    for (var i = 0; i < n; i++) {
      var x0 = ex[i], x1 = i + 1 < n ? ex[i + 1] : x0 + step;
      if (x1 <= this.range.lo || x0 >= this.range.hi) continue;
      if (x0 >= segLo && x1 <= segHi) continue;
      var a = Math.max(0, Math.floor(this.xOf(x0) - geom.left)), b = Math.min(columns - 1, Math.floor(this.xOf(x1) - geom.left));
      for (col = a; col <= b; col++) {
        var l = env[1].y[i], u = env[0].y[i];
        lo[col] = isNaN(lo[col]) ? l : Math.min(lo[col], l);
        hi[col] = isNaN(hi[col]) ? u : Math.max(hi[col], u);
      }
    }
    var curve = d.curve, from = Math.max(this.range.lo, segLo), to = Math.min(this.range.hi, segHi);
    if (from < to) {
      var first = Math.max(0, core.upperBound(curve.t, 0, curve.count, from) - 1);
      var value = first < curve.count && curve.t[first] <= from ? curve.v[first] : 0;
      var colFrom = Math.max(0, Math.floor(this.xOf(from) - geom.left)), colTo = Math.min(columns - 1, Math.floor(this.xOf(to) - geom.left));
      var k = core.upperBound(curve.t, 0, curve.count, from);
      for (col = colFrom; col <= colTo; col++) {
        var end = this.tOf(geom.left + col + 1), cl = value, ch = value;
        for (; k < curve.count && curve.t[k] < end && curve.t[k] <= to; k++) {
          value = curve.v[k];
          if (value < cl) cl = value;
          if (value > ch) ch = value;
        }
        lo[col] = cl;
        hi[col] = ch;
      }
    }
    /* the value axis for what is in view: the curve's columns, the other lines' points there */
    var highest = 0;
    for (col = 0; col < columns && !env[0].hidden; col++) if (hi[col] > highest) highest = hi[col];
    highest = Math.max(highest, this.otherLinesMax(this.range.lo, this.range.hi));
    this.yAxis = this.valueAxis(highest);

    ctx.save();
    ctx.font = c.tickLabelSize * 0.85 + 'px ' + core.cssFontFamily(this.model.fontFamily);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    this.yAxis.ticks.forEach(function (tick) {
      var y = Math.round(self.yOfValue(tick.value)) + 0.5;
      ctx.strokeStyle = c.gridColor;
      ctx.beginPath();
      ctx.moveTo(geom.left, y);
      ctx.lineTo(geom.left + geom.plotW, y);
      ctx.stroke();
      ctx.fillStyle = self.model.textColor;
      ctx.fillText(tick.label, geom.left - 6, y);
    });
    ctx.save();
    ctx.translate(14, top + h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.font = 'bold ' + c.tickLabelSize * 0.9 + 'px ' + core.cssFontFamily(this.model.fontFamily);
    ctx.fillText(this.yAxis.title, 0, 0);
    ctx.restore();
    this.drawAxis(ctx, top, h, top + h);
    ctx.beginPath();
    ctx.rect(geom.left, top, geom.plotW, h);
    ctx.clip();
    this.shadeOutside(ctx, top, h);

    var rgb = parseColor(env[0].color), base = this.yOfValue(0);
    ctx.fillStyle = 'rgba(' + rgb.join(',') + ',' + (env[0].fillAlpha || 0.18) + ')';
    /* a line the legend hid (legend.js) is not drawn */
    if (env[0].hidden) columns = 0;
    for (col = 0; col < columns; col++)
      if (!isNaN(hi[col])) ctx.fillRect(geom.left + col, this.yOfValue(hi[col]), 1, base - this.yOfValue(hi[col]));
    ctx.fillStyle = env[0].color;
    for (col = 0; col < columns; col++) {
      if (isNaN(hi[col])) continue;
      var yh = this.yOfValue(hi[col]), yl = this.yOfValue(lo[col]);
      ctx.fillRect(geom.left + col, yh - 0.75, 1, Math.max(1.5, yl - yh + 1.5));
    }
    this.drawOtherLines(ctx);
    c.points.forEach(function (point) {
      var x = self.xOf(point.x), y = self.yOfValue(point.y);
      if (x < geom.left - 4 || x > geom.left + geom.plotW + 4) return;
      ctx.fillStyle = point.color;
      ctx.beginPath();
      ctx.arc(x, y, 4, 0, 2 * Math.PI);
      ctx.fill();
      ctx.font = 'bold 12px ' + core.cssFontFamily(self.model.fontFamily);
      ctx.textBaseline = 'bottom';
      var right = x > geom.left + geom.plotW / 2;
      ctx.textAlign = right ? 'right' : 'left';
      ctx.fillText(point.label.text, x + (right ? -8 : 8), Math.max(14, y - 4));
    });
    ctx.restore();
    this.drawLineLegend(ctx);
  };

  /* The highest point of the lines after the envelope's two (the Total Reserved) in [lo, hi], one either side. */
  MemoryPage.prototype.otherLinesMax = function (lo, hi) {
    var lines = this.d.lines, highest = 0;
    for (var l = 2; l < lines.length; l++) {
      var line = lines[l], n = line.x.length;
      if (!n || line.hidden) continue;
      var from = Math.max(0, core.upperBound(line.x, 0, n, lo) - 1), to = Math.min(n, core.upperBound(line.x, 0, n, hi) + 1);
      for (var i = from; i < to; i++) if (line.y[i] > highest) highest = line.y[i];
    }
    return highest;
  };

  /*
   * The lines after the envelope's two (the Total Reserved of a PyTorch trace,
   * already steps, thinned by the layout to a few points a pixel column at
   * most): each as a polyline in its colour, the points in view and one
   * either side.
   */
  MemoryPage.prototype.drawOtherLines = function (ctx) {
    var self = this, lines = this.d.lines, lo = this.range.lo, hi = this.range.hi;
    for (var l = 2; l < lines.length; l++) {
      var line = lines[l], n = line.x.length;
      if (!n || line.hidden) continue;
      var from = Math.max(0, core.upperBound(line.x, 0, n, lo) - 1);
      var to = Math.min(n, core.upperBound(line.x, 0, n, hi) + 1);
      ctx.strokeStyle = line.color;
      ctx.lineWidth = line.width || 1.5;
      ctx.lineJoin = 'round';
      ctx.beginPath();
      for (var i = from; i < to; i++) {
        var x = self.xOf(line.x[i]), y = self.yOfValue(line.y[i]);
        if (i === from) ctx.moveTo(x, y); else ctx.lineTo(x, y);
      }
      ctx.stroke();
    }
  };

  /* With named lines (Allocated and Reserved), their legend in the plot's top left corner, on white. */
  MemoryPage.prototype.drawLineLegend = function (ctx) {
    var named = this.d.lines.filter(function (line) { return line.name; });
    if (!named.length || this.seriesLegend) return;
    var geom = this.geom, x = geom.left + 8, y = TOP_PX + 6, swatch = 18, gap = 6, pad = 4, widths = [];
    ctx.save();
    ctx.font = '12px ' + core.cssFontFamily(this.model.fontFamily);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    var total = 0;
    named.forEach(function (line) {
      var w = ctx.measureText(line.name).width;
      widths.push(w);
      total += swatch + gap + w + 14;
    });
    ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
    ctx.fillRect(x - pad, y - pad, Math.min(total - 14 + 2 * pad, geom.plotW - 16), 16 + 2 * pad);
    named.forEach(function (line, k) {
      ctx.fillStyle = line.color;
      ctx.fillRect(x, y + 8 - 1.5, swatch, 3);
      ctx.fillStyle = this.model.textColor;
      ctx.fillText(line.name, x + swatch + gap, y + 8);
      x += swatch + gap + widths[k] + 14;
    }, this);
    ctx.restore();
  };

  MemoryPage.prototype.drawGantt = function () {
    var ctx = this.ganttCtx, geom = this.geom, g = this.ganttModel, d = this.d, self = this;
    var top = TOP_PX, h = g.lanes.length * geom.pitch, columns = Math.ceil(geom.plotW);
    var lo = this.range.lo, hi = this.range.hi, pxPerMs = geom.plotW / (hi - lo);
    var thick = Math.min(g.barThickness, geom.pitch - 2);
    ctx.clearRect(0, 0, geom.width, geom.ganttH);
    this.ganttDrawn = [lo, hi];
    ctx.save();
    ctx.font = '12px ' + core.cssFontFamily(this.model.fontFamily);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    g.lanes.forEach(function (lane, index) {
      var y = self.laneTop(index);
      if (index % 2) {
        ctx.fillStyle = '#f7f8fb';
        ctx.fillRect(geom.left, y, geom.plotW, geom.pitch);
      }
      ctx.fillStyle = self.model.textColor;
      ctx.fillText(self.fit(ctx, lane.label.text, geom.labelW), geom.left - 8, y + geom.pitch / 2);
    });
    this.drawAxis(ctx, top, h);
    var axis = this.axisCtx;
    axis.clearRect(0, 0, geom.width, AXIS_PX);
    this.drawAxis(axis, 0, 0, 0);
    ctx.beginPath();
    ctx.rect(geom.left, top, geom.plotW, h);
    ctx.clip();
    this.shadeOutside(ctx, top, h);
    var coverage = new Float64Array(columns), dense = geom.plotW / 4;
    for (var lane = 0; lane < g.lanes.length; lane++) {
      var color = this.series[g.lanes[lane].series].color, wide = [], cover = [];
      this.laneBars(lane, lo, hi, function (i) {
        if ((d.end[i] - d.start[i]) * pxPerMs >= 1) wide.push(i); else cover.push(i);
      });
      /* A lane crowded with bars is drawn as their union, one colour: outlines would be noise, and it stays fast. */
      if (wide.length > dense) {
        cover = cover.concat(wide);
        wide = [];
      }
      var y = this.laneTop(lane) + (geom.pitch - thick) / 2;
      ctx.fillStyle = color;
      if (this.omitIn(lane, lo, hi)) {
        /* the carried blocks never freed that are summed up: one band from the first of them */
        var bx0 = geom.left + Math.max(-2, (d.omitStartU[lane] / d.scale - lo) * pxPerMs);
        var bx1 = geom.left + Math.min(geom.plotW + 2, (d.openEndU / d.scale - lo) * pxPerMs);
        ctx.globalAlpha = 0.55;
        ctx.fillRect(bx0, y, Math.max(1, bx1 - bx0), thick);
        ctx.globalAlpha = 1;
      }
      if (cover.length) {
        coverage.fill(0);
        cover.forEach(function (i) {
          var x0 = (d.start[i] - lo) * pxPerMs, x1 = (d.end[i] - lo) * pxPerMs;
          addCoverage(coverage, columns, x0, Math.max(x1, x0 + 1));
        });
        this.paintCoverage(ctx, coverage, columns, y, thick);
      }
      /* longest first, so short bars stay on top and can be pointed at */
      wide.sort(function (a, b) { return (d.end[b] - d.start[b]) - (d.end[a] - d.start[a]) || a - b; });
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.85)';
      ctx.lineWidth = 1;
      wide.forEach(function (i) {
        var x0 = geom.left + Math.max(-2, (d.start[i] - lo) * pxPerMs), x1 = geom.left + Math.min(geom.plotW + 2, (d.end[i] - lo) * pxPerMs);
        ctx.fillRect(x0, y, x1 - x0, thick);
        if (x1 - x0 > 3) ctx.strokeRect(x0 + 0.5, y + 0.5, x1 - x0 - 1, thick - 1);
      });
    }
    if (this.selected >= 0 && this.inRange(this.selected, lo, hi)) {
      var s = this.selected, sy = this.laneTop(d.lane[s]) + (geom.pitch - thick) / 2 - 2;
      var sx0 = geom.left + (d.start[s] - lo) * pxPerMs, sx1 = Math.max(sx0 + 2, geom.left + (d.end[s] - lo) * pxPerMs);
      ctx.strokeStyle = '#1b1f27';
      ctx.lineWidth = 2;
      ctx.strokeRect(sx0 - 1, sy, sx1 - sx0 + 2, thick + 4);
    }
    ctx.restore();
  };

  /*
   * Columns a lane's bars cover, as runs of one opacity: a column fully
   * covered is solid, a partly covered one (bars thinner than a pixel) lighter,
   * in eighths, so a crowded lane is a few rectangles rather than one a column.
   */
  MemoryPage.prototype.paintCoverage = function (ctx, coverage, columns, y, thick) {
    var left = this.geom.left;
    for (var c = 0; c < columns;) {
      var level = coverage[c] > 0 ? Math.round(Math.min(1, 0.35 + coverage[c]) * 8) : 0, run = c + 1;
      while (run < columns && (coverage[run] > 0 ? Math.round(Math.min(1, 0.35 + coverage[run]) * 8) : 0) === level) run++;
      if (level) {
        ctx.globalAlpha = level / 8;
        ctx.fillRect(left + c, y, run - c, thick);
      }
      c = run;
    }
    ctx.globalAlpha = 1;
  };

  MemoryPage.prototype.fit = function (ctx, text, width) {
    if (ctx.measureText(text).width <= width) return text;
    var lo = 0, hi = text.length;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (ctx.measureText(text.slice(0, mid) + '\u2026').width <= width) lo = mid; else hi = mid - 1;
    }
    return text.slice(0, lo) + '\u2026';
  };

  MemoryPage.prototype.draw = function () {
    this.drawCurve();
    this.drawGantt();
    this.drawCount = (this.drawCount || 0) + 1;
  };
})();
