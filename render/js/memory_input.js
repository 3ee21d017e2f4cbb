/* memory_input.js: a memory page's hover, its detail panel, Left/Right and the segment hint (memory_view.js binds the pointer and keys). */
(function () {
  'use strict';

  var core = window.rliCore, MemoryPage = window.rliMemoryPage, element = core.element;
  var OVERLAP_LINES = 8;
  var TOP_LIVE = 10;
  var HIT_SLOP_PX = 3;

  function mb(kb, decimals) { return core.fmtThousands(kb / 1024, decimals); }

  MemoryPage.prototype.describeMatch = function (bar) {
    var d = this.d;
    if (d.match[bar] === 1) return 'Call stack of the op running at the allocation';
    if (d.match[bar] === 2)
      return 'Call stack matched to an op that ended ' + d.gap[bar].toFixed(d.gap[bar] < 1 ? 3 : 1) + ' ms earlier';
    return 'No op with a call stack matched this allocation';
  };

  /* ---- hover ---- */

  MemoryPage.prototype.showTooltip = function (lines, clientX, clientY) {
    var tip = this.tooltip, appBox = this.app.getBoundingClientRect();
    tip.textContent = '';
    lines.forEach(function (line) {
      var row = element('span', 'rli-entry' + (line.className ? ' ' + line.className : ''), line.text);
      tip.appendChild(row);
    });
    tip.style.display = 'block';
    var x = clientX - appBox.left + 14, y = clientY - appBox.top + 14;
    if (x + tip.offsetWidth > appBox.width) x = Math.max(0, clientX - appBox.left - tip.offsetWidth - 14);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  };
  MemoryPage.prototype.hideTooltip = function () { this.tooltip.style.display = 'none'; };

  /* The bar under a Gantt point: the shortest one covering it, as it is drawn on top. */
  MemoryPage.prototype.barAt = function (x, y) {
    var lane = this.laneOfY(y), d = this.d, best = -1;
    if (lane < 0 || x < this.geom.left || x > this.geom.left + this.geom.plotW) return -1;
    var slop = HIT_SLOP_PX * (this.range.hi - this.range.lo) / this.geom.plotW, t = this.tOf(x);
    this.laneBars(lane, t - slop, t + slop, function (i) {
      if (d.start[i] - slop <= t && t <= d.end[i] + slop &&
          (best < 0 || d.end[i] - d.start[i] < d.end[best] - d.start[best])) best = i;
    });
    return best;
  };

  MemoryPage.prototype.barLines = function (bar) {
    var d = this.d, self = this, lines = [
      { text: this.opName(bar), className: 'rli-strong' },
      { text: 'Size: ' + this.sizeText(d.sizeKb[bar]) + ' (' + core.fmtThousands(d.sizeKb[bar], 1) + ' KB)' },
      { text: 'Start: ' + this.timeText(d.start[bar]) },
      { text: 'End: ' + this.timeText(d.end[bar]) + (d.openEnded[bar] ? ' (never freed)' : '') },
      { text: 'Duration: ' + core.fmtDuration(d.end[bar] - d.start[bar]) }
    ];
    var over = this.overlaps(bar, this.range.lo, this.range.hi), extra = this.omitOverlaps(bar);
    if (over.length + extra) {
      lines.push({ text: (over.length + extra) + ' overlapping:', className: 'rli-em' });
      over.slice(0, OVERLAP_LINES).forEach(function (o) { lines.push({ text: self.overlapText(o) }); });
      var more = Math.max(0, over.length - OVERLAP_LINES) + extra;
      if (more) lines.push({ text: '... +' + more + ' more' });
    }
    return lines;
  };

  /* The lane's summed-up carried blocks all hold a bar's midpoint when it lies inside their span. */
  MemoryPage.prototype.omitOverlaps = function (bar) {
    var d = this.d, lane = d.lane[bar], mid = (d.start[bar] + d.end[bar]) / 2;
    return d.omitCount[lane] && d.omitStartU[lane] / d.scale <= mid && mid <= d.openEndU / d.scale ? d.omitCount[lane] : 0;
  };

  MemoryPage.prototype.bandLines = function (lane) {
    var d = this.d;
    return [{ text: this.series[this.laneSeries(lane)].name, className: 'rli-strong' },
      { text: core.fmtThousands(d.omitCount[lane], 0) + ' more blocks never freed, allocated in earlier segments' },
      { text: this.sizeText(d.omitKb[lane]) + ' in all, alive to the end of the capture' },
      { text: 'The largest blocks of the lane are drawn one by one' }];
  };

  MemoryPage.prototype.overlapText = function (o) {
    var d = this.d;
    return this.sizeText(d.sizeKb[o]) + ' at ' + this.timeText(d.start[o]) + ' for ' + core.fmtDuration(d.end[o] - d.start[o]);
  };

  MemoryPage.prototype.curveLines = function (t) {
    var lines = [{ text: 'Time: ' + this.timeText(t), className: 'rli-strong' }], self = this;
    if (t < this.segment.xMin || t > this.segment.xMax) {
      var best = this.bestSegment(t, t + 1e-9);
      lines.push({ text: 'Outside this segment: the curve drawn is its least and greatest value per pixel' });
      if (best >= 0) lines.push({ text: 'Seg ' + (best + 1) + ' shows these blocks' });
      return lines;
    }
    var live = this.liveAt(t, TOP_LIVE);
    var reserved = this.reservedAt(t);
    var unit = this.yAxis ? this.yAxis.unit : core.sizeUnitFor(this.curveAt(t));
    lines.push({ text: 'Total memory: ' + core.fmtSize(this.curveAt(t), unit, 3) });
    if (reserved !== null) lines.push({ text: 'Reserved: ' + core.fmtSize(reserved, unit, 3) });
    lines.push({ text: 'Active: ' + core.fmtThousands(live.count, 0) + ' blocks' });
    live.top.forEach(function (i) { lines.push({ text: self.opName(i) + ': ' + self.sizeText(self.d.sizeKb[i]) }); });
    return lines;
  };

  /* ---- the detail panel ---- */

  MemoryPage.prototype.showDetail = function (bar) {
    var d = this.d, self = this, body = this.detail;
    this.selected = bar;
    body.textContent = '';
    var table = element('table', 'rli-fields');
    [['Operator', this.opName(bar)],
     ['Size', this.sizeText(d.sizeKb[bar]) + ' (' + core.fmtThousands(d.sizeKb[bar], 1) + ' KB)'],
     ['Start', this.timeText(d.start[bar])],
     ['Duration', core.fmtDuration(d.end[bar] - d.start[bar]) + (d.openEnded[bar] ? ' (never freed: lives to the end of the capture)' : '')],
     ['End', this.timeText(d.end[bar])],
     ['Total Allocated', d.carried[bar] ? 'on its own page' : core.fmtSize(d.totalMb[bar])]].forEach(function (pair) {
      var tr = element('tr');
      tr.appendChild(element('th', null, pair[0]));
      tr.appendChild(element('td', null, pair[1]));
      table.appendChild(tr);
    });
    body.appendChild(table);
    if (d.carried[bar]) {
      /* a block from an earlier segment: drawn and counted here, its stack and totals on its own page */
      var home = this.bestSegment(d.start[bar], d.start[bar]);
      for (var s = 0; s < this.nav.links.length; s++)
        if (this.nav.links[s].target && d.start[bar] >= this.nav.links[s].xMin && d.start[bar] < this.nav.links[s].xMax) home = s;
      var note = element('p', 'rli-match', 'Allocated in an earlier segment; its call stack and Total Allocated are on ');
      if (home >= 0) {
        var go = element('a', 'rli-home', 'Seg ' + (home + 1));
        go.href = this.nav.links[home].target + '#range=' + this.range.lo + ',' + this.range.hi;
        note.appendChild(go);
      } else {
        note.appendChild(document.createTextNode('its own page'));
      }
      body.appendChild(note);
    } else {
      body.appendChild(element('p', 'rli-match rli-match-' + d.match[bar], this.describeMatch(bar)));
      body.appendChild(element('h3', null, 'Call Stack'));
      var stack = d.stack[bar] >= 0 ? d.stacks[d.stack[bar]] : '';
      body.appendChild(element('pre', 'rli-stack' + (stack ? '' : ' rli-empty-stack'), stack || '(empty)'));
    }
    var over = this.overlaps(bar), extra = this.omitOverlaps(bar);
    body.appendChild(element('h3', null, 'Overlapping events of ' + this.opName(bar) + ' (' + (over.length + extra) + ')'));
    if (!over.length && !extra) body.appendChild(element('p', 'rli-placeholder', 'none'));
    var list = element('ul', 'rli-overlaps');
    over.forEach(function (o) {
      var item = element('li'), a = element('a', 'rli-jump', '\u2192 ' + self.overlapText(o));
      a.href = '#';
      a.setAttribute('data-bar', String(o));
      a.addEventListener('click', function (event) {
        event.preventDefault();
        self.showDetail(o);
        if (!self.inRange(o, self.range.lo, self.range.hi)) {
          var span = self.range.hi - self.range.lo, mid = (d.start[o] + d.end[o]) / 2;
          self.range.set(mid - span / 2, mid + span / 2, 'detail');
        }
      });
      item.appendChild(a);
      list.appendChild(item);
    });
    if (extra) list.appendChild(element('li', 'rli-placeholder', '+ ' + core.fmtThousands(extra, 0) +
      ' blocks never freed from earlier segments (' + this.sizeText(d.omitKb[d.lane[bar]]) + ')'));
    body.appendChild(list);
    this.drawGantt();
  };

  /* ---- range: inputs, info, hint ---- */

  MemoryPage.prototype.syncRange = function () {
    var lo = this.range.lo, hi = this.range.hi, info = this.rangeInfo(lo, hi), unit = this.unit(), self = this;
    this.unitLabels.forEach(function (label) { label.textContent = unit.name; });
    [[this.leftInput, lo], [this.rightInput, hi]].forEach(function (pair) {
      pair[0].value = core.fmtTime(pair[1], unit);
      pair[0].dataset.unit = unit.name;
    });
    this.markInput(null, '');
    if (this.timelineLink) {
      var filter = core.rowFilterText(this.nav.role, this.nav.rank);
      this.timelineLink.href = this.nav.timeline + '#range=' + lo + ',' + hi + '&filter=' + encodeURIComponent(filter);
    }
    this.info.textContent = 'Allocations in view: ' + core.fmtThousands(info.events, 0) + ' of ' +
      core.fmtThousands(this.d.total, 0) + '  |  Operators: ' + core.fmtThousands(info.operators, 0) +
      '  |  Span: ' + core.fmtDuration(info.span);
    this.hint.textContent = '';
    var best = this.bestSegment(lo, hi);
    if (best >= 0 && best !== this.nav.current) {
      var link = this.nav.links[best];
      this.hint.appendChild(element('span', null, 'Most of this view is on segment ' + (best + 1) + ' (' + link.label + ') '));
      var go = element('a', 'rli-go', 'Go \u2192');
      go.href = link.target + '#range=' + lo + ',' + hi;
      this.hint.appendChild(go);
    }
    void self;
  };

  /* A box refused: red, its reason in words beside the boxes (and its title); null clears both. */
  MemoryPage.prototype.markInput = function (input, message) {
    [this.leftInput, this.rightInput].forEach(function (box) {
      var bad = box === input;
      box.classList.toggle('rli-invalid', bad);
      if (bad) box.setAttribute('aria-invalid', 'true'); else box.removeAttribute('aria-invalid');
      box.title = bad ? message : '';
    });
    this.rangeError.textContent = message || '';
  };

  /*
   * Left/Right: ms from t = 0 in the unit beside them (or with a unit typed), within the device's
   * time, Left before Right; else the box turns red, says why, keeps what was typed, and the view stays.
   */
  MemoryPage.prototype.applyInput = function (which) {
    var input = which === 'left' ? this.leftInput : this.rightInput, name = which === 'left' ? 'Left' : 'Right';
    var typed = input.dataset.unit || 'ms';
    var unit = { name: typed, ms: typed === 'min' ? 60e3 : typed === 's' ? 1e3 : 1 };
    var parsed = core.parseTime(input.value, unit, name), whole = core.timeUnitFor(this.range.max - this.range.min);
    var message = parsed.error || '';
    var lo = which === 'left' ? parsed.ms : this.range.lo, hi = which === 'left' ? this.range.hi : parsed.ms;
    if (!message && (lo < this.range.min - 1e-9 || hi > this.range.max + 1e-9))
      message = name + ' (' + core.fmtTimeUnit(parsed.ms, whole) + ') is outside this device\'s time, ' +
        core.fmtTimeUnit(this.range.min, whole) + ' to ' + core.fmtTimeUnit(this.range.max, whole);
    else if (!message && !(lo < hi))
      message = 'Right (' + core.fmtTimeUnit(hi, whole) + ') must be after Left (' + core.fmtTimeUnit(lo, whole) + ')';
    if (message) {
      this.markInput(input, message);
      return false;
    }
    this.markInput(null, '');
    this.range.set(lo, hi, 'input');
    this.syncRange();
    return true;
  };

  /* ---- pointer ---- */

  MemoryPage.prototype.hover = function (event) {
    var target = event.target, box;
    if (target === this.ganttCanvas) {
      box = target.getBoundingClientRect();
      var bar = this.barAt(event.clientX - box.left, event.clientY - box.top);
      target.style.cursor = bar >= 0 ? 'pointer' : '';
      if (bar >= 0) return this.showTooltip(this.barLines(bar), event.clientX, event.clientY);
      var lane = this.laneOfY(event.clientY - box.top), t = this.tOf(event.clientX - box.left);
      if (lane >= 0 && this.omitIn(lane, t, t))
        return this.showTooltip(this.bandLines(lane), event.clientX, event.clientY);
    } else if (target === this.curveCanvas) {
      box = target.getBoundingClientRect();
      var x = event.clientX - box.left;
      if (x >= this.geom.left && x <= this.geom.left + this.geom.plotW)
        return this.showTooltip(this.curveLines(this.tOf(x)), event.clientX, event.clientY);
    }
    this.hideTooltip();
  };
})();
