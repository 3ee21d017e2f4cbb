/* timeline_aside.js: the statistics side panel: the layout's aside items beside the chart, rank links that scroll to their row and mark it. */
(function () {
  'use strict';

  var element = window.rliCore.element;
  var parts = window.rliTimelineParts;
  var Timeline = parts.Timeline;

  /* Kept between the chart and the panel, whose width the style sheet sets (.rli-aside: 30% of the window, 300 to 520 px). */
  var GAP_CSS_PX = 8;
  var APP_PAD_CSS_PX = 10; /* .rli-app's own right padding, which the panel's room adds to */
  /* Below this window width the panel is a drawer over the chart, closed until its button opens it: the chart needs the room more. */
  var DRAWER_BELOW_CSS_PX = 1100;

  /*
   * The side panel of model.aside: each heading opens a section (collapsible)
   * holding the tables after it. The layout decided what is in it; this only
   * draws it. Fixed at the window's right edge; while it is open the chart is
   * laid out in the width left of it (Timeline.asideRoom), so it covers no bar.
   */
  function Aside(timeline, items) {
    var self = this;
    this.timeline = timeline;
    this.drawer = window.innerWidth < DRAWER_BELOW_CSS_PX;
    this.open = !this.drawer;
    this.markedRow = -1;
    this.panel = element('aside', 'rli-aside');
    this.panel.setAttribute('aria-label', 'Statistics');
    var bar = element('div', 'rli-aside-bar');
    bar.appendChild(element('span', 'rli-aside-title', 'Statistics'));
    var close = element('button', 'rli-aside-close', '\u00d7');
    close.type = 'button';
    close.title = 'Close the statistics';
    close.setAttribute('aria-label', 'Close the statistics');
    close.addEventListener('click', function () { self.setOpen(false); });
    bar.appendChild(close);
    this.panel.appendChild(bar);
    this.body = element('div', 'rli-aside-body');
    this.panel.appendChild(this.body);
    this.sections = [];
    this.links = [];
    var section = null;
    /* each time column in one unit across the roles' tables (timeline_table.js) */
    if (parts.asideTables) items = parts.asideTables.unifyUnits(items);
    items.forEach(function (item) {
      if (item.heading !== undefined) {
        section = element('details', 'rli-aside-section');
        section.open = true;
        section.appendChild(element('summary', null, item.heading));
        self.body.appendChild(section);
        self.sections.push(section);
      } else if (item.header) {
        (section || self.body).appendChild(self.buildTable(item));
      }
    });
    document.body.appendChild(this.panel);

    this.mark = element('div', 'rli-row-mark');
    timeline.stage.appendChild(this.mark);

    /* the toolbar's switch, which says whether the panel is open */
    var toolbar = timeline.app.querySelector('.rli-toolbar');
    var group = element('div', 'rli-group');
    this.toggle = element('button', null, 'Statistics');
    this.toggle.type = 'button';
    this.toggle.dataset.action = 'statistics';
    this.toggle.addEventListener('click', function () { self.setOpen(!self.open); });
    group.appendChild(this.toggle);
    toolbar.appendChild(group);

    timeline.asideRoom = function () { return self.open && !self.drawer ? self.width() + GAP_CSS_PX : 0; };
    window.addEventListener('resize', function () {
      var drawer = window.innerWidth < DRAWER_BELOW_CSS_PX;
      /* crossing the width: beside the chart it opens, as a drawer it starts closed */
      if (drawer !== self.drawer) { self.drawer = drawer; self.open = !drawer; }
      self.apply();
    });
    /* a drawer closes on Escape (the focus back on its button) and on a click beside it */
    this.panel.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && self.drawer && self.open) {
        event.stopPropagation();
        self.setOpen(false);
        self.toggle.focus();
      }
    });
    document.addEventListener('mousedown', function (event) {
      if (self.drawer && self.open && !self.panel.contains(event.target) && !self.toggle.contains(event.target)) self.setOpen(false);
    });
    this.apply();
  }

  /* What the open panel takes of the window's right: measured, so the chart's resize reads it as laid out now. */
  Aside.prototype.width = function () {
    var room = document.documentElement.clientWidth || window.innerWidth;
    return Math.max(0, room - this.panel.getBoundingClientRect().left);
  };

  /* One table: caption, header, rows; a row that names a rank has its rank as a link to the rank's row. */
  Aside.prototype.buildTable = function (item) {
    var self = this;
    var wrap = element('div', 'rli-aside-table');
    var table = element('table');
    if (item.caption) table.appendChild(element('caption', null, item.caption));
    var head = element('tr');
    item.header.forEach(function (text, c) {
      var th = element('th', item.align[c] === 'end' ? 'rli-num' : null, text);
      th.scope = 'col';
      head.appendChild(th);
    });
    var thead = element('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    var tbody = element('tbody');
    item.rows.forEach(function (cells, r) {
      var tr = element('tr', item.emphasis && item.emphasis[r] ? 'rli-finding' : null);
      var lane = item.lanes[r];
      cells.forEach(function (text, c) {
        var td = element('td', item.align[c] === 'end' ? 'rli-num' : null);
        if (lane >= 0 && c === item.linkColumn) {
          var link = element('a', 'rli-rank-link', text);
          var label = self.timeline.model.rows[lane] ? self.timeline.model.rows[lane].label : text;
          link.href = '#';
          link.title = 'Show ' + label + ' in the timeline';
          link.dataset.lane = String(lane);
          link.addEventListener('click', function (event) {
            event.preventDefault();
            self.showRow(lane);
          });
          self.links.push(link);
          td.appendChild(link);
        } else if (c === 0 && /_/.test(text)) {
          /* a long snake_case name breaks after its underscores before anywhere else */
          String(text).split(/(?<=_)/).forEach(function (piece, k) {
            if (k) td.appendChild(element('wbr'));
            td.appendChild(document.createTextNode(piece));
          });
        } else {
          td.textContent = text;
        }
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    wrap.appendChild(table);
    if (parts.asideTables) parts.asideTables.columnsOnDemand(wrap, table, item);
    if (item.note) wrap.appendChild(element('p', 'rli-aside-note', item.note));
    return wrap;
  };

  Aside.prototype.setOpen = function (open) {
    this.open = !!open;
    this.apply();
    this.timeline.resize();
    this.timeline.draw();
    if (this.open && this.drawer) this.panel.querySelector('.rli-aside-close').focus();
  };

  Aside.prototype.apply = function () {
    this.panel.style.display = this.open ? 'flex' : 'none';
    this.panel.classList.toggle('rli-drawer', this.drawer);
    this.panel.setAttribute('aria-modal', this.drawer ? 'true' : 'false');
    /* the toolbar and the summary under the chart wrap short of the panel too (a drawer covers them instead) */
    this.timeline.app.style.paddingRight = this.open && !this.drawer ? (APP_PAD_CSS_PX + this.width() + GAP_CSS_PX) + 'px' : '';
    this.toggle.classList.toggle('rli-active', this.open);
    this.toggle.title = this.open ? 'Hide the statistics panel' : 'Show the statistics panel: phases and steps per role, the slowest ranks';
    this.toggle.setAttribute('aria-expanded', this.open ? 'true' : 'false');
  };

  /*
   * Brings model row `lane` into the middle of the rows' band and marks it.
   * A filter that hides the row is cleared first: the reader asked for it.
   */
  Aside.prototype.showRow = function (lane) {
    var timeline = this.timeline;
    /* a drawer over the chart gets out of the way of the row it shows */
    if (this.drawer && this.open) this.setOpen(false);
    if (timeline.displayRows.indexOf(lane) < 0) timeline.setFilter('');
    var position = timeline.displayRows.indexOf(lane);
    if (position < 0) return false;
    var g = timeline.screen;
    this.markedRow = lane;
    timeline.setScroll(position * g.pitch - (g.plot[3] - g.pitch) / 2, false);
    timeline.draw();
    var stage = timeline.stage.getBoundingClientRect();
    if (stage.top < 0 || stage.bottom > window.innerHeight) timeline.stage.scrollIntoView({ block: 'nearest' });
    return true;
  };

  /* The mark over the marked row (its label and its bars), while the row shows in the band. */
  Aside.prototype.placeMark = function () {
    var timeline = this.timeline, g = timeline.screen, style = this.mark.style;
    var position = this.markedRow >= 0 ? timeline.displayRows.indexOf(this.markedRow) : -1;
    var top = g.rowsTop + position * g.pitch;
    if (position < 0 || top + g.pitch <= g.plot[1] || top >= g.plot[1] + g.plot[3]) {
      style.display = 'none';
      return;
    }
    var clippedTop = Math.max(top, g.plot[1]);
    style.display = 'block';
    style.left = '0px';
    style.width = (g.plot[0] + g.plot[2]) + 'px';
    style.top = clippedTop + 'px';
    style.height = (Math.min(top + g.pitch, g.plot[1] + g.plot[3]) - clippedTop) + 'px';
  };

  Aside.prototype.state = function () {
    return {
      open: this.open, drawer: this.drawer, width: this.open ? this.width() : 0, markedRow: this.markedRow,
      headings: this.sections.map(function (s) { return s.querySelector('summary').textContent; }),
      links: this.links.length
    };
  };

  /* Every draw moves the mark with the rows (scroll, zoom, order, filter). */
  var draw = Timeline.prototype.draw;
  Timeline.prototype.draw = function () {
    var elapsed = draw.call(this);
    if (this.aside) this.aside.placeMark();
    return elapsed;
  };

  parts.Aside = Aside;
})();
