/* legend.js: a page's legend above its chart: each series' name beside its colour (the layout's), a button that hides or shows it by click, Enter or Space. */
(function () {
  'use strict';

  var core = window.rliCore, element = core.element;

  /*
   * options.entries: [{name, color}] in the layout's order; options.hidden(i): whether entry i is
   * hidden now; options.toggle(i): hide or show it (the page redraws, then calls refresh()).
   * The legend is a group of toggle buttons (aria-pressed: shown), reachable by Tab.
   */
  function Legend(options) {
    var self = this;
    this.options = options;
    this.node = element('div', 'rli-series-legend');
    this.node.setAttribute('role', 'group');
    this.node.setAttribute('aria-label', options.label || 'Legend: click a name to hide or show it');
    if (options.title) this.node.appendChild(element('span', 'rli-series-legend-title', options.title));
    this.buttons = options.entries.map(function (entry, index) {
      var button = element('button', 'rli-series-legend-entry');
      var swatch = element('span', 'rli-series-legend-swatch');
      button.type = 'button';
      button.dataset.series = String(index);
      button.title = 'Hide or show ' + entry.name;
      swatch.style.background = entry.color;
      swatch.style.borderColor = entry.color;
      button.appendChild(swatch);
      button.appendChild(element('span', 'rli-series-legend-text', entry.name));
      /* a button takes Enter and Space by itself: both end in this click */
      button.addEventListener('click', function () { options.toggle(index); self.refresh(); });
      self.node.appendChild(button);
      return button;
    });
    this.refresh();
  }

  /* Each button as its series is: pressed while shown. */
  Legend.prototype.refresh = function () {
    var options = this.options;
    this.buttons.forEach(function (button, index) {
      var hidden = !!options.hidden(index);
      button.setAttribute('aria-pressed', hidden ? 'false' : 'true');
      button.classList.toggle('rli-off', hidden);
    });
  };

  /*
   * The timeline page's legend: every name the layout coloured, between the toolbar and the chart
   * (where the window shows it without scrolling), kept in step with the other ways to hide a name
   * (the "In view" table, the chart's own legend, the URL). Where the chart's own legend already
   * has a button for every name (the layout placed one: the rows do not say the names), that is
   * the legend, and this one would repeat it.
   */
  function forTimeline(timeline) {
    var model = timeline.model;
    if (!model.series || !model.series.length) return null;
    var own = (timeline.legendEntries || []).filter(function (e) { return e.swatch; }).length;
    if (own === model.series.length) return null;
    var legend = new Legend({
      entries: model.series,
      title: model.legendTitle && model.legendTitle.text ? model.legendTitle.text : 'Legend',
      hidden: function (i) { return timeline.hidden[i]; },
      toggle: function (i) { timeline.toggleSeries(i); }
    });
    timeline.app.insertBefore(legend.node, timeline.stage);
    var refreshButtons = timeline.refreshButtons;
    timeline.refreshButtons = function () {
      refreshButtons.apply(this, arguments);
      legend.refresh();
    };
    /* the chart below moved down by the legend's height: the stage fits the window again */
    timeline.resize();
    return legend;
  }

  /*
   * A memory page's legend: its named lines (the allocated curve, the allocator's reserved), above
   * the curve, where there are two or more of them; a hidden line is neither drawn nor counted in
   * the value axis. The canvas then leaves out the legend it paints in the plot's corner.
   */
  function forMemory(page) {
    var named = page.d.lines.filter(function (line) { return line.name; });
    if (named.length < 2) return null;
    var legend = new Legend({
      entries: named, title: 'Lines',
      label: 'Legend of the memory curve: click a line to hide or show it',
      hidden: function (i) { return !!named[i].hidden; },
      toggle: function (i) { named[i].hidden = !named[i].hidden; page.draw(); }
    });
    page.curveStage.parentNode.insertBefore(legend.node, page.curveStage);
    return legend;
  }

  window.rliLegend = { Legend: Legend, forTimeline: forTimeline, forMemory: forMemory };
})();
