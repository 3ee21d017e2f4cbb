/* memory_select.js: a memory page's selected allocation: the details say whether and when it was freed, a × and Escape in the panel clear it, its lane is scrolled into view; the Gantt's lanes scroll, and its selection steps, by keys. */
(function () {
  'use strict';

  var core = window.rliCore, MemoryPage = window.rliMemoryPage, element = core.element;

  /* The panel's heading gets a × that clears the selection; the panel reads out what is selected. */
  var buildDom = MemoryPage.prototype.buildDom;
  MemoryPage.prototype.buildDom = function () {
    var result = buildDom.call(this), self = this;
    var aside = this.detail.parentNode, heading = aside.querySelector('h2');
    aside.setAttribute('aria-label', 'The selected allocation');
    this.detail.setAttribute('aria-live', 'polite');
    this.closeButton = element('button', 'rli-detail-close', '\u00d7');
    this.closeButton.type = 'button';
    this.closeButton.title = 'Clear the selection (Escape)';
    this.closeButton.setAttribute('aria-label', 'Clear the selection');
    this.closeButton.style.display = 'none';
    this.closeButton.addEventListener('click', function () { self.clearSelection(); });
    heading.appendChild(this.closeButton);
    /* Escape where the focus is in the panel (a link of it, the ×) clears it too */
    aside.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && self.clearSelection()) event.preventDefault();
    });
    /* and where nothing has the focus (a reload that restored a selection): the page's own */
    document.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && (event.target === document.body || event.target === document.documentElement) &&
          self.clearSelection()) event.preventDefault();
    });
    return result;
  };

  /* Clears the selection and gives the focus back to the Gantt, where it was made. */
  MemoryPage.prototype.clearSelection = function () {
    var focusInPanel = this.detail.parentNode.contains(document.activeElement);
    if (!this.clearDetail()) return false;
    if (focusInPanel) this.ganttCanvas.focus({ preventScroll: true });
    return true;
  };

  var clearDetail = MemoryPage.prototype.clearDetail;
  MemoryPage.prototype.clearDetail = function () {
    var cleared = clearDetail.call(this);
    if (this.closeButton) this.closeButton.style.display = 'none';
    return cleared;
  };

  /* The details of a block: whether and when it was freed beside its lifetime; its lane scrolled into view. */
  var showDetail = MemoryPage.prototype.showDetail;
  MemoryPage.prototype.showDetail = function (bar) {
    var result = showDetail.call(this, bar), d = this.d;
    var table = this.detail.querySelector('.rli-fields');
    if (table) {
      var freed = d.openEnded[bar]
        ? 'never freed: still held when the capture ends (' + this.timeText(d.end[bar]) + ')'
        : 'yes, at ' + this.timeText(d.end[bar]) + ', after ' + core.fmtDuration(d.end[bar] - d.start[bar]);
      var tr = element('tr', 'rli-freed');
      tr.appendChild(element('th', null, 'Freed'));
      tr.appendChild(element('td', null, freed));
      var rows = table.querySelectorAll('tr');
      /* after End: the facts of its lifetime together */
      var after = rows.length > 4 ? rows[4] : null;
      table.insertBefore(tr, after ? after.nextSibling : null);
    }
    if (this.closeButton) this.closeButton.style.display = '';
    this.revealLane(d.lane[bar]);
    return result;
  };

  /* Scrolls the Gantt's lanes as little as needed for `lane` to show. */
  MemoryPage.prototype.revealLane = function (lane) {
    var stage = this.ganttStage, top = this.laneTop(lane), bottom = top + this.geom.pitch;
    if (top < stage.scrollTop) stage.scrollTop = Math.max(0, top - this.geom.pitch);
    else if (bottom > stage.scrollTop + stage.clientHeight) stage.scrollTop = bottom - stage.clientHeight + this.geom.pitch;
  };

  /*
   * The allocation of `lane` after (direction 1) or before (-1) the one that starts at `s` with
   * index `i`, by start, then index: a lane's blocks in the order a reader meets them; -1: none.
   */
  MemoryPage.prototype.blockNextTo = function (lane, s, i, direction) {
    var d = this.d, best = -1;
    /* block a against (start t, index j): below 0 before it, above 0 after it */
    var order = function (a, t, j) { return d.start[a] !== t ? d.start[a] - t : a - j; };
    for (var k = d.laneFirst[lane]; k < d.laneFirst[lane + 1]; k++)
      if (direction * order(k, s, i) > 0 && (best < 0 || direction * order(k, d.start[best], best) < 0)) best = k;
    return best;
  };

  /*
   * The keyboard's selection on the Gantt: ] and [ the next and the previous allocation of the
   * selected one's lane (with none selected, the first to start in view on the top lane in view,
   * or the last), } and { the one nearest it in time on the next and the previous lane; its
   * details shown, its lane scrolled to and the view panned (the zoom kept) to it.
   */
  MemoryPage.prototype.stepSelection = function (direction, acrossLanes) {
    var d = this.d, lanes = d.laneFirst.length - 1, sel = this.selected, bar = -1, lane;
    if (lanes <= 0) return false;
    if (sel < 0) {
      var top = Math.min(lanes - 1, Math.max(0, Math.ceil(this.ganttStage.scrollTop / this.geom.pitch)));
      for (var tries = 0; tries < lanes && bar < 0; tries++) {
        lane = (top + tries) % lanes;
        bar = direction > 0 ? this.blockNextTo(lane, this.range.lo, -1, 1) : this.blockNextTo(lane, this.range.hi, Infinity, -1);
      }
    } else if (!acrossLanes) {
      bar = this.blockNextTo(d.lane[sel], d.start[sel], sel, direction);
    } else {
      for (lane = d.lane[sel] + direction; lane >= 0 && lane < lanes && bar < 0; lane += direction) {
        var after = this.blockNextTo(lane, d.start[sel], -1, 1), before = this.blockNextTo(lane, d.start[sel], -1, -1);
        bar = after < 0 ? before : before < 0 ? after : d.start[sel] - d.start[before] < d.start[after] - d.start[sel] ? before : after;
      }
    }
    if (bar < 0) return false;
    if (!this.inRange(bar, this.range.lo, this.range.hi)) {
      var span = this.range.hi - this.range.lo, mid = (d.start[bar] + d.end[bar]) / 2;
      this.range.set(mid - span / 2, mid + span / 2, 'key');
    }
    this.showDetail(bar);
    return true;
  };

  /* The Gantt's lanes scroll, and its selection steps, by keys where the focus is: on the Gantt (the charts' other keys are memory_view.js's). */
  var bindInput = MemoryPage.prototype.bindInput;
  MemoryPage.prototype.bindInput = function () {
    var result = bindInput.call(this), self = this;
    this.ganttCanvas.addEventListener('keydown', function (event) {
      var stage = self.ganttStage, pitch = self.geom.pitch, page = Math.max(pitch, stage.clientHeight - pitch), by = 0;
      if (event.key === ']' || event.key === '[' || event.key === '}' || event.key === '{') {
        event.preventDefault();
        self.stepSelection(event.key === ']' || event.key === '}' ? 1 : -1, event.key === '}' || event.key === '{');
        return;
      }
      if (event.key === 'ArrowDown') by = pitch;
      else if (event.key === 'ArrowUp') by = -pitch;
      else if (event.key === 'PageDown') by = page;
      else if (event.key === 'PageUp') by = -page;
      else return;
      event.preventDefault();
      stage.scrollTop += by;
    });
    return result;
  };
})();
