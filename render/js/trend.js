/* trend.js: the trend page: the figure the layout placed, drawn on a canvas to the window's width; hovering a run shows its numbers, a click opens its outputs; the table of runs links each to its own. */
(function () {
  'use strict';

  var core = window.rliCore;
  var element = core.element;
  var MIN_SCALE = 0.4, MAX_SCALE = 1.5;
  var GUIDE_COLOR = 'rgba(42, 63, 95, 0.35)';

  function hex(color) { return color; }

  function font(text, family) {
    return (text.bold ? 'bold ' : '') + text.size + 'px ' + family;
  }

  /* text cut to width with an ellipsis, as the PNG's pango does */
  function fitted(ctx, text, width) {
    if (!(width > 0) || ctx.measureText(text).width <= width) return text;
    var lo = 0, hi = text.length;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (ctx.measureText(text.slice(0, mid) + '\u2026').width <= width) lo = mid; else hi = mid - 1;
    }
    return text.slice(0, lo) + '\u2026';
  }

  function drawText(ctx, text, family) {
    if (!text || !text.text) return;
    ctx.save();
    ctx.font = font(text, family);
    ctx.fillStyle = hex(text.color);
    ctx.textAlign = ['left', 'center', 'right'][text.halign] || 'left';
    ctx.textBaseline = ['top', 'middle', 'bottom'][text.valign] || 'top';
    ctx.translate(text.x, text.y);
    if (text.angle) ctx.rotate(-text.angle * Math.PI / 180);
    ctx.fillText(fitted(ctx, text.text, text.maxWidth), 0, 0);
    ctx.restore();
  }

  function Panel(spec) {
    this.spec = spec;
  }

  Panel.prototype.px = function (x) {
    var s = this.spec;
    return s.plot[0] + (x - s.xMin) / (s.xMax - s.xMin) * s.plot[2];
  };

  Panel.prototype.py = function (y) {
    var s = this.spec, span = s.yMax > s.yMin ? s.yMax - s.yMin : 1;
    return s.plot[1] + s.plot[3] - (y - s.yMin) / span * s.plot[3];
  };

  Panel.prototype.draw = function (ctx, family, textColor) {
    var s = this.spec, self = this, x0 = s.plot[0], y0 = s.plot[1], w = s.plot[2], h = s.plot[3];
    ctx.save();
    ctx.strokeStyle = s.gridColor;
    ctx.lineWidth = 1;
    ctx.beginPath();
    s.xticks.forEach(function (t) { var x = Math.round(self.px(t.value)) + 0.5; ctx.moveTo(x, y0); ctx.lineTo(x, y0 + h); });
    if (s.values) s.yticks.forEach(function (t) { var y = Math.round(self.py(t.value)) + 0.5; ctx.moveTo(x0, y); ctx.lineTo(x0 + w, y); });
    ctx.stroke();
    ctx.beginPath();
    ctx.rect(x0, y0, w, h);
    ctx.clip();
    for (var b = 0; b + 3 < s.bars.length; b += 4) {
      var lane = s.bars[b], top = y0 + (lane + 0.5) * s.rowPitch - s.barThickness / 2;
      ctx.fillStyle = s.series[s.bars[b + 1]];
      ctx.fillRect(this.px(s.bars[b + 2]), top, this.px(s.bars[b + 3]) - this.px(s.bars[b + 2]), s.barThickness);
    }
    s.lines.forEach(function (line) {
      var i;
      if (line.fill > 0 && line.yLow) {
        ctx.beginPath();
        for (i = 0; i < line.x.length; i++) ctx[i ? 'lineTo' : 'moveTo'](self.px(line.x[i]), self.py(line.y[i]));
        for (i = line.x.length - 1; i >= 0; i--) ctx.lineTo(self.px(line.x[i]), self.py(line.yLow[i]));
        ctx.closePath();
        ctx.globalAlpha = line.fill;
        ctx.fillStyle = line.color;
        ctx.fill();
        ctx.globalAlpha = 1;
      }
      if (!(line.width > 0)) return;
      ctx.beginPath();
      for (i = 0; i < line.x.length; i++) ctx[i ? 'lineTo' : 'moveTo'](self.px(line.x[i]), self.py(line.y[i]));
      ctx.strokeStyle = line.color;
      ctx.lineWidth = line.width;
      ctx.lineJoin = 'round';
      ctx.stroke();
    });
    ctx.restore();
    s.points.forEach(function (p) {
      if (p.radius > 0) {
        ctx.beginPath();
        ctx.arc(self.px(p.x), self.py(p.y), p.radius, 0, 2 * Math.PI);
        ctx.fillStyle = p.color;
        ctx.fill();
      }
      drawText(ctx, p.label, family);
    });
    ctx.fillStyle = textColor;
    s.xticks.forEach(function (t) {
      drawText(ctx, { text: t.label, x: self.px(t.value), y: y0 + h + s.tickLabelGap, size: s.tickLabelSize, color: textColor,
        halign: 1, valign: 0 }, family);
    });
    if (s.values) s.yticks.forEach(function (t) {
      drawText(ctx, { text: t.label, x: x0 - s.tickLabelGap, y: self.py(t.value), size: s.tickLabelSize, color: textColor,
        halign: 2, valign: 1 }, family);
    });
    s.rowLabels.forEach(function (t) { drawText(ctx, t, family); });
    drawText(ctx, s.xTitle, family);
  };

  /* The run under page x, when x is within the plots' span; -1 otherwise. */
  Panel.prototype.runAt = function (x, count) {
    var s = this.spec;
    if (x < s.plot[0] || x > s.plot[0] + s.plot[2]) return -1;
    var k = Math.round(s.xMin + (x - s.plot[0]) / s.plot[2] * (s.xMax - s.xMin));
    return k >= 0 && k < count ? k : -1;
  };

  /* A link as the page's href: each part of the relative path escaped, the '..' kept. */
  function hrefOf(path) {
    return path.split('/').map(function (part) { return part === '..' || part === '.' ? part : encodeURIComponent(part); }).join('/');
  }

  function Page(model) {
    this.model = model;
    this.family = core.cssFontFamily(model.fontFamily);
    this.panels = model.panels.map(function (p) { return new Panel(p); });
    this.count = model.hover.length;
    this.hrefs = [];
    var self = this;
    model.rows.forEach(function (row) { self.hrefs[row.point] = row.href; });
    this.root = element('div', 'rli-trend');
    this.stage = element('div', 'rli-trend-stage');
    this.canvas = element('canvas');
    this.overlay = element('canvas');
    this.overlay.style.position = 'absolute';
    this.overlay.style.left = '0';
    this.overlay.style.top = '0';
    this.overlay.style.pointerEvents = 'none';
    this.tip = element('div', 'rli-trend-tip');
    this.stage.appendChild(this.canvas);
    this.stage.appendChild(this.overlay);
    this.stage.appendChild(this.tip);
    this.root.appendChild(this.stage);
    this.root.appendChild(this.table());
    document.body.appendChild(this.root);
    this.picked = -1;
    this.layout();
    this.canvas.addEventListener('mousemove', function (e) { self.hover(e); });
    this.canvas.addEventListener('mouseleave', function () { self.pick(-1); });
    this.canvas.addEventListener('click', function (e) {
      var k = self.runAtEvent(e);
      if (k >= 0 && self.hrefs[k]) window.location.href = hrefOf(self.hrefs[k]);
    });
    var pending = 0;
    window.addEventListener('resize', function () {
      if (pending) return;
      pending = window.requestAnimationFrame(function () { pending = 0; self.layout(); });
    });
  }

  Page.prototype.table = function () {
    var model = this.model, self = this;
    var table = element('table', 'rli-trend-table'), head = element('thead'), body = element('tbody'), tr = element('tr');
    var caption = element('caption', null, 'The runs, newest first: each links to its own outputs while its folder still holds them');
    table.appendChild(caption);
    model.header.forEach(function (h) { tr.appendChild(element('th', null, h)); });
    head.appendChild(tr);
    table.appendChild(head);
    model.rows.forEach(function (row) {
      var line = element('tr', (row.current ? 'rli-current ' : '') + (row.regressed ? 'rli-regressed' : ''));
      line.dataset.point = String(row.point);
      row.cells.forEach(function (text, c) {
        var cell = element('td');
        if (c === row.cells.length - 1 && row.href) {
          var a = element('a', 'rli-trend-link', text);
          a.href = hrefOf(row.href);
          a.title = row.href;
          cell.appendChild(a);
        } else {
          cell.textContent = text;
          if (c === row.cells.length - 1) cell.className = 'rli-gone';
        }
        line.appendChild(cell);
      });
      line.addEventListener('mouseenter', function () { self.pick(row.point); });
      line.addEventListener('mouseleave', function () { self.pick(-1); });
      body.appendChild(line);
    });
    table.appendChild(body);
    this.rowsByPoint = [];
    Array.prototype.forEach.call(body.children, function (line) { self.rowsByPoint[Number(line.dataset.point)] = line; });
    return table;
  };

  Page.prototype.layout = function () {
    var model = this.model, ratio = window.devicePixelRatio || 1;
    var avail = Math.max(200, (document.documentElement.clientWidth || 1280) - 20);
    this.scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, avail / model.width));
    var w = Math.round(model.width * this.scale), h = Math.round(model.height * this.scale);
    [this.canvas, this.overlay].forEach(function (c) {
      c.style.width = w + 'px';
      c.style.height = h + 'px';
      c.width = Math.round(w * ratio);
      c.height = Math.round(h * ratio);
    });
    this.ratio = ratio;
    this.draw();
    this.drawGuide();
  };

  Page.prototype.draw = function () {
    var ctx = this.canvas.getContext('2d'), model = this.model, family = this.family, s = this.scale * this.ratio;
    ctx.setTransform(s, 0, 0, s, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, model.width, model.height);
    this.panels.forEach(function (p) { p.draw(ctx, family, model.textColor); });
    model.texts.forEach(function (t) { drawText(ctx, t, family); });
  };

  Page.prototype.runAtEvent = function (e) {
    var box = this.canvas.getBoundingClientRect();
    var x = (e.clientX - box.left) / this.scale, y = (e.clientY - box.top) / this.scale;
    if (!this.panels.length || y < this.panels[0].spec.plot[1] - 30) return -1;
    return this.panels[0].runAt(x, this.count);
  };

  Page.prototype.hover = function (e) {
    var k = this.runAtEvent(e);
    this.pick(k);
    if (k < 0) return;
    var box = this.stage.getBoundingClientRect(), tip = this.tip;
    var lines = this.model.hover[k].split('\n');
    tip.textContent = '';
    lines.forEach(function (line, i) {
      if (i) tip.appendChild(document.createTextNode('\n'));
      if (i === 0) tip.appendChild(element('b', null, line)); else tip.appendChild(document.createTextNode(line));
    });
    tip.style.display = 'block';
    var x = e.clientX - box.left + 16, y = e.clientY - box.top + 16;
    if (x + tip.offsetWidth > box.width) x = Math.max(0, e.clientX - box.left - tip.offsetWidth - 16);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
    this.canvas.style.cursor = this.hrefs[k] ? 'pointer' : 'crosshair';
  };

  /* A run picked (hovered here or in the table): its guide across every panel, its row marked. */
  Page.prototype.pick = function (k) {
    if (k < 0) this.tip.style.display = 'none';
    if (k === this.picked) return;
    if (this.picked >= 0 && this.rowsByPoint[this.picked]) this.rowsByPoint[this.picked].classList.remove('rli-picked');
    this.picked = k;
    if (k >= 0 && this.rowsByPoint[k]) this.rowsByPoint[k].classList.add('rli-picked');
    this.drawGuide();
  };

  Page.prototype.drawGuide = function () {
    var ctx = this.overlay.getContext('2d'), s = this.scale * this.ratio, k = this.picked;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.overlay.width, this.overlay.height);
    if (k < 0) return;
    ctx.setTransform(s, 0, 0, s, 0, 0);
    ctx.strokeStyle = GUIDE_COLOR;
    ctx.lineWidth = 1.5;
    this.panels.forEach(function (p) {
      var x = p.px(k), top = p.spec.plot[1], bottom = top + p.spec.plot[3];
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, bottom);
      ctx.stroke();
    });
  };

  function start() {
    try {
      window.rliTrend = new Page(core.readJson('rli-trend'));
    } catch (error) {
      document.body.appendChild(element('p', 'rli-trend-error', 'This trend could not be drawn: ' + error.message));
      throw error;
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
