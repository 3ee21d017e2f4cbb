/* memory_view.js: a memory page's pointer and keys: wheel and box zoom, Alt-drag pan, keyboard on the charts, a crosshair over both, the view in the URL. */
(function () {
  'use strict';

  var core = window.rliCore, MemoryPage = window.rliMemoryPage, element = core.element;
  var SETTLE_MS = 250, STREAM_MS = 900;

  /* The range and the selected bar as a fragment: "#range=lo,hi&sel=42" (what a link from the timeline carries too). */
  MemoryPage.prototype.encodeView = function () {
    var params = [];
    if (this.range.lo !== this.segment.xMin || this.range.hi !== this.segment.xMax)
      params.push('range=' + Math.round(this.range.lo * 1e6) / 1e6 + ',' + Math.round(this.range.hi * 1e6) / 1e6);
    if (this.selected >= 0) params.push('sel=' + this.selected);
    return params.length ? '#' + params.join('&') : '';
  };

  MemoryPage.readView = function (hash) {
    var params = new URLSearchParams(String(hash || '').replace(/^#/, '')), view = {};
    var range = /^(-?[\d.e+-]+),(-?[\d.e+-]+)$/i.exec(params.get('range') || '');
    if (range) view.range = [Number(range[1]), Number(range[2])];
    if (params.has('sel') && /^\d+$/.test(params.get('sel'))) view.sel = Number(params.get('sel'));
    return view;
  };

  MemoryPage.prototype.applyView = function (view) {
    this.applyingView = true;
    if (view.range) this.range.set(view.range[0], view.range[1], 'link');
    else this.range.set(this.segment.xMin, this.segment.xMax, 'link');
    if (view.sel >= 0 && view.sel < this.d.count) this.showDetail(view.sel);
    else this.clearDetail();
    this.applyingView = false;
    this.writtenView = this.encodeView();
  };

  /* After a change: the view written once it settles, a stream of changes (a wheel) as one history entry. */
  MemoryPage.prototype.viewChanged = function () {
    if (this.applyingView) return;
    var self = this;
    clearTimeout(this.viewTimer);
    this.viewTimer = setTimeout(function () {
      var hash = self.encodeView(), now = performance.now();
      if (hash === self.writtenView) return;
      var url = location.href.replace(/#.*$/, '') + hash;
      try {
        if (now - (self.writtenAt || -Infinity) < STREAM_MS) history.replaceState(null, '', url);
        else history.pushState(null, '', url);
      } catch (error) {
        return;
      }
      self.writtenView = hash;
      self.writtenAt = now;
    }, SETTLE_MS);
  };

  MemoryPage.prototype.clearDetail = function () {
    if (this.selected < 0) return false;
    this.selected = -1;
    this.detail.textContent = '';
    this.detail.appendChild(element('p', 'rli-placeholder', 'Click a bar to view details'));
    this.drawGantt();
    this.viewChanged();
    return true;
  };

  /* A dashed line at the pointer's time over the curve and the Gantt alike, so a block reads against the curve. */
  MemoryPage.prototype.placeCrosshair = function (t) {
    var self = this;
    this.crosshairs.forEach(function (line) {
      var x = t === null ? -1 : self.xOf(t);
      var shown = x >= self.geom.left && x <= self.geom.left + self.geom.plotW;
      line.style.display = shown ? 'block' : 'none';
      if (shown) line.style.left = Math.round(x) + 'px';
    });
    this.crosshairAt = t;
  };

  MemoryPage.prototype.bindInput = function () {
    var self = this, drag = null, last = null;
    var canvases = [this.curveCanvas, this.ganttCanvas, this.axisCanvas];
    this.crosshairs = [this.curveStage, this.ganttStage].map(function (stage) {
      var line = element('div', 'rli-cursor rli-crosshair');
      stage.appendChild(line);
      line.style.top = '0px';
      line.style.height = '100%';
      return line;
    });
    this.boxes = [this.curveStage, this.ganttStage].map(function (stage) {
      var box = element('div', 'rli-box');
      stage.appendChild(box);
      return box;
    });
    [['left', this.leftInput], ['right', this.rightInput]].forEach(function (pair) {
      pair[1].addEventListener('change', function () { self.applyInput(pair[0]); });
      pair[1].addEventListener('keydown', function (event) { if (event.key === 'Enter') self.applyInput(pair[0]); });
    });
    this.resetButton.addEventListener('click', function () { self.range.set(self.segment.xMin, self.segment.xMax, 'reset'); });
    function reset() { self.range.set(self.segment.xMin, self.segment.xMax, 'reset'); }
    function plotX(event, canvas) {
      var box = canvas.getBoundingClientRect();
      return Math.max(self.geom.left, Math.min(self.geom.left + self.geom.plotW, event.clientX - box.left));
    }
    canvases.forEach(function (canvas) {
      canvas.tabIndex = 0;
      canvas.addEventListener('wheel', function (event) {
        event.preventDefault();
        var box = canvas.getBoundingClientRect(), x = event.clientX - box.left;
        var dy = event.deltaY * (event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? 800 : 1);
        var z = Math.min(Math.abs(dy) / 100 * 0.15, 0.5);
        self.range.zoomAt(self.tOf(x), dy > 0 ? 1 + z : 1 / (1 + z), 'wheel');
        /* the tooltip and crosshair tell the time now under the pointer, not the one before the zoom */
        self.hover(event);
      }, { passive: false });
      canvas.addEventListener('mousedown', function (event) {
        if (event.button !== 0) return;
        event.preventDefault();
        canvas.focus({ preventScroll: true });
        drag = { x: event.clientX, from: plotX(event, canvas), lo: self.range.lo, hi: self.range.hi, moved: false,
          canvas: canvas, pan: event.altKey };
        if (drag.pan) canvas.classList.add('rli-pan');
      });
      canvas.addEventListener('dblclick', reset);
      canvas.addEventListener('mouseleave', function () { if (!drag) { self.hideTooltip(); self.placeCrosshair(null); } });
      /* the keys act where the focus is: on a chart */
      canvas.addEventListener('keydown', function (event) {
        var r = self.range, span = r.hi - r.lo, handled = true;
        if (event.key === 'ArrowLeft') r.panBy(-span * 0.1, 'key');
        else if (event.key === 'ArrowRight') r.panBy(span * 0.1, 'key');
        else if (event.key === '+' || event.key === '=') r.zoomAt((r.lo + r.hi) / 2, 0.8, 'key');
        else if (event.key === '-') r.zoomAt((r.lo + r.hi) / 2, 1.25, 'key');
        else if (event.key === '0' || event.key === 'Home') reset();
        else if (event.key === 'Escape') handled = self.clearDetail();
        else handled = false;
        if (handled) event.preventDefault();
      });
    });
    window.addEventListener('mousemove', function (event) {
      last = event;
      if (drag) {
        var dx = event.clientX - drag.x;
        if (Math.abs(dx) > 3) drag.moved = true;
        if (drag.moved && drag.pan) {
          var span = drag.hi - drag.lo, lo = drag.lo - dx / self.geom.plotW * span;
          self.range.set(lo, lo + span, 'pan');
        } else if (drag.moved) {
          var a = Math.min(drag.from, plotX(event, drag.canvas)), b = Math.max(drag.from, plotX(event, drag.canvas));
          self.boxes.forEach(function (box) {
            box.style.display = 'block';
            box.style.left = a + 'px';
            box.style.width = (b - a) + 'px';
            box.style.top = '0px';
            box.style.height = '100%';
          });
        }
        self.hideTooltip();
        return;
      }
      self.hover(event);
    });
    window.addEventListener('mouseup', function (event) {
      if (!drag) return;
      var was = drag;
      drag = null;
      was.canvas.classList.remove('rli-pan');
      self.boxes.forEach(function (box) { box.style.display = 'none'; });
      if (was.moved && !was.pan) {
        var to = plotX(event, was.canvas);
        if (Math.abs(to - was.from) >= 4) self.range.set(self.tOf(Math.min(to, was.from)), self.tOf(Math.max(to, was.from)), 'box');
        return;
      }
      if (!was.moved && was.canvas === self.ganttCanvas) {
        var box = self.ganttCanvas.getBoundingClientRect();
        var bar = self.barAt(event.clientX - box.left, event.clientY - box.top);
        if (bar >= 0) self.showDetail(bar);
        else self.clearDetail();
      }
    });
    window.addEventListener('popstate', function () { self.applyView(MemoryPage.readView(location.hash)); });
    this.range.listen(function () {
      if (last && self.crosshairAt !== null && self.crosshairAt !== undefined) self.hover(last);
      self.viewChanged();
    });
  };

  /* The crosshair follows every hover; a hover beside the charts hides it. */
  var hover = MemoryPage.prototype.hover;
  MemoryPage.prototype.hover = function (event) {
    var target = event.target, inChart = target === this.curveCanvas || target === this.ganttCanvas || target === this.axisCanvas;
    if (inChart) {
      var box = target.getBoundingClientRect();
      this.placeCrosshair(this.tOf(event.clientX - box.left));
    } else if (this.crosshairs) {
      this.placeCrosshair(null);
    }
    return hover.call(this, event);
  };

  var showDetail = MemoryPage.prototype.showDetail;
  MemoryPage.prototype.showDetail = function (bar) {
    var result = showDetail.call(this, bar);
    this.viewChanged();
    return result;
  };
})();
