/* compare_sync.js: the compare page's two timelines kept in step: row scrolling, filter, row order, hidden names and the selected bar; keys on each chart. */
(function () {
  'use strict';

  var core = window.rliCore;

  /* ---- bars by (role, rank, phase, step) ---- */

  /* The bars of series `series` on model row `row`, in time order: step k is the k-th (1-based). */
  function barsOf(timeline, row, series) {
    var bars = timeline.bars, list = [];
    bars.rowRuns[row].forEach(function (run) {
      if (bars.runSeries[run] !== series) return;
      for (var i = bars.runFirst[run]; i < bars.runFirst[run + 1]; i++) list.push(i);
    });
    return list;
  }

  function seriesNamed(timeline, name) {
    var found = -1;
    timeline.model.series.forEach(function (s, index) { if (s.name === name && found < 0) found = index; });
    return found;
  }

  function rowOf(timeline, role, rank) {
    var rows = timeline.model.rows;
    for (var r = 0; r < rows.length; r++) if (rows[r].role === role && rows[r].rank === rank) return r;
    return -1;
  }

  /* What a bar is, in words both runs share: {role, rank, phase, step}. */
  function barKey(timeline, row, index) {
    var info = timeline.model.rows[row], series = timeline.seriesOfBar(row, index);
    if (series < 0) return null;
    return { role: info.role, rank: info.rank, phase: timeline.model.series[series].name,
      step: barsOf(timeline, row, series).indexOf(index) + 1 };
  }

  /* The same bar on another timeline: {row, index}, or null when that run has no such bar. */
  function findBar(timeline, key) {
    if (!key) return null;
    var row = rowOf(timeline, key.role, key.rank), series = seriesNamed(timeline, key.phase);
    if (row < 0 || series < 0) return null;
    var list = barsOf(timeline, row, series);
    return key.step >= 1 && key.step <= list.length ? { row: row, index: list[key.step - 1] } : null;
  }

  /* ---- rows in step ---- */

  /* The row at the top of the view as (role, rank) and how far into it the view is, in rows. */
  function topRow(timeline) {
    var g = timeline.screen, at = timeline.scrollY / g.pitch, position = Math.floor(at + 1e-6);
    var row = timeline.displayRows[position];
    if (row === undefined) return null;
    return { role: timeline.model.rows[row].role, rank: timeline.model.rows[row].rank, into: Math.max(0, at - position),
      position: position };
  }

  /*
   * Keeps a set of timelines together: what the reader does to the rows of one (scroll, filter,
   * order, hide a name, select a bar) the others do too. A row scrolled to the top on one is
   * scrolled to the top on the others when they have it (its role and rank), else the others go
   * to the same position.
   */
  function Sync(timelines) {
    this.timelines = timelines;
    this.busy = false;
    var self = this;
    timelines.forEach(function (t) { self.bind(t); });
  }

  /* Runs change(other) on every other timeline, once: the others' own changes are not passed on again. */
  Sync.prototype.others = function (from, change) {
    if (this.busy) return;
    this.busy = true;
    try {
      this.timelines.forEach(function (t) { if (t !== from) change(t); });
    } finally {
      this.busy = false;
    }
  };

  Sync.prototype.bind = function (t) {
    var self = this;
    var setScroll = t.setScroll, setFilter = t.setFilter, setOrder = t.setOrder, toggleSeries = t.toggleSeries;
    var select = t.select;

    t.setScroll = function (top, later) {
      var result = setScroll.call(this, top, later);
      var me = this;
      self.others(me, function (other) { self.scrollLike(other, me, later); });
      return result;
    };
    t.setFilter = function (text) {
      setFilter.call(this, text);
      var value = this.filter;
      self.others(this, function (other) { if (other.filter !== value) other.setFilter(value); });
    };
    t.setOrder = function (order) {
      setOrder.call(this, order);
      var value = this.order;
      self.others(this, function (other) { if (other.order !== value) other.setOrder(value); });
    };
    t.toggleSeries = function (index) {
      toggleSeries.call(this, index);
      var name = this.model.series[index] && this.model.series[index].name, hidden = !!this.hidden[index];
      self.others(this, function (other) {
        var s = seriesNamed(other, name);
        if (s >= 0 && !!other.hidden[s] !== hidden) other.toggleSeries(s);
      });
    };
    t.select = function (row, index) {
      select.call(this, row, index);
      var key = this.selected ? barKey(this, this.selected.row, this.selected.index) : null;
      self.others(this, function (other) { self.selectLike(other, key); });
    };
    ['setHoverMode', 'setDragMode'].forEach(function (name) {
      var own = t[name];
      t[name] = function (mode) {
        own.call(this, mode);
        self.others(this, function (other) { other[name](mode); });
      };
    });
  };

  /* other shows at its top the row `from` shows at its top (or the same position when it lacks it). */
  Sync.prototype.scrollLike = function (other, from, later) {
    var top = topRow(from), g = other.screen;
    if (!top || !g) return;
    var position = -1;
    other.displayRows.forEach(function (row, p) {
      var info = other.model.rows[row];
      if (position < 0 && info.role === top.role && info.rank === top.rank) position = p;
    });
    if (position < 0) position = top.position;
    other.setScroll((position + top.into) * g.pitch, later);
  };

  /* The same (role, rank, phase, step) selected on other, or its selection cleared when it has none. */
  Sync.prototype.selectLike = function (other, key) {
    var found = findBar(other, key);
    if (found) {
      other.select(found.row, found.index);
      var position = other.displayRows.indexOf(found.row);
      if (position >= 0) other.revealRow(position);
    } else if (other.selected) {
      other.select(-1, -1);
    }
  };

  /*
   * Each card also says how long the same bar (role, rank, phase, step) took in the other run,
   * and the change from the baseline's: what a reader compares the two runs for.
   */
  Sync.prototype.bindCards = function (names) {
    var self = this;
    this.timelines.forEach(function (t, n) {
      if (!t.selection) return;
      var fill = t.selection.fill;
      t.selection.fill = function (row, index) {
        fill.call(this, row, index);
        var key = barKey(t, row, index), lines = [];
        self.timelines.forEach(function (other, m) {
          if (other === t) return;
          var found = findBar(other, key), bars = other.bars;
          var mine = t.bars.end[index] - t.bars.start[index];
          if (!found) {
            lines.push(names[m] + ': no such bar');
            return;
          }
          var theirs = bars.end[found.index] - bars.start[found.index];
          /* the change is this run's over the baseline's, whichever card says it */
          var base = n < m ? mine : theirs, now = n < m ? theirs : mine;
          var change = base > 0 ? ' (' + (n < m ? '' : 'this run ') + (now >= base ? '+' : '\u2212') +
            core.fmtThousands(Math.abs(now / base - 1) * 100, 1) + '%)' : '';
          lines.push(names[m] + ': ' + core.fmtDuration(theirs) + change);
        });
        var table = this.cardBody.querySelector('.rli-fields');
        lines.forEach(function (text) {
          var at = text.indexOf(': '), tr = core.element('tr', 'rli-compare-other');
          tr.appendChild(core.element('th', null, 'In the ' + text.slice(0, at)));
          tr.appendChild(core.element('td', null, text.slice(at + 2)));
          if (table) table.appendChild(tr);
        });
      };
    });
  };

  /* Clearing one selection (Escape, the card's ×) clears them all. */
  Sync.prototype.clearAll = function () {
    var any = false;
    this.busy = true;
    try {
      this.timelines.forEach(function (t) { if (t.selection && t.selection.clear()) any = true; });
    } finally {
      this.busy = false;
    }
    return any;
  };

  /*
   * Keys where the focus is: on a chart (Tab or a click gives it focus), not the window, so a
   * focused button, box or table row keeps its own. The range follows on the other chart. Escape
   * clears the selected bars, else what onEscape() clears (the page's outlined phase).
   */
  Sync.prototype.bindKeys = function (t) {
    var self = this;
    t.canvas.tabIndex = 0;
    t.canvas.addEventListener('keydown', function (event) {
      var span = t.right - t.left, g = t.screen, handled = true;
      if (event.key === 'ArrowLeft') t.zoomTo(t.left - span * 0.1, t.right - span * 0.1);
      else if (event.key === 'ArrowRight') t.zoomTo(t.left + span * 0.1, t.right + span * 0.1);
      else if (event.key === '+' || event.key === '=') t.zoomTo(t.left + span * 0.1, t.right - span * 0.1);
      else if (event.key === '-') t.zoomTo(t.left - span * 0.125, t.right + span * 0.125);
      else if (event.key === '0' || event.key === 'Home') t.reset();
      else if (event.key === 'Escape') handled = self.clearAll() || (self.onEscape ? self.onEscape() : false);
      else if (event.key === 'ArrowUp' || event.key === 'ArrowDown') t.setScroll(t.scrollY + (event.key === 'ArrowUp' ? -g.pitch : g.pitch), true);
      else if (event.key === 'PageUp' || event.key === 'PageDown')
        t.setScroll(t.scrollY + (event.key === 'PageUp' ? -1 : 1) * Math.max(g.pitch, g.plot[3] - g.pitch), true);
      else handled = false;
      if (handled) event.preventDefault();
    });
    /* the details card's × clears both; Escape inside the card too */
    if (t.selection) {
      var clear = t.selection.clear;
      t.selection.clear = function () {
        if (self.busy) return clear.call(this);
        return self.clearAll();
      };
      t.selection.card.addEventListener('keydown', function (event) {
        if (event.key === 'Escape' && self.clearAll()) { event.preventDefault(); t.canvas.focus({ preventScroll: true }); }
      });
    }
  };

  window.rliCompareSync = { Sync: Sync, barsOf: barsOf, barKey: barKey, findBar: findBar, seriesNamed: seriesNamed };
})();
