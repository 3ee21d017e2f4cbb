/* compare.js: the compare page: both runs' timelines stacked on one x range, and the sortable table of phase changes that zooms both to a phase. */
(function () {
  'use strict';

  var core = window.rliCore;
  var readJson = core.readJson, decodeBars = core.decodeBars, element = core.element;
  var Timeline = window.rliTimelineParts.Timeline;

  /* Room kept around a phase's bars when a row zooms to them, as a share of their span on each side. */
  var PHASE_PAD = 0.02;
  /* Each timeline's stage takes about this share of the window's height, and never less than MIN_STAGE_CSS_PX. */
  var STAGE_SHARE = 0.5;
  var MIN_STAGE_CSS_PX = 200;
  var HEADING_CSS_PX = 70; /* the run's heading and its toolbar, above the stage */

  function stageHeight() {
    return Math.max(MIN_STAGE_CSS_PX, (window.innerHeight || 800) * STAGE_SHARE - HEADING_CSS_PX);
  }

  /* ---- the two runs ---- */

  function Run(index, spec, page) {
    this.index = index;
    this.spec = spec;
    this.section = element('section', 'rli-compare-run');
    this.section.dataset.run = spec.name;
    this.section.appendChild(element('h2', 'rli-compare-heading', spec.heading));
    page.appendChild(this.section);
    this.timeline = null;
    if (spec.note !== null) {
      this.section.appendChild(element('p', 'rli-compare-note', spec.note));
      return;
    }
    this.model = readJson('rli-model-' + index);
    this.bars = decodeBars(readJson('rli-bars-' + index), this.model.rows.length);
  }

  Run.prototype.start = function (xMin, xMax, onRange, margins, keys) {
    if (!this.model) return;
    /* both runs on one axis: each from its own t = 0, as far as the longer run goes */
    this.model.xMin = xMin;
    this.model.xMax = xMax;
    this.timeline = new Timeline(this.model, this.bars, {
      container: this.section, tall: stageHeight, keys: keys, summary: false, onRange: onRange, margins: margins
    });
  };

  /* Display rows of the phase's role (and rank: null for every rank). */
  Run.prototype.rowsOf = function (role, rank) {
    var model = this.model, rows = [];
    if (!this.timeline) return rows;
    this.timeline.displayRows.forEach(function (row, position) {
      var info = model.rows[row];
      if (info.role === role && (rank === null || info.rank === rank)) rows.push({ row: row, position: position });
    });
    return rows;
  };

  /* [first start, last end] of the phase's bars on those rows, or null when the run has none. */
  Run.prototype.spanOf = function (role, name, rank) {
    if (!this.timeline) return null;
    var bars = this.bars, series = -1, lo = Infinity, hi = -Infinity;
    this.model.series.forEach(function (s, index) { if (s.name === name) series = index; });
    if (series < 0) return null;
    this.rowsOf(role, rank).forEach(function (entry) {
      bars.rowRuns[entry.row].forEach(function (run) {
        if (bars.runSeries[run] !== series) return;
        var first = bars.runFirst[run], last = bars.runFirst[run + 1] - 1;
        if (last < first) return;
        /* a run is sorted by start; maxEnd holds the latest end so far */
        if (bars.start[first] < lo) lo = bars.start[first];
        if (bars.maxEnd[last] > hi) hi = bars.maxEnd[last];
      });
    });
    return lo <= hi ? [lo, hi] : null;
  };

  /* Scrolls so the phase's rows are in view: the first at the top unless they all show already. */
  Run.prototype.revealRows = function (role, rank) {
    var timeline = this.timeline;
    if (!timeline) return;
    var rows = this.rowsOf(role, rank);
    if (!rows.length) return;
    var g = timeline.screen, first = rows[0].position, last = rows[rows.length - 1].position;
    var top = first * g.pitch, bottom = (last + 1) * g.pitch;
    if (top >= timeline.scrollY && bottom <= timeline.scrollY + g.plot[3]) return;
    timeline.setScroll(top, false);
  };

  /* ---- the table of changes ---- */

  function Table(spec, page, onPick) {
    var self = this;
    this.spec = spec;
    this.sortColumn = -1;  /* -1: the layout's order (regressions first) */
    this.descending = false;
    this.table = element('table', 'rli-compare-table');
    var head = element('thead'), headRow = element('tr');
    this.headers = spec.header.map(function (text, column) {
      var th = element('th', spec.align[column] === 'end' ? 'rli-num' : null, text);
      th.tabIndex = 0;
      th.title = 'Click to sort by ' + text;
      th.addEventListener('click', function () { self.sortBy(column); });
      th.addEventListener('keydown', function (event) {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); self.sortBy(column); }
      });
      headRow.appendChild(th);
      return th;
    });
    head.appendChild(headRow);
    this.table.appendChild(head);
    this.body = element('tbody');
    this.rows = spec.rows.map(function (row, index) {
      var tr = element('tr', 'rli-verdict-' + row.verdict.replace(/ /g, '-'));
      tr.dataset.index = String(index);
      tr.tabIndex = 0;
      tr.title = 'Click to show ' + row.phase + ' in both timelines';
      row.cells.forEach(function (text, column) {
        var td = element('td', spec.align[column] === 'end' ? 'rli-num' : null, text);
        if (row.verdict === 'regression' || row.verdict === 'improvement') td.style.color = row.color;
        tr.appendChild(td);
      });
      tr.addEventListener('click', function () { onPick(index); });
      tr.addEventListener('keydown', function (event) {
        if (event.key === 'Enter') onPick(index);
      });
      return tr;
    });
    this.order = this.rows.map(function (_, index) { return index; });
    this.render();
    var caption = element('caption', null, 'Phase changes: ' + spec.rows.length + ' rows. Click a header to sort, a row to show the phase in both timelines.');
    this.table.insertBefore(caption, head);
    this.table.appendChild(this.body);
    page.appendChild(this.table);
  }

  /* Sorts by a column: ascending first, a second click descending; unknown values ("—") last either way. */
  Table.prototype.sortBy = function (column) {
    var rows = this.spec.rows;
    this.descending = this.sortColumn === column ? !this.descending : false;
    this.sortColumn = column;
    var sign = this.descending ? -1 : 1;
    this.order.sort(function (a, b) {
      var x = rows[a], y = rows[b];
      var kx = x.keys[column], ky = y.keys[column], order;
      if (kx !== null || ky !== null) {
        if (kx === null) return 1;
        if (ky === null) return -1;
        order = kx < ky ? -1 : kx > ky ? 1 : 0;
      } else {
        var mx = x.cells[column] === '\u2014', my = y.cells[column] === '\u2014';
        if (mx !== my) return mx ? 1 : -1;
        order = x.cells[column] < y.cells[column] ? -1 : x.cells[column] > y.cells[column] ? 1 : 0;
      }
      /* ties keep the layout's order */
      return order ? sign * order : a - b;
    });
    this.render();
  };

  Table.prototype.render = function () {
    var self = this;
    while (this.body.firstChild) this.body.removeChild(this.body.firstChild);
    this.order.forEach(function (index) { self.body.appendChild(self.rows[index]); });
    this.headers.forEach(function (th, column) {
      if (column === self.sortColumn) th.setAttribute('aria-sort', self.descending ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    });
  };

  Table.prototype.mark = function (index) {
    this.rows.forEach(function (tr, i) { tr.classList.toggle('rli-picked', i === index); });
  };

  /* ---- start ---- */

  function start() {
    var spec = readJson('rli-compare');
    document.body.style.fontFamily = core.cssFontFamily(spec.fontFamily);
    var page = element('main', 'rli-compare');
    page.appendChild(element('h1', 'rli-compare-title', spec.title));
    document.body.appendChild(page);
    var runs = spec.runs.map(function (run, index) { return new Run(index, run, page); });
    var drawn = runs.filter(function (run) { return run.model; });
    var xMin = 0, xMax = 0;
    drawn.forEach(function (run) {
      xMin = Math.min(xMin, run.model.xMin);
      xMax = Math.max(xMax, run.model.xMax);
    });
    if (!(xMax > xMin)) xMax = xMin + 1;

    /*
     * What the reader does to one timeline's x range, the other follows; both
     * plots take the wider of their margins, so a time sits at one x in both.
     */
    var ownMargins = drawn.map(function () { return [0, 0]; });
    function widest(n) {
      return function (left, right) {
        ownMargins[n] = [left, right];
        return [Math.max.apply(null, ownMargins.map(function (m) { return m[0]; })),
                Math.max.apply(null, ownMargins.map(function (m) { return m[1]; }))];
      };
    }
    drawn.forEach(function (run, n) {
      run.start(xMin, xMax, function (left, right, later) {
        drawn.forEach(function (other) { if (other !== run) other.timeline.follow(left, right, later); });
      }, widest(n), n === 0);
    });
    /* each laid out again once both know the other's margins; and after each window resize */
    function relayout() {
      drawn.forEach(function (run) { run.timeline.resize(); });
      drawn.forEach(function (run) { run.timeline.draw(); });
    }
    relayout();
    window.addEventListener('resize', relayout);

    function pick(index) {
      var row = spec.table.rows[index];
      var lo = Infinity, hi = -Infinity;
      runs.forEach(function (run) {
        var span = run.spanOf(row.role, row.phase, row.rank);
        if (!span) return;
        lo = Math.min(lo, span[0]);
        hi = Math.max(hi, span[1]);
      });
      table.mark(index);
      if (!(hi >= lo) || !drawn.length) return null;
      var pad = Math.max(hi - lo, 1e-3) * PHASE_PAD;
      drawn[0].timeline.zoomTo(lo - pad, hi + pad);
      runs.forEach(function (run) { run.revealRows(row.role, row.rank); });
      drawn[0].section.scrollIntoView({ block: 'start' });
      return [lo, hi];
    }
    var table = new Table(spec.table, page, pick);

    /* the test hook */
    window.rliCompare = {
      runs: runs.map(function (run) { return run.timeline; }),
      state: function () {
        return {
          ranges: runs.map(function (run) { return run.timeline ? [run.timeline.left, run.timeline.right] : null; }),
          scroll: runs.map(function (run) { return run.timeline ? run.timeline.scrollY : null; }),
          drawnBars: runs.map(function (run) { return run.timeline ? run.timeline.drawnBars : null; }),
          notes: runs.map(function (run) { return run.spec.note; }),
          order: table.order.slice(),
          sortColumn: table.sortColumn, descending: table.descending
        };
      },
      /* positions of the rows of a role (and rank, null: all), in each run's display */
      rowsOf: function (role, rank) {
        return runs.map(function (run) { return run.rowsOf(role, rank).map(function (e) { return e.position; }); });
      },
      visibleRows: function (n) {
        var timeline = runs[n].timeline, g = timeline.screen;
        var first = Math.ceil(timeline.scrollY / g.pitch - 1e-6), last = Math.floor((timeline.scrollY + g.plot[3]) / g.pitch + 1e-6) - 1;
        return [first, last];
      },
      pick: pick
    };
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
