/* timeline_table.js: the statistics panel's tables as a reader takes them: one time unit per column across roles, the columns that fit, the rest on demand. */
(function () {
  'use strict';

  var core = window.rliCore, element = core.element;
  var parts = window.rliTimelineParts;

  var UNIT_MS = { ms: 1, s: 1e3, min: 60e3 };
  var UNIT_RE = /\s*\((ms|s|min)\)\s*$/;

  /*
   * The columns a narrow panel leaves out until asked (by the header's text without its unit): the
   * spread and the quartiles of a phase, a step's rank count and modified z, the pairs behind a gap.
   */
  var EXTRA = ['Median', 'Min', 'Std dev', 'Q1', 'Q3', 'Min rank', 'Dispersion', 'Ranks', 'Modified z', 'Gaps',
    'Between', 'Waits', 'Outlier in (steps)'];

  function base(header) { return String(header).replace(UNIT_RE, ''); }
  function unitOf(header) { var m = UNIT_RE.exec(String(header)); return m ? m[1] : null; }
  function number(text) {
    var plain = String(text).replace(/,/g, '').trim();
    return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : NaN;
  }

  /*
   * Tables of one kind (the same columns, up to their units: each role's "phases across ranks") share
   * each time column's unit: the one the largest value of the column in any of them reads best in, so
   * "Total (s)" never stands beside "Total (ms)". Returns copies; the layout's items are left alone.
   */
  function unifyUnits(items) {
    var kinds = new Map();
    var out = items.map(function (item) {
      if (!item.header) return item;
      var copy = {};
      for (var key in item) copy[key] = item[key];
      copy.header = item.header.slice();
      copy.rows = item.rows.map(function (cells) { return cells.slice(); });
      var signature = copy.header.map(base).join('\u0000');
      if (!kinds.has(signature)) kinds.set(signature, []);
      kinds.get(signature).push(copy);
      return copy;
    });
    kinds.forEach(function (tables) {
      tables[0].header.forEach(function (unused, c) {
        var units = tables.map(function (t) { return unitOf(t.header[c]); });
        if (units.some(function (u) { return !u; })) return;
        var largest = 0;
        tables.forEach(function (t, k) {
          t.rows.forEach(function (cells) {
            var v = number(cells[c]);
            if (isFinite(v)) largest = Math.max(largest, Math.abs(v) * UNIT_MS[units[k]]);
          });
        });
        var unit = core.durationUnit(largest), top = largest / unit.ms;
        var decimals = top < 10 ? 3 : top < 1000 ? 2 : 0;
        if (unit.name === 'ms' && top >= 100) decimals = 0;
        tables.forEach(function (t, k) {
          if (units[k] === unit.name && units.every(function (u) { return u === unit.name; })) return;
          t.header[c] = base(t.header[c]) + ' (' + unit.name + ')';
          t.rows.forEach(function (cells) {
            var v = number(cells[c]);
            if (isFinite(v)) cells[c] = core.fmtThousands(v * UNIT_MS[units[k]] / unit.ms, decimals);
          });
        });
      });
    });
    return out;
  }

  /* Marks a built table's extra columns and gives it a switch that shows them, when it has any. */
  function columnsOnDemand(wrap, table, item) {
    var extra = item.header.map(function (h) { return EXTRA.indexOf(base(h)) >= 0; });
    var count = extra.filter(Boolean).length;
    if (!count || count === item.header.length) return;
    Array.prototype.forEach.call(table.querySelectorAll('tr'), function (tr) {
      Array.prototype.forEach.call(tr.children, function (cell, c) { if (extra[c]) cell.classList.add('rli-extra'); });
    });
    var button = element('button', 'rli-columns');
    button.type = 'button';
    function set(all) {
      wrap.classList.toggle('rli-all-columns', all);
      button.textContent = all ? 'Fewer columns' : 'All ' + item.header.length + ' columns';
      button.setAttribute('aria-expanded', all ? 'true' : 'false');
      button.title = all ? 'Show only the main columns' : 'Show the ' + count + ' more columns: ' +
        item.header.filter(function (h, c) { return extra[c]; }).join(', ');
    }
    button.addEventListener('click', function () { set(!wrap.classList.contains('rli-all-columns')); });
    set(false);
    wrap.insertBefore(button, table.nextSibling);
  }

  parts.asideTables = { unifyUnits: unifyUnits, columnsOnDemand: columnsOnDemand, EXTRA: EXTRA };
})();
