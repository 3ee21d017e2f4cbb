/* timeline_links.js: the timeline page's links to the run's other pages: its home, and each row's device memory at the time in view. */
(function () {
  'use strict';

  var core = window.rliCore, element = core.element;
  var parts = window.rliTimelineParts;
  var Timeline = parts.Timeline;

  /*
   * model.nav (html_timeline.c): up, the run's home page; links, a memory page each, with the row
   * of its device and the span of the run's time it shows. Every page of a run counts time from
   * one t = 0, so a link carries the view's range as it is: the other page opens on the same time.
   */
  function Links(timeline, nav) {
    var self = this, toolbar = timeline.app.querySelector('.rli-toolbar');
    this.timeline = timeline;
    this.nav = nav;
    this.byRow = new Map();
    nav.links.forEach(function (link) {
      if (link.row < 0 || !link.target) return;
      if (!self.byRow.has(link.row)) self.byRow.set(link.row, []);
      self.byRow.get(link.row).push(link);
    });
    var group = element('div', 'rli-group rli-pages');
    if (nav.up) {
      this.home = element('a', 'rli-button-link', 'Run home');
      this.home.href = nav.up;
      this.home.title = 'Every output of this run: the memory pages, the report, the tables';
      group.appendChild(this.home);
    }
    if (this.byRow.size) {
      this.menu = element('details', 'rli-menu');
      var summary = element('summary', 'rli-button-link', 'Memory (' + this.byRow.size + ')');
      summary.title = 'Each device\u2019s memory pages, at the time in view';
      this.menu.appendChild(summary);
      this.list = element('ul', 'rli-menu-list');
      this.items = [];
      var rows = Array.from(this.byRow.keys()).sort(function (a, b) { return a - b; });
      rows.forEach(function (row) {
        var li = element('li'), a = element('a', 'rli-memory-link', timeline.model.rows[row].label);
        a.dataset.row = String(row);
        li.appendChild(a);
        self.list.appendChild(li);
        self.items.push({ row: row, node: a });
      });
      this.menu.appendChild(this.list);
      this.menu.addEventListener('toggle', function () { if (self.menu.open) self.update(); });
      /* a click elsewhere, or Escape, closes the list */
      document.addEventListener('mousedown', function (event) { if (self.menu.open && !self.menu.contains(event.target)) self.menu.open = false; });
      this.menu.addEventListener('keydown', function (event) {
        if (event.key === 'Escape' && self.menu.open) { self.menu.open = false; summary.focus(); }
      });
      group.appendChild(this.menu);
    }
    if (group.firstChild) toolbar.insertBefore(group, toolbar.firstChild);
    this.update();
  }

  /* The memory page of model row `row` that shows most of [left, right] (or the nearest), with that range; null without one. */
  Links.prototype.memoryHref = function (row, left, right) {
    var links = this.byRow.get(row);
    if (!links) return null;
    var best = null, most = -Infinity;
    links.forEach(function (link) {
      var overlap = Math.min(right, link.xMax) - Math.max(left, link.xMin);
      if (overlap > most) { most = overlap; best = link; }
    });
    return best.target + '#range=' + left + ',' + right;
  };

  /* The links follow the view: all of them while they are few, a long list only while it is open. */
  Links.prototype.update = function () {
    if (!this.items || (!this.menu.open && this.items.length > 200)) return;
    var t = this.timeline, self = this;
    this.items.forEach(function (item) { item.node.href = self.memoryHref(item.row, t.left, t.right); });
  };

  var draw = Timeline.prototype.draw;
  Timeline.prototype.draw = function () {
    var elapsed = draw.call(this);
    if (this.links) this.links.update();
    return elapsed;
  };

  parts.Links = Links;
})();
