/* gmm.js: the GMM heatmap page: draws the cells the spec carries, with hover, zoom, filters by step, role and rank, and a per-expert and per-layer profile on click. */
(function () {
  'use strict';
  var spec = JSON.parse(document.getElementById('rli-gmm-spec').textContent);
  var E = spec.experts, rows = spec.rows, loads = spec.loads;
  var STRIP = 200, BAR = 80;

  function el(tag, cls, parent, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function fmt(v) { return v === null || !isFinite(v) ? 'no load' : Math.round(v * 1000) / 1000 + ''; }
  function rank(r) { return spec.merged ? 'all ranks (summed)' : 'rank ' + r.rank; }

  /* The layout's colour for a load: the map's 256 steps over [lo, hi]; no load is white. */
  function color(v) {
    if (v === null || !isFinite(v)) return [255, 255, 255];
    var i = Math.floor((v - spec.lo) / (spec.hi - spec.lo) * 256);
    var c = spec.colors[i < 0 ? 0 : i > 255 ? 255 : i];
    return [parseInt(c.substr(1, 2), 16), parseInt(c.substr(3, 2), 16), parseInt(c.substr(5, 2), 16)];
  }

  el('h1', null, document.body, spec.title);
  var controls = el('div', 'rli-gmm-controls', document.body);
  var filters = {};
  ['step', 'role', 'rank'].forEach(function (key) {
    if (key === 'rank' && spec.merged) return;
    var label = el('label', null, controls, key + ' ');
    var select = el('select', null, label);
    select.setAttribute('data-filter', key);
    el('option', null, select, 'all').value = '';
    var seen = {};
    rows.forEach(function (r) {
      if (!seen[r[key]]) { seen[r[key]] = 1; el('option', null, select, String(r[key])).value = String(r[key]); }
    });
    select.addEventListener('change', apply);
    filters[key] = select;
  });
  var reset = el('button', null, controls, 'Reset zoom');
  var status = el('span', 'rli-gmm-status', controls);
  el('div', 'rli-gmm-hint', document.body,
     'Wheel: zoom; drag: pan; double-click: reset; click a cell for its expert\'s and its layer\'s profiles.');
  var main = el('div', 'rli-gmm-main', document.body);
  var strip = el('canvas', 'rli-gmm-strip', main);
  var heat = el('canvas', 'rli-gmm-heat', main);
  var bar = el('div', 'rli-gmm-bar', main);
  el('span', null, bar, fmt(spec.hi));
  var scale = el('div', 'rli-gmm-bar-scale', bar);
  scale.style.background = 'linear-gradient(to top, ' + spec.colors.join(', ') + ')';
  el('span', null, bar, fmt(spec.lo));
  var tip = el('div', 'rli-gmm-tip', main);
  var profiles = el('div', 'rli-gmm-profiles', document.body);

  var visible = [], source = null, view = null, picked = null;

  function apply() {
    visible = [];
    rows.forEach(function (r, j) {
      for (var key in filters) if (filters[key].value !== '' && String(r[key]) !== filters[key].value) return;
      visible.push(j);
    });
    source = document.createElement('canvas');
    source.width = E;
    source.height = Math.max(visible.length, 1);
    var ctx = source.getContext('2d'), image = ctx.createImageData(E, source.height);
    visible.forEach(function (j, y) {
      for (var e = 0; e < E; e++) {
        var c = color(loads[j * E + e]), o = (y * E + e) * 4;
        image.data[o] = c[0]; image.data[o + 1] = c[1]; image.data[o + 2] = c[2]; image.data[o + 3] = 255;
      }
    });
    ctx.putImageData(image, 0, 0);
    view = { x0: 0, x1: E, y0: 0, y1: visible.length };
    status.textContent = visible.length + ' of ' + rows.length + ' rows';
    draw();
  }

  function size() {
    var w = Math.max(300, window.innerWidth - STRIP - BAR - 60);
    var h = Math.max(300, Math.min(window.innerHeight - 160, Math.max(visible.length * 14, 300)));
    [strip, heat].forEach(function (c) { c.height = h; c.style.height = h + 'px'; });
    strip.width = STRIP; heat.width = w;
  }

  function draw() {
    size();
    var ctx = heat.getContext('2d'), W = heat.width, H = heat.height;
    ctx.clearRect(0, 0, W, H);
    if (!visible.length) return;
    var sw = view.x1 - view.x0, sh = view.y1 - view.y0;
    /* Cells a pixel and more drawn sharp; smaller ones averaged into the pixels they share. */
    ctx.imageSmoothingEnabled = sw > W || sh > H;
    ctx.drawImage(source, view.x0, view.y0, sw, sh, 0, 0, W, H);
    var s = strip.getContext('2d'), rowH = H / sh, last = -1;
    s.clearRect(0, 0, STRIP, H);
    s.font = '11px sans-serif'; s.textBaseline = 'middle';
    var first = Math.floor(view.y0), end = Math.ceil(view.y1), y;
    /* The bands first, then the texts over them: a segment's name may run into the rows below its first. */
    for (y = first; y < end; y++) {
      s.fillStyle = rows[visible[y]].strip;
      s.fillRect(0, (y - view.y0) * rowH, STRIP, rowH + 1);
    }
    for (y = first; y < end; y++) {
      var r = rows[visible[y]], top = (y - view.y0) * rowH;
      if (r.segment !== last && rowH * 3 > 12) {
        s.fillStyle = '#000';
        s.fillText("st" + r.step + " \u00b7 " + r.role + (spec.merged ? "" : " \u00b7 r" + r.rank), 4,
                   top + Math.min(rowH * 1.5, 20), STRIP - 54);
      }
      last = r.segment;
      if (rowH > 9) { s.fillStyle = '#2a3f5f'; s.fillText('layer' + r.layer, STRIP - 42, top + rowH / 2); }
    }
  }

  function cellAt(px, py) {
    if (!visible.length) return null;
    var e = Math.floor(view.x0 + px / heat.width * (view.x1 - view.x0));
    var y = Math.floor(view.y0 + py / heat.height * (view.y1 - view.y0));
    if (e < 0 || e >= E || y < 0 || y >= visible.length) return null;
    var j = visible[y], r = rows[j], v = loads[j * E + e];
    return { row: j, expert: e, load: v, step: r.step, role: r.role, rank: r.rank, layer: r.layer,
             share: r.total > 0 && v !== null ? v / r.total : null, ratio: r.mean > 0 && v !== null ? v / r.mean : null };
  }

  function describe(c) {
    return 'step ' + c.step + ' \u00b7 ' + c.role + ' \u00b7 ' + rank(c) + ' \u00b7 layer' + c.layer + '\n' +
      'expert ' + c.expert + ': ' + fmt(c.load) + ' tokens\n' +
      'share of the layer\'s tokens: ' + (c.share === null ? '-' : (c.share * 100).toFixed(1) + '%') + '\n' +
      'ratio to the layer\'s mean: ' + (c.ratio === null ? '-' : c.ratio.toFixed(2) + 'x');
  }

  function mouse(ev) { var b = heat.getBoundingClientRect(); return { x: ev.clientX - b.left, y: ev.clientY - b.top }; }
  var drag = null;
  heat.addEventListener('mousemove', function (ev) {
    var m = mouse(ev);
    if (drag) {
      var dx = (drag.x - m.x) / heat.width * (view.x1 - view.x0), dy = (drag.y - m.y) / heat.height * (view.y1 - view.y0);
      pan(dx, dy); drag = m; drag.moved = true; draw();
    }
    var c = cellAt(m.x, m.y);
    if (!c) { tip.style.display = 'none'; return; }
    tip.textContent = describe(c);
    tip.style.display = 'block';
    tip.style.left = (STRIP + 16 + m.x) + 'px';
    tip.style.top = (m.y + 16) + 'px';
  });
  heat.addEventListener('mouseleave', function () { tip.style.display = 'none'; drag = null; });
  heat.addEventListener('mousedown', function (ev) { drag = mouse(ev); });
  heat.addEventListener('mouseup', function (ev) {
    var moved = drag && drag.moved;
    drag = null;
    if (!moved) { var m = mouse(ev); var c = cellAt(m.x, m.y); if (c) profile(c); }
  });
  heat.addEventListener('dblclick', function () { view = { x0: 0, x1: E, y0: 0, y1: visible.length }; draw(); });
  reset.addEventListener('click', function () { view = { x0: 0, x1: E, y0: 0, y1: visible.length }; draw(); });
  function pan(dx, dy) {
    var w = view.x1 - view.x0, h = view.y1 - view.y0;
    view.x0 = Math.max(0, Math.min(E - w, view.x0 + dx)); view.x1 = view.x0 + w;
    view.y0 = Math.max(0, Math.min(visible.length - h, view.y0 + dy)); view.y1 = view.y0 + h;
  }
  heat.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var m = mouse(ev), k = ev.deltaY < 0 ? 0.8 : 1.25;
    var fx = view.x0 + m.x / heat.width * (view.x1 - view.x0), fy = view.y0 + m.y / heat.height * (view.y1 - view.y0);
    var w = Math.min(E, Math.max(1, (view.x1 - view.x0) * k)), h = Math.min(visible.length, Math.max(1, (view.y1 - view.y0) * k));
    view.x0 = fx - (fx - view.x0) * w / (view.x1 - view.x0); view.x1 = view.x0 + w;
    view.y0 = fy - (fy - view.y0) * h / (view.y1 - view.y0); view.y1 = view.y0 + h;
    pan(0, 0);
    draw();
  }, { passive: false });

  /* Bars of values on a small canvas: the expert down the visible rows, or the row across the experts. */
  function bars(title, values) {
    var fig = el('figure', null, profiles), W = 560, H = 160, max = 0;
    el('figcaption', null, fig, title);
    var c = el('canvas', null, fig), ctx = c.getContext('2d');
    c.width = W; c.height = H;
    values.forEach(function (v) { if (v !== null && v > max) max = v; });
    ctx.fillStyle = '#4e79a7';
    values.forEach(function (v, i) {
      if (v === null || !max) return;
      var h = v / max * (H - 16), x = i * W / values.length;
      ctx.fillRect(x, H - h, Math.max(1, W / values.length - 1), h);
    });
    ctx.fillStyle = '#2a3f5f'; ctx.font = '11px sans-serif'; ctx.fillText('max ' + fmt(max), 4, 11);
  }
  function profile(c) {
    picked = c;
    profiles.textContent = '';
    bars('Expert ' + c.expert + ' across the ' + visible.length + ' rows shown',
         visible.map(function (j) { return loads[j * E + c.expert]; }));
    bars('step ' + c.step + ' \u00b7 ' + c.role + ' \u00b7 ' + rank(c) + ' \u00b7 layer' + c.layer + ' across the ' + E + ' experts',
         loads.slice(c.row * E, c.row * E + E));
  }

  window.addEventListener('resize', draw);
  window.rliGmm = { cellAt: cellAt, describe: describe, visible: function () { return visible.slice(); },
                    view: function () { return view; }, picked: function () { return picked; } };
  apply();
})();
