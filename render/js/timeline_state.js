/* timeline_state.js: the timeline's view in the page's URL (range, filter, order, groups, hidden names, scroll, selection): reload, Back and a link restore it. */
(function () {
  'use strict';

  var parts = window.rliTimelineParts;
  var Timeline = parts.Timeline;
  var SETTLE_MS = 250;   /* a view is written once it has held this long */
  var STREAM_MS = 900;   /* a change this soon after the last one written is the same gesture: it replaces it */

  /* A time for the URL: to the nanosecond, the shortest text that reads back so. */
  function timeText(ms) {
    return String(Math.round(ms * 1e6) / 1e6);
  }

  /* The fragment's keys (#range=lo,hi&filter=...): what a link from another page of the run may carry too. */
  function readHash(hash) {
    var params = new URLSearchParams(String(hash || '').replace(/^#/, '')), state = {};
    var range = /^(-?[\d.e+-]+),(-?[\d.e+-]+)$/i.exec(params.get('range') || '');
    if (range && isFinite(Number(range[1])) && isFinite(Number(range[2]))) state.range = [Number(range[1]), Number(range[2])];
    if (params.has('filter')) state.filter = params.get('filter');
    if (params.has('order')) state.order = params.get('order');
    if (params.has('hover')) state.hover = params.get('hover');
    if (params.has('hidden')) state.hidden = params.get('hidden').split(',').filter(Boolean).map(Number);
    if (params.has('top')) state.top = Number(params.get('top'));
    if (params.has('sel')) state.sel = params.get('sel');
    if (params.has('group')) state.group = params.get('group') === '1';
    if (params.has('fold')) state.fold = params.get('fold').split(',').filter(Boolean).map(Number);
    if (params.has('measure')) {
      var m = params.get('measure').split(',').map(Number);
      if (m.length === 2 && m.every(isFinite)) state.measure = m;
    }
    return state;
  }

  function ViewState(timeline) {
    var self = this;
    this.timeline = timeline;
    this.written = null;
    this.writtenAt = -Infinity;
    this.timer = 0;
    this.applying = false;
    window.addEventListener('popstate', function () { self.restore(); });
    window.addEventListener('hashchange', function () { if (location.hash !== self.written) self.restore(); });
  }

  /* The view as a fragment; the defaults are left out, so the page's own URL stays bare. */
  ViewState.prototype.encode = function () {
    var t = this.timeline, model = t.model, params = [];
    if (t.left !== model.xMin || t.right !== model.xMax) params.push('range=' + timeText(t.left) + ',' + timeText(t.right));
    if (t.filter) params.push('filter=' + encodeURIComponent(t.filter));
    if (t.order !== 'rank') params.push('order=' + t.order);
    if (t.hoverMode !== 'closest') params.push('hover=' + t.hoverMode);
    var hidden = [];
    t.hidden.forEach(function (h, i) { if (h) hidden.push(i); });
    if (hidden.length) params.push('hidden=' + hidden.join(','));
    /* the groups as far as they differ from how the page opens (a big run grouped and folded) */
    if (t.defaultGrouped && !!t.grouped !== t.defaultGrouped()) params.push('group=' + (t.grouped ? 1 : 0));
    if (t.grouped && t.collapsed) {
      var folds = Array.from(t.collapsed).sort(function (a, b) { return a - b; }).join(',');
      var usual = Array.from(t.defaultFolds()).sort(function (a, b) { return a - b; }).join(',');
      if (folds !== usual) params.push('fold=' + folds);
    }
    var top = t.screen && t.screen.pitch ? Math.round(t.scrollY / t.screen.pitch) : 0;
    if (top > 0) params.push('top=' + top);
    if (t.selectionKey) {
      var key = t.selectionKey();
      if (key) params.push('sel=' + encodeURIComponent(key));
    }
    if (t.measure) params.push('measure=' + timeText(t.measure[0]) + ',' + timeText(t.measure[1]));
    return params.length ? '#' + params.join('&') : '';
  };

  /* Applies a state read from the URL: every part it names, the others back to the page's defaults. */
  ViewState.prototype.apply = function (state) {
    var t = this.timeline, model = t.model;
    this.applying = true;
    try {
      t.order = state.order === 'role' ? 'role' : 'rank';
      t.hoverMode = state.hover === 'all' ? 'all' : 'closest';
      t.hidden.fill(0);
      (state.hidden || []).forEach(function (i) { if (i >= 0 && i < t.hidden.length) t.hidden[i] = 1; });
      t.grouped = state.group !== undefined ? state.group : !!(t.defaultGrouped && t.defaultGrouped());
      t.collapsed = state.fold !== undefined ? new Set(state.fold.filter(function (g) { return g >= 0 && isFinite(g); }))
        : t.defaultFolds ? t.defaultFolds() : new Set();
      t.filter = state.filter || '';
      t.filterInput.value = t.filter;
      t.updateDisplayRows();
      t.refreshButtons();
      var range = state.range ? t.clampRange(state.range[0], state.range[1]) : [model.xMin, model.xMax];
      t.left = range[0];
      t.right = range[1];
      t.updateScroll();
      t.setScroll(state.top > 0 ? state.top * t.screen.pitch : 0, false);
      if (t.restoreSelection) t.restoreSelection(state.sel, state.measure);
      t.hideTooltip();
      t.draw();
    } finally {
      this.applying = false;
    }
    this.written = this.encode();
  };

  /* Back, Forward, or a fragment typed: the view that URL names. */
  ViewState.prototype.restore = function () {
    this.apply(readHash(location.hash));
    if (this.timeline.rangeChanged) this.timeline.rangeChanged(false);
  };

  /* After a draw: a view that changed is written once it settles; a new one is a new history entry, a stream of changes one entry
     (a page whose discrete steps push their own entries, as compare.html's phase rows do, sets replaceOnly: its changes replace). */
  ViewState.prototype.changed = function () {
    if (this.applying) return;
    var self = this;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(function () {
      self.timer = 0;
      self.write(!self.replaceOnly && performance.now() - self.writtenAt >= STREAM_MS);
    }, SETTLE_MS);
  };

  /* Writes the view now if it is not the URL's: as a new history entry (push) or in place of the current one. */
  ViewState.prototype.write = function (push) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = 0;
    var hash = this.encode();
    if (hash === this.written) return;
    var url = location.href.replace(/#.*$/, '') + hash;
    try {
      if (push) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
    } catch (error) {
      return; /* a browser that keeps no history for this page: the view just is not kept */
    }
    this.written = hash;
    this.writtenAt = performance.now();
  };

  /* Writes any view not yet in the URL now (the test hook, and before the page is left). */
  ViewState.prototype.flush = function () {
    if (!this.timer) return;
    this.write(!this.replaceOnly);
  };

  var draw = Timeline.prototype.draw;
  Timeline.prototype.draw = function () {
    var elapsed = draw.call(this);
    if (this.viewState) this.viewState.changed();
    return elapsed;
  };

  ViewState.readHash = readHash;
  ViewState.timeText = timeText;
  parts.ViewState = ViewState;
})();
