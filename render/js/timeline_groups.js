/* timeline_groups.js: thousands of ranks: rows grouped by role (each group folds, each has a live occupancy track), and a box that jumps to a rank. */
(function () {
  'use strict';

  var core = window.rliCore, element = core.element, lowerBound = core.lowerBound, addCoverage = core.addCoverage;
  var parts = window.rliTimelineParts;
  var Timeline = parts.Timeline;

  /*
   * A group's header is a display row of its own, written -(g + 1) in displayRows (g: the role's index in
   * roleNames), so scrolling, the band and the rows' count treat it as a row. Its bars are the group's
   * occupancy: per column of the plot, the share of the group's rows (folded ones too) busy there, from
   * the bars in view under the filter and the hidden names, as the PNG's overview draws each role's band.
   */
  var TRACK_FILL = '#5a6b85';
  var TRACK_BACK = '#eef1f6';
  /*
   * A run of this many rows or more opens grouped with every group folded: its overview, one track a role,
   * as the PNG shows past its readable rows; a group unfolds by its label, a filter or a jump.
   */
  var GROUP_FROM_ROWS = 500;

  /* Grouped and folded as the page opens (and as a URL that names neither leaves it). */
  Timeline.prototype.defaultGrouped = function () { return this.model.rows.length >= GROUP_FROM_ROWS; };
  Timeline.prototype.defaultFolds = function () {
    var folds = new Set();
    if (this.grouped && this.defaultGrouped()) this.roleNames.forEach(function (name, g) { folds.add(g); });
    return folds;
  };

  Timeline.prototype.headerGroup = function (row) { return row < 0 ? -row - 1 : -1; };

  var update = Timeline.prototype.updateDisplayRows;
  Timeline.prototype.updateDisplayRows = function () {
    update.call(this);
    if (!this.collapsed) this.collapsed = new Set();
    /* a refused filter keeps the rows as they were, headers and all: take them out before grouping again */
    var rows = this.displayRows.filter(function (row) { return row >= 0; });
    this.groupMembers = null;
    if (!this.grouped) {
      this.displayRows = rows;
      return;
    }
    var names = this.roleNames, model = this.model, index = new Map();
    names.forEach(function (name, g) { index.set(name, g); });
    var members = names.map(function () { return []; });
    rows.forEach(function (row) { members[index.get(model.rows[row].role)].push(row); });
    var grouped = [], collapsed = this.collapsed;
    members.forEach(function (list, g) {
      if (!list.length) return;
      grouped.push(-(g + 1));
      if (!collapsed.has(g)) for (var i = 0; i < list.length; i++) grouped.push(list[i]);
    });
    this.displayRows = grouped;
    this.groupMembers = members;
    this.updateEmpty();
  };

  /* A new filter unfolds every group: the rows it keeps are what the reader asked to see. */
  var setFilter = Timeline.prototype.setFilter;
  Timeline.prototype.setFilter = function (text) {
    if (this.collapsed && this.collapsed.size && String(text || '').trim() && String(text || '') !== this.filter)
      this.collapsed = new Set();
    return setFilter.call(this, text);
  };

  /* Rows grouped by role (on) or as the order puts them (off). */
  Timeline.prototype.setGrouped = function (on) {
    this.grouped = !!on;
    this.updateDisplayRows();
    this.refreshButtons();
    this.hideTooltip();
    this.updateScroll();
    this.draw();
  };

  /* Folds or unfolds role g's group (fold: true, false, or undefined to switch), its header kept where it was on screen. */
  Timeline.prototype.foldGroup = function (g, fold) {
    if (!this.grouped) return;
    var was = this.displayRows.indexOf(-(g + 1));
    if (fold === undefined) fold = !this.collapsed.has(g);
    if (fold) this.collapsed.add(g); else this.collapsed.delete(g);
    this.updateDisplayRows();
    this.hideTooltip();
    this.updateScroll();
    var now = this.displayRows.indexOf(-(g + 1));
    if (was >= 0 && now >= 0) this.setScroll(this.scrollY + (now - was) * this.screen.pitch, false);
    this.draw();
  };

  /* Folds every group (true) or none (false). */
  Timeline.prototype.foldAll = function (fold) {
    var self = this;
    this.collapsed = new Set();
    if (fold) this.roleNames.forEach(function (name, g) { self.collapsed.add(g); });
    this.updateDisplayRows();
    this.hideTooltip();
    this.setScroll(0, false);
    this.updateScroll();
    this.draw();
  };

  /* Makes model row `row` one of the rows shown: its group unfolded, and the filter cleared if it hides the row. */
  Timeline.prototype.ensureShown = function (row) {
    if (this.displayRows.indexOf(row) >= 0) return true;
    var g = this.roleNames.indexOf(this.model.rows[row].role);
    if (this.grouped && this.collapsed.has(g)) {
      this.collapsed.delete(g);
      this.updateDisplayRows();
      this.updateScroll();
    }
    if (this.displayRows.indexOf(row) < 0) this.setFilter('');
    if (this.grouped && this.collapsed.has(g)) {
      this.collapsed.delete(g);
      this.updateDisplayRows();
      this.updateScroll();
    }
    return this.displayRows.indexOf(row) >= 0;
  };

  /* Per CSS-px column of the plot, the share of role g's rows busy there (0..1), from the bars in view. */
  Timeline.prototype.occupancy = function (g, columns) {
    var members = this.groupMembers ? this.groupMembers[g] : null, bars = this.bars;
    var busy = new Float32Array(columns), line = new Float32Array(columns + 1);
    if (!members || !members.length) return busy;
    var left = this.left, right = this.right, pxPerMs = columns / (right - left);
    var start = bars.start, end = bars.end, maxEnd = bars.maxEnd;
    for (var m = 0; m < members.length; m++) {
      var row = members[m], runs = bars.rowRuns[row], lo = columns, hi = -1;
      for (var k = 0; k < runs.length; k++) {
        var run = runs[k];
        if (!this.seriesShown(row, bars.runSeries[run])) continue;
        var stop = bars.runFirst[run + 1];
        for (var i = lowerBound(maxEnd, bars.runFirst[run], stop, left); i < stop; i++) {
          var s = start[i];
          if (s > right) break;
          var e = end[i];
          if (e < left) continue;
          var x0 = ((s < left ? left : s) - left) * pxPerMs, x1 = ((e > right ? right : e) - left) * pxPerMs;
          if (x1 - x0 < 0.05) x1 = x0 + 0.05; /* an instant still shows as busy */
          addCoverage(line, columns, x0, x1);
          if (x0 < lo) lo = Math.max(0, Math.floor(x0));
          if (x1 > hi) hi = Math.min(columns - 1, Math.floor(x1));
        }
      }
      for (var c = lo; c <= hi; c++) {
        busy[c] += line[c] > 1 ? 1 : line[c];
        line[c] = 0;
      }
      line[columns] = 0;
    }
    for (var j = 0; j < columns; j++) busy[j] /= members.length;
    return busy;
  };

  /* Each header row in the band: its occupancy track across the plot (0 at the row's foot, every row busy at its top). */
  Timeline.prototype.paintTracks = function (ctx, scale, g) {
    var plot = g.plot, rows = this.displayRows, columns = Math.max(1, Math.round(plot[2]));
    var step = plot[2] / columns;
    ctx.save();
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.beginPath();
    ctx.rect(plot[0], plot[1], plot[2], plot[3]);
    ctx.clip();
    this.trackShares = {};
    for (var position = 0; position < rows.length; position++) {
      var group = this.headerGroup(rows[position]);
      if (group < 0) continue;
      var top = g.rowsTop + position * g.pitch;
      if (top + g.pitch < plot[1] || top > plot[1] + plot[3]) continue;
      var pad = Math.max(1, g.pitch * 0.08), base = top + g.pitch - pad, height = g.pitch - 2 * pad;
      ctx.fillStyle = TRACK_BACK;
      ctx.fillRect(plot[0], top + pad, plot[2], height);
      var busy = this.occupancy(group, columns), sum = 0;
      ctx.fillStyle = TRACK_FILL;
      ctx.beginPath();
      ctx.moveTo(plot[0], base);
      for (var c = 0; c < columns; c++) {
        var y = base - busy[c] * height;
        ctx.lineTo(plot[0] + c * step, y);
        ctx.lineTo(plot[0] + (c + 1) * step, y);
        sum += busy[c];
      }
      ctx.lineTo(plot[0] + plot[2], base);
      ctx.closePath();
      ctx.fill();
      this.trackShares[group] = sum / columns;
    }
    ctx.restore();
  };

  var paint = Timeline.prototype.paint;
  Timeline.prototype.paint = function (ctx, scale, g) {
    var began = performance.now();
    paint.call(this, ctx, scale, g);
    if (this.grouped && g.kind === 'window') this.paintTracks(ctx, scale, g);
    return performance.now() - began;
  };

  /* Export PNG draws the model's page: the rows without headers. */
  var exportPng = Timeline.prototype.exportPng;
  Timeline.prototype.exportPng = function () {
    var rows = this.displayRows;
    this.displayRows = rows.filter(function (row) { return row >= 0; });
    try {
      exportPng.call(this);
    } finally {
      this.displayRows = rows;
      this.draw();
    }
  };

  /* The hover's lines over role g's header at time t: how many of its rows are busy there. */
  Timeline.prototype.groupHoverLines = function (g, t) {
    var members = this.groupMembers ? this.groupMembers[g] : [], busy = 0, self = this;
    members.forEach(function (row) { if (self.barAt(row, t, 0) >= 0) busy++; });
    var share = members.length ? busy / members.length : 0;
    return [this.roleNames[g], core.fmtThousands(busy, 0) + ' of ' + core.fmtThousands(members.length, 0) +
      (members.length === 1 ? ' row' : ' rows') + ' busy (' + core.fmtThousands(share * 100, 0) + '%)',
      'At: ' + core.fmtTimeUnit(t, this.viewUnit()),
      this.collapsed.has(g) ? 'Folded: its label unfolds it' : 'Its label folds it'];
  };

  /* ---- the toolbar's controls and the headers' labels ---- */

  function Groups(timeline) {
    var self = this;
    this.timeline = timeline;
    this.heads = [];
    var toolbar = timeline.app.querySelector('.rli-toolbar');
    var box = element('div', 'rli-group');
    this.groupButton = element('button', null, 'Group by role');
    this.groupButton.type = 'button';
    this.groupButton.dataset.action = 'group';
    this.groupButton.addEventListener('click', function () { timeline.setGrouped(!timeline.grouped); });
    this.foldButton = element('button', null, 'Fold all');
    this.foldButton.type = 'button';
    this.foldButton.dataset.action = 'fold-all';
    this.foldButton.addEventListener('click', function () {
      timeline.foldAll(timeline.collapsed.size < timeline.roleNames.length);
    });
    box.appendChild(this.groupButton);
    box.appendChild(this.foldButton);
    toolbar.appendChild(box);

    /* the jump: a rank (or a role and a rank) typed, Enter scrolls to its row and marks it */
    var jump = element('label', 'rli-jump-box', 'Go to ');
    this.jumpInput = element('input', 'rli-jump');
    this.jumpInput.type = 'text';
    this.jumpInput.inputMode = 'numeric';
    this.jumpInput.spellcheck = false;
    this.jumpInput.placeholder = 'rank';
    this.jumpInput.setAttribute('aria-label', 'Go to a rank: type its number (or a role and a number) and press Enter');
    this.jumpInput.title = 'Type a rank (17) or a role and a rank (actor 17), then Enter. On the chart, g comes here.';
    this.jumpInput.setAttribute('aria-describedby', 'rli-jump-status');
    this.jumpInput.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') { event.preventDefault(); self.jump(self.jumpInput.value); }
      else if (event.key === 'Escape') { self.jumpInput.value = ''; self.say(''); timeline.canvas.focus(); }
    });
    jump.appendChild(this.jumpInput);
    this.jumpStatus = element('span', 'rli-jump-status');
    this.jumpStatus.id = 'rli-jump-status';
    this.jumpStatus.setAttribute('role', 'status');
    jump.appendChild(this.jumpStatus);
    toolbar.appendChild(jump);
    timeline.canvas.addEventListener('keydown', function (event) {
      if (event.key === 'g' && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        self.jumpInput.focus();
        self.jumpInput.select();
      }
    });

    this.mark = element('div', 'rli-row-mark rli-jump-mark');
    timeline.stage.appendChild(this.mark);
    this.markedRow = -1;

    if (timeline.defaultGrouped()) {
      timeline.grouped = true;
      timeline.collapsed = timeline.defaultFolds();
      timeline.updateDisplayRows();
      timeline.updateScroll();
    }
    var refresh = timeline.refreshButtons;
    timeline.refreshButtons = function () {
      refresh.call(timeline);
      self.refresh();
    };
    this.refresh();
    timeline.relayoutIfMoved();
  }

  Groups.prototype.refresh = function () {
    var t = this.timeline, on = !!t.grouped;
    this.groupButton.classList.toggle('rli-active', on);
    this.groupButton.setAttribute('aria-pressed', on ? 'true' : 'false');
    this.groupButton.title = on ? 'Rows are grouped by role, each with its occupancy track. Click to list them ungrouped.'
      : 'Group the rows by role: each group folds, and its track shows how busy its rows are';
    this.foldButton.style.display = on ? '' : 'none';
    var all = t.collapsed && t.roleNames && t.collapsed.size >= t.roleNames.length;
    this.foldButton.textContent = all ? 'Unfold all' : 'Fold all';
  };

  Groups.prototype.say = function (text) {
    this.jumpStatus.textContent = text;
    this.jumpInput.classList.toggle('rli-invalid', /^No |is not/.test(text));
    this.timeline.relayoutIfMoved();
  };

  /* Scrolls to the row `text` names (a rank, or a role and a rank) and marks it; says what it did. */
  Groups.prototype.jump = function (text) {
    var t = this.timeline, model = t.model;
    var filter = core.parseFilter(text, t.roleNames);
    if (filter.error || !filter.ranks.length) {
      this.say(String(text).trim() ? '\u201c' + String(text).trim() + '\u201d is not a rank: type a number such as 17'
        : '');
      return false;
    }
    var rank = filter.ranks[0][0], candidates = [];
    model.rows.forEach(function (info, row) {
      if (Number(info.rank) === rank && (!filter.roles.length || filter.roles.indexOf(info.role) >= 0)) candidates.push(row);
    });
    if (!candidates.length) {
      var high = model.rows.reduce(function (m, info) { var r = Number(info.rank); return isFinite(r) ? Math.max(m, r) : m; }, 0);
      this.say('No rank ' + rank + (filter.roles.length ? ' in ' + filter.roles.join(', ') : '') + ': ranks run 0\u2013' + high);
      return false;
    }
    /* the first of its rows as they show now, else the first in the model */
    var shown = candidates.filter(function (row) { return t.displayRows.indexOf(row) >= 0; });
    var row = shown.length ? shown.sort(function (a, b) { return t.displayRows.indexOf(a) - t.displayRows.indexOf(b); })[0] : candidates[0];
    this.showRow(row);
    this.say(model.rows[row].label + (candidates.length > 1 ? ' (1 of its ' + candidates.length + ' rows)' : ''));
    return true;
  };

  /* Brings model row `row` to the middle of the band (unfolding or unfiltering it if needed) and marks it. */
  Groups.prototype.showRow = function (row) {
    var t = this.timeline;
    if (!t.ensureShown(row)) return false;
    var g = t.screen, position = t.displayRows.indexOf(row);
    this.markedRow = row;
    t.setScroll(position * g.pitch - (g.plot[3] - g.pitch) / 2, false);
    t.hideTooltip();
    t.draw();
    return true;
  };

  /* The headers' labels (buttons that fold their group) and the jump's mark, where the rows now are. */
  Groups.prototype.place = function () {
    var t = this.timeline, g = t.screen, plot = g.plot, rows = t.displayRows, model = t.model, self = this;
    var size = (model.rowLabels.length ? model.rowLabels[0].size : model.tickLabelSize) * g.k;
    var used = 0;
    if (t.grouped && t.groupMembers) {
      rows.forEach(function (row, position) {
        var group = t.headerGroup(row);
        if (group < 0) return;
        var top = g.rowsTop + position * g.pitch, centre = top + g.pitch / 2;
        if (centre < plot[1] || centre > plot[1] + plot[3]) return;
        var head = self.heads[used++];
        if (!head) {
          head = element('button', 'rli-group-head');
          head.type = 'button';
          head.addEventListener('click', function () { t.foldGroup(Number(head.dataset.group)); head.focus(); });
          t.stage.appendChild(head);
          self.heads.push(head);
        }
        var folded = t.collapsed.has(group), n = t.groupMembers[group].length;
        var share = t.trackShares && t.trackShares[group] !== undefined ? t.trackShares[group] : 0;
        var text = (folded ? '\u25b8 ' : '\u25be ') + t.roleNames[group] + ' \u00b7 ' + core.fmtThousands(n, 0) +
          (n === 1 ? ' row' : ' rows');
        if (head.textContent !== text) head.textContent = text;
        head.dataset.group = String(group);
        head.setAttribute('aria-expanded', folded ? 'false' : 'true');
        head.title = (folded ? 'Unfold ' : 'Fold ') + t.roleNames[group] + ': its track shows its rows busy ' +
          core.fmtThousands(share * 100, 0) + '% of the time in view';
        var style = head.style;
        style.display = 'block';
        style.fontSize = size + 'px';
        style.left = '2px';
        style.width = Math.max(20, plot[0] - 8) + 'px';
        style.top = Math.max(plot[1], top) + 'px';
        style.height = Math.max(1, Math.min(top + g.pitch, plot[1] + plot[3]) - Math.max(plot[1], top)) + 'px';
      });
    }
    for (var i = used; i < this.heads.length; i++) this.heads[i].style.display = 'none';

    var mark = this.mark.style, at = this.markedRow >= 0 ? rows.indexOf(this.markedRow) : -1;
    var markTop = g.rowsTop + at * g.pitch;
    if (at < 0 || markTop + g.pitch <= plot[1] || markTop >= plot[1] + plot[3]) {
      mark.display = 'none';
    } else {
      var clipped = Math.max(markTop, plot[1]);
      mark.display = 'block';
      mark.left = '0px';
      mark.width = (plot[0] + plot[2]) + 'px';
      mark.top = clipped + 'px';
      mark.height = (Math.min(markTop + g.pitch, plot[1] + plot[3]) - clipped) + 'px';
    }
  };

  Groups.prototype.state = function () {
    var t = this.timeline;
    return {
      grouped: !!t.grouped, folded: Array.from(t.collapsed || []).sort().map(function (g) { return t.roleNames[g]; }),
      headers: t.displayRows.filter(function (row) { return row < 0; }).map(function (row) { return t.roleNames[-row - 1]; }),
      shares: t.trackShares ? Object.keys(t.trackShares).map(function (g) {
        return { role: t.roleNames[g], share: t.trackShares[g] };
      }) : [], markedRow: this.markedRow, jumpStatus: this.jumpStatus.textContent
    };
  };

  var draw = Timeline.prototype.draw;
  Timeline.prototype.draw = function () {
    if (!this.grouped) this.trackShares = null;
    var elapsed = draw.call(this);
    if (this.groups) this.groups.place();
    return elapsed;
  };

  /* A rank link of the statistics panel unfolds the rank's group first. */
  if (parts.Aside) {
    var showRow = parts.Aside.prototype.showRow;
    parts.Aside.prototype.showRow = function (lane) {
      if (this.timeline.ensureShown) this.timeline.ensureShown(lane);
      return showRow.call(this, lane);
    };
  }

  parts.Groups = Groups;
})();
