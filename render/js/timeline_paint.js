/* timeline_paint.js: the timeline page's drawing: text, axes, row labels, and bars with their per-column coverage. */
(function () {
  'use strict';

  var core = window.rliCore;
  var lowerBound = core.lowerBound, timeTicks = core.timeTicks, parseColor = core.parseColor;
  var element = core.element, growFloat64 = core.growFloat64, addCoverage = core.addCoverage;
  var parts = window.rliTimelineParts;
  var ALIGN_H = parts.ALIGN_H, ALIGN_V = parts.ALIGN_V, WIDE_PX = parts.WIDE_PX;
  var STRIP_LINES = parts.STRIP_LINES, mapText = parts.mapText, Timeline = parts.Timeline;

  /*
   * The x axis in view: the layout's ticks and title at the layout's range and
   * density, else rli_time_ticks' rule on the window, in the unit its span
   * reads best in, with the title naming that unit.
   */
  Timeline.prototype.axis = function (g) {
    var model = this.model;
    g = g || this.screen;
    if (this.left === model.xMin && this.right === model.xMax && model.xticks.length && g.tickTarget === model.xtickTarget)
      return { ticks: model.xticks, title: model.xTitle.text };
    var axis = timeTicks(this.left, this.right, g.tickTarget, model.xtickMax);
    return { ticks: axis.ticks, title: axis.title };
  };

  Timeline.prototype.ticks = function (g) {
    return this.axis(g).ticks;
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
    var axis = this.axis(g), ticks = axis.ticks;
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
    if (g.xTitle) this.drawText(ctx, Object.assign({}, g.xTitle, { text: axis.title }));
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
      if (row < 0) continue; /* a group's header (timeline_groups.js) draws its own track */
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
})();
