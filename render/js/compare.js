/* compare.js: the compare page: both runs' timelines stacked on one x range and kept in step (compare_sync.js), the sortable table of phase changes whose rows zoom both to a phase's step, the memory part (compare_memory.js). */
(function () {
  'use strict';

  var core = window.rliCore;
  var readJson = core.readJson, decodeBars = core.decodeBars, element = core.element;
  var Timeline = window.rliTimelineParts.Timeline;

  var Sync = window.rliCompareSync;

  /* Room kept around a phase's bars when a row zooms to them, as a share of their span on each side. */
  var PHASE_PAD = 0.02;
  /* A timeline's stage never gets less than this, however short the window. */
  var MIN_STAGE_CSS_PX = 200;
  /* Rows a little tighter than the single timeline's: the pitch at most this many times the row label's size. */
  var PITCH_PER_LABEL = 2.4;
  var HIGHLIGHT_COLOR = '#1b1f27';

  /* ---- the two runs ---- */

  function Run(index, spec, page) {
    this.index = index;
    this.spec = spec;
    this.timeline = null;
    this.highlight = null;
    /* a comparison of memory records only: no panel for the run */
    if (!spec.timeline && spec.note === null) {
      this.section = null;
      return;
    }
    this.section = element('section', 'rli-compare-run');
    this.section.dataset.run = spec.name;
    this.heading = element('h2', 'rli-compare-heading', spec.heading);
    this.section.appendChild(this.heading);
    page.appendChild(this.section);
    this.timeline = null;
    this.highlight = null;
    if (spec.note !== null) {
      this.section.appendChild(element('p', 'rli-compare-note', spec.note));
      return;
    }
    this.model = readJson('rli-model-' + index);
    this.bars = decodeBars(readJson('rli-bars-' + index), this.model.rows.length);
  }

  Run.prototype.start = function (xMin, xMax, onRange, margins, tall) {
    if (!this.model) return;
    var self = this, model = this.model;
    /* both runs on one axis: each from its own t = 0, as far as the longer run goes */
    model.xMin = xMin;
    model.xMax = xMax;
    /* the chart's title (its t = 0) goes into the run's heading: the stage keeps its height for rows */
    if (model.title && model.title.text) {
      this.heading.appendChild(element('span', 'rli-compare-origin', model.title.text));
      this.heading.title = this.spec.heading + ': ' + model.title.text;
    }
    var t = new Timeline(model, this.bars, {
      container: this.section, tall: tall, keys: false, summary: false, onRange: onRange, margins: margins
    });
    this.timeline = t;
    t.selection = new window.rliTimelineParts.Selection(t);
    var windowGeometry = t.windowGeometry, untitled = {};
    for (var key in model.title) untitled[key] = model.title[key];
    untitled.text = '';
    /* the window's geometry without the title and with rows as tight as their labels allow; Export PNG keeps the model's */
    t.windowGeometry = function (available, height) {
      var title = model.title, pitch = model.rowPitch, thickness = model.barThickness;
      var label = model.rowLabels.length ? model.rowLabels[0].size : 0;
      if (label > 0 && pitch > label * PITCH_PER_LABEL) {
        model.rowPitch = label * PITCH_PER_LABEL;
        model.barThickness = thickness * model.rowPitch / pitch;
      }
      model.title = untitled;
      try {
        return windowGeometry.call(this, available, height);
      } finally {
        model.title = title;
        model.rowPitch = pitch;
        model.barThickness = thickness;
      }
    };
    var draw = t.draw;
    t.draw = function () {
      var elapsed = draw.call(this);
      self.paintHighlight();
      return elapsed;
    };
  };

  /* Model rows of a role (and rank: null for every rank), whether shown or not. */
  Run.prototype.modelRowsOf = function (role, rank) {
    var rows = [];
    if (!this.model) return rows;
    this.model.rows.forEach(function (info, row) {
      if (info.role === role && (rank === null || info.rank === rank)) rows.push(row);
    });
    return rows;
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

  /*
   * The phase's steps on the rows of a role (and rank): steps[k - 1] lists step k's bars, the k-th
   * bar of the phase on each row. Empty when the run has no such bar.
   */
  Run.prototype.stepsOf = function (role, name, rank) {
    var steps = [];
    if (!this.timeline) return steps;
    var series = Sync.seriesNamed(this.timeline, name), timeline = this.timeline;
    if (series < 0) return steps;
    this.modelRowsOf(role, rank).forEach(function (row) {
      Sync.barsOf(timeline, row, series).forEach(function (index, k) {
        if (!steps[k]) steps[k] = [];
        steps[k].push({ row: row, index: index });
      });
    });
    return steps;
  };

  /* [first start, last end] of some bars. */
  Run.prototype.spanOfBars = function (list) {
    var bars = this.bars, lo = Infinity, hi = -Infinity;
    list.forEach(function (bar) {
      if (bars.start[bar.index] < lo) lo = bars.start[bar.index];
      if (bars.end[bar.index] > hi) hi = bars.end[bar.index];
    });
    return lo <= hi ? [lo, hi] : null;
  };

  /* The median length of some bars. */
  Run.prototype.medianOf = function (list) {
    var bars = this.bars, lengths = list.map(function (bar) { return bars.end[bar.index] - bars.start[bar.index]; });
    lengths.sort(function (a, b) { return a - b; });
    var n = lengths.length;
    return n ? (n % 2 ? lengths[(n - 1) / 2] : (lengths[n / 2 - 1] + lengths[n / 2]) / 2) : NaN;
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

  /* The picked phase's bars outlined over the chart, where they are in view. */
  Run.prototype.paintHighlight = function () {
    var t = this.timeline, h = this.highlight;
    this.highlightDrawn = 0;
    if (!t || !h) return;
    if (h.rows !== t.displayRows) this.refreshHighlight();
    var g = t.screen, plot = g.plot, ctx = t.canvas.getContext('2d'), scale = t.deviceScale, bars = this.bars;
    var span = t.right - t.left, half = Math.max(3, g.barThickness / 2 + 2), self = this;
    ctx.save();
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.beginPath();
    ctx.rect(plot[0], plot[1], plot[2], plot[3]);
    ctx.clip();
    ctx.strokeStyle = HIGHLIGHT_COLOR;
    ctx.lineWidth = 2;
    h.bars.forEach(function (bar) {
      var position = h.positions.get(bar.row);
      if (position === undefined) return;
      var y = g.rowsTop + (position + 0.5) * g.pitch;
      if (y + half < plot[1] || y - half > plot[1] + plot[3]) return;
      var x0 = plot[0] + (bars.start[bar.index] - t.left) / span * plot[2];
      var x1 = plot[0] + (bars.end[bar.index] - t.left) / span * plot[2];
      if (x1 < plot[0] || x0 > plot[0] + plot[2]) return;
      ctx.strokeRect(x0 - 2, y - half, Math.max(2, x1 - x0) + 4, 2 * half);
      self.highlightDrawn++;
    });
    ctx.restore();
  };

  /* Outlines these bars (null: none) from the next draw on. */
  Run.prototype.setHighlight = function (list) {
    if (!this.timeline) return;
    this.highlight = list && list.length ? { bars: list, positions: null } : null;
    this.refreshHighlight();
  };

  /* Where the outlined bars' rows are shown now (the filter and the order move them). */
  Run.prototype.refreshHighlight = function () {
    var h = this.highlight;
    if (!h) return;
    h.positions = new Map();
    h.rows = this.timeline.displayRows;
    h.rows.forEach(function (row, position) { h.positions.set(row, position); });
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

  /* ---- the phase a table row names: its step, zoomed to and outlined on both ---- */

  /*
   * The step of a table row's phase to show: the one whose median (over the row's ranks) changed
   * most between the runs, in the direction of the row's verdict (the largest slowdown for a
   * regression, the largest gain for an improvement, else the largest either way); the first
   * step when only one run has the bars. {step, change (ms, NaN unknown), steps: per run}.
   */
  function chooseStep(runs, row) {
    var steps = runs.map(function (run) { return run.stepsOf(row.role, row.phase, row.rank); });
    var both = runs.length === 2 && steps[0].length && steps[1].length;
    var best = 1, change = NaN;
    if (both) {
      var score = -Infinity, n = Math.min(steps[0].length, steps[1].length);
      for (var k = 0; k < n; k++) {
        var delta = runs[1].medianOf(steps[1][k]) - runs[0].medianOf(steps[0][k]);
        var s = row.verdict === 'regression' ? delta : row.verdict === 'improvement' ? -delta : Math.abs(delta);
        if (s > score) { score = s; best = k + 1; change = delta; }
      }
    }
    return { step: best, change: change, steps: steps };
  }

  /* ---- the shared view in the URL ---- */

  /* A key's raw text in a fragment (#a=1&b=x,y): for values whose parts are each percent-encoded. */
  function rawParam(hash, key) {
    var found = null;
    String(hash || '').replace(/^#/, '').split('&').forEach(function (part) {
      if (found === null && part.slice(0, key.length + 1) === key + '=') found = part.slice(key.length + 1);
    });
    return found;
  }
  function decodeList(text) {
    return text === null || text === '' ? [] : text.split(',').map(function (part) {
      try { return decodeURIComponent(part); } catch (error) { return ''; }
    });
  }

  /*
   * The view both runs share, kept in the URL with the timeline page's encoding (timeline_state.js:
   * range to the nanosecond, filter, order, top) plus what a comparison names across runs: hidden
   * phases by name, the selected bar as (role, rank, phase, step), the outlined phase row. Changes
   * replace the current history entry; a phase row click is a new one (pushed by the page), so
   * Back undoes it.
   */
  function CompareState(timelines, page) {
    var ViewState = window.rliTimelineParts.ViewState;
    ViewState.call(this, timelines[0]);
    this.timelines = timelines;
    this.page = page;
    this.replaceOnly = true;
    var self = this;
    timelines.forEach(function (t) { t.viewState = self; });
  }
  CompareState.prototype = Object.create(window.rliTimelineParts.ViewState.prototype);

  CompareState.prototype.encode = function () {
    var t = this.timelines[0], model = t.model, page = this.page, params = [];
    var timeText = window.rliTimelineParts.ViewState.timeText;
    if (t.left !== model.xMin || t.right !== model.xMax) params.push('range=' + timeText(t.left) + ',' + timeText(t.right));
    if (t.filter) params.push('filter=' + encodeURIComponent(t.filter));
    if (t.order !== 'rank') params.push('order=' + t.order);
    var hidden = [];
    this.timelines.forEach(function (other) {
      other.model.series.forEach(function (s, i) { if (other.hidden[i] && hidden.indexOf(s.name) < 0) hidden.push(s.name); });
    });
    if (hidden.length) params.push('hide=' + hidden.map(encodeURIComponent).join(','));
    var top = t.screen && t.screen.pitch ? Math.round(t.scrollY / t.screen.pitch) : 0;
    if (top > 0) params.push('top=' + top);
    var key = null;
    this.timelines.forEach(function (other) {
      if (!key && other.selected) key = Sync.barKey(other, other.selected.row, other.selected.index);
    });
    if (key) params.push('sel=' + [key.role, key.rank === null ? '' : key.rank, key.phase, key.step].map(function (v) {
      return encodeURIComponent(String(v));
    }).join(','));
    var picked = page.picked();
    if (picked) params.push('phase=' + picked.index);
    return params.length ? '#' + params.join('&') : '';
  };

  /* The view a URL names: every part it names, the others back to how the page opens. */
  CompareState.prototype.restore = function () {
    var hash = location.hash, state = window.rliTimelineParts.ViewState.readHash(hash);
    var sel = decodeList(rawParam(hash, 'sel')), phase = rawParam(hash, 'phase');
    state.hide = decodeList(rawParam(hash, 'hide'));
    state.sel = sel.length === 4 ? { role: sel[0], rank: sel[1] === '' ? null : sel[1], phase: sel[2], step: Number(sel[3]) } : null;
    state.phase = phase !== null && /^\d+$/.test(phase) ? Number(phase) : -1;
    this.apply(state);
  };

  CompareState.prototype.apply = function (state) {
    var timelines = this.timelines, first = timelines[0], model = first.model, page = this.page;
    this.applying = true;
    try {
      var order = state.order === 'role' ? 'role' : 'rank', filter = state.filter || '';
      if (first.order !== order) first.setOrder(order);
      if (first.filter !== filter) first.setFilter(filter);
      var hide = state.hide || [];
      timelines.forEach(function (t) {
        t.model.series.forEach(function (s, i) { if (!!t.hidden[i] !== (hide.indexOf(s.name) >= 0)) t.toggleSeries(i); });
      });
      if (state.phase >= 0) page.pick(state.phase);
      else page.unpick();
      var range = state.range || [model.xMin, model.xMax];
      first.zoomTo(range[0], range[1]);
      var found = null;
      timelines.forEach(function (t) {
        var bar = !found && Sync.findBar(t, state.sel);
        if (bar) found = { timeline: t, bar: bar };
      });
      if (found) found.timeline.select(found.bar.row, found.bar.index);
      else page.clearSelection();
      first.setScroll(state.top > 0 ? state.top * first.screen.pitch : 0, false);
      timelines.forEach(function (t) { t.hideTooltip(); t.draw(); });
    } finally {
      this.applying = false;
    }
    this.written = this.encode();
  };

  /* How tall each timeline's stage may be: the window shared between them, under the page's title. */
  function stageRooms(page, runs) {
    return function () {
      var drawn = runs.filter(function (run) { return run.timeline; }), fixed = 0;
      var top = page.getBoundingClientRect().top + (window.scrollY || 0);
      fixed += page.firstChild ? page.firstChild.offsetHeight + 10 : 0;
      if (page.status) fixed += page.status.offsetHeight;
      runs.forEach(function (run) {
        if (!run.section) return;
        if (!run.timeline) { fixed += run.section.offsetHeight; return; }
        fixed += run.timeline.stage.getBoundingClientRect().top - run.section.getBoundingClientRect().top + 14;
      });
      var room = (window.innerHeight || 800) - fixed - Math.max(0, top);
      return Math.max(MIN_STAGE_CSS_PX, room / Math.max(1, drawn.length));
    };
  }

  function start() {
    var spec = readJson('rli-compare');
    document.body.style.fontFamily = core.cssFontFamily(spec.fontFamily);
    var page = element('main', 'rli-compare');
    page.appendChild(element('h1', 'rli-compare-title', spec.title));
    page.status = element('p', 'rli-compare-status');
    page.status.setAttribute('role', 'status');
    page.appendChild(page.status);
    document.body.appendChild(page);
    var runs = spec.runs.map(function (run, index) { return new Run(index, run, page); });
    var drawn = runs.filter(function (run) { return run.model; });
    if (!drawn.length) page.status.style.display = 'none';
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
    var tall = stageRooms(page, runs);
    drawn.forEach(function (run, n) {
      run.start(xMin, xMax, function (left, right, later) {
        drawn.forEach(function (other) { if (other !== run) other.timeline.follow(left, right, later); });
      }, widest(n), tall);
    });
    var timelines = drawn.map(function (run) { return run.timeline; });
    var sync = new Sync.Sync(timelines);
    timelines.forEach(function (t) { sync.bindKeys(t); });
    sync.bindCards(drawn.map(function (run) { return run.spec.name === 'baseline' ? 'baseline' : 'current run'; }));
    /* one toolbar drives both: the first run's; the others' export stays, beside it */
    drawn.forEach(function (run, n) {
      if (n === 0) return;
      run.section.classList.add('rli-compare-follower');
      var button = element('button', null, 'Export PNG (' + run.spec.name + ')');
      button.type = 'button';
      button.dataset.action = 'export-png-' + run.spec.name;
      button.addEventListener('click', function () { run.timeline.exportPng(); });
      drawn[0].timeline.buttons['export-png'].parentNode.appendChild(button);
      drawn[0].timeline.buttons['export-png'].textContent = 'Export PNG (' + drawn[0].spec.name + ')';
    });
    if (drawn.length > 1) drawn[0].timeline.filterInput.setAttribute('aria-label', 'Filter the rows of both runs');
    /* each laid out again once both know the other's margins; and after each window resize */
    function relayout() {
      drawn.forEach(function (run) { run.timeline.resize(); });
      drawn.forEach(function (run) { run.timeline.draw(); });
    }
    relayout();
    window.addEventListener('resize', relayout);

    var memorySpec = spec.memory && window.rliCompareMemory ? spec.memory : null;
    var picked = null;

    function pick(index) {
      var row = spec.table.rows[index];
      if (!row) return null;
      var chosen = chooseStep(runs, row), lo = Infinity, hi = -Infinity;
      runs.forEach(function (run, r) {
        var list = chosen.steps[r][chosen.step - 1] || [];
        run.setHighlight(run.stepsOf(row.role, row.phase, row.rank).reduce(function (all, step) { return all.concat(step); }, []));
        var span = run.spanOfBars(list);
        if (!span) return;
        lo = Math.min(lo, span[0]);
        hi = Math.max(hi, span[1]);
      });
      table.mark(index);
      picked = { index: index, step: chosen.step, change: chosen.change };
      var where = row.rank === null ? 'every rank' : 'rank ' + row.rank;
      page.status.textContent = 'Phase ' + row.phase + ' of ' + row.role + ' on ' + where + ', step ' + chosen.step +
        (isNaN(chosen.change) ? ' (the first: the change per step is not known)' :
          ' (its median changed most there: ' + (chosen.change >= 0 ? '+' : '\u2212') + core.fmtDuration(Math.abs(chosen.change)) + ')') +
        ': its bars are outlined in both timelines.';
      if (!(hi >= lo) || !drawn.length) {
        drawn.forEach(function (run) { run.timeline.draw(); });
        return null;
      }
      var pad = Math.max(hi - lo, 1e-3) * PHASE_PAD;
      drawn[0].timeline.zoomTo(lo - pad, hi + pad);
      runs.forEach(function (run) { run.revealRows(row.role, row.rank); });
      drawn.forEach(function (run) { run.timeline.draw(); });
      page.scrollIntoView({ block: 'start' });
      return [lo, hi];
    }
    /* Escape on a chart with no bar selected, on a table row, or with nothing focused: the outlined phase goes */
    function unpick() {
      if (!picked) return false;
      picked = null;
      page.status.textContent = '';
      if (table) table.mark(-1);
      runs.forEach(function (run) { run.setHighlight(null); });
      drawn.forEach(function (run) { run.timeline.draw(); });
      return true;
    }
    sync.onEscape = unpick;
    document.addEventListener('keydown', function (event) {
      if (event.key !== 'Escape') return;
      var target = event.target;
      if (target === document.body || target === document.documentElement) {
        if (sync.clearAll() || unpick()) event.preventDefault();
      } else if (target.closest && target.closest('.rli-compare-table') && unpick()) {
        event.preventDefault();
      }
    });
    /* a phase row clicked is a step of its own: the view before it stays in the history, for Back */
    function pickStep(index) {
      if (viewState) viewState.write(false);
      pick(index);
      if (viewState) viewState.write(true);
    }
    var table = spec.table.rows.length || !memorySpec ? new Table(spec.table, page, pickStep) : null;
    /* the memory side of the comparison, when both runs have one: under the phases */
    var memory = memorySpec ? new window.rliCompareMemory(memorySpec, page) : null;

    /* the shared view the URL names (a reload, Back, a link), kept there as it changes */
    var viewState = timelines.length ? new CompareState(timelines, {
      pick: pick, unpick: unpick, picked: function () { return picked; },
      clearSelection: function () { sync.clearAll(); }
    }) : null;
    if (viewState && location.hash.length > 1) viewState.restore();

    /* the test hook */
    window.rliCompare = {
      runs: runs.map(function (run) { return run.timeline; }),
      memory: memory,
      state: function () {
        return {
          ranges: runs.map(function (run) { return run.timeline ? [run.timeline.left, run.timeline.right] : null; }),
          scroll: runs.map(function (run) { return run.timeline ? run.timeline.scrollY : null; }),
          drawnBars: runs.map(function (run) { return run.timeline ? run.timeline.drawnBars : null; }),
          notes: runs.map(function (run) { return run.spec.note; }),
          filters: runs.map(function (run) { return run.timeline ? run.timeline.filter : null; }),
          orders: runs.map(function (run) { return run.timeline ? run.timeline.order : null; }),
          shownRows: runs.map(function (run) {
            return run.timeline ? run.timeline.displayRows.map(function (r) { return run.model.rows[r].label; }) : null;
          }),
          selected: runs.map(function (run) {
            var t = run.timeline;
            return t && t.selected ? Sync.barKey(t, t.selected.row, t.selected.index) : null;
          }),
          details: runs.map(function (run) {
            var t = run.timeline, card = t && t.selection.card;
            return card && card.style.display === 'block' ? card.innerText : null;
          }),
          picked: picked,
          highlighted: runs.map(function (run) { return run.highlight ? run.highlightDrawn : 0; }),
          status: page.status.textContent,
          order: table ? table.order.slice() : [],
          sortColumn: table ? table.sortColumn : -1, descending: table ? table.descending : false
        };
      },
      /* positions of the rows of a role (and rank, null: all), in each run's display */
      rowsOf: function (role, rank) {
        return runs.map(function (run) { return run.rowsOf(role, rank).map(function (e) { return e.position; }); });
      },
      /* [first, last] display positions wholly in view */
      visibleRows: function (n) {
        var timeline = runs[n].timeline, g = timeline.screen;
        var first = Math.ceil(timeline.scrollY / g.pitch - 1e-6), last = Math.floor((timeline.scrollY + g.plot[3]) / g.pitch + 1e-6) - 1;
        return [first, last];
      },
      /* client point of step `step` of (role, rank, phase) on run n: the bar's middle, scrolled into view */
      barPoint: function (n, key) {
        var t = runs[n].timeline, found = Sync.findBar(t, key);
        if (!found) return null;
        var position = t.displayRows.indexOf(found.row);
        t.revealRow(position);
        return t.clientPoint((t.bars.start[found.index] + t.bars.end[found.index]) / 2, position);
      },
      pick: pick,
      /* the view written to the URL now, as it would be once it settles */
      flushUrl: function () { if (viewState) viewState.flush(); return location.hash; }
    };
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
