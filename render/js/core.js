/* core.js: what every rl-insight page shares: reading the embedded model, decoding bars, ticks, text, colours, coverage. */
window.rliCore = (function () {
  'use strict';

  function readJson(id) {
    var element = document.getElementById(id);
    return JSON.parse(element.textContent);
  }

  function decodeBase64(text) {
    var binary = atob(text);
    var length = binary.length;
    var bytes = new Uint8Array(length);
    for (var i = 0; i < length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  /*
   * Base 85 in Z85's alphabet as html_bytes.c writes it: five digits a group of four bytes, and a
   * last group of n bytes as n + 1 digits, read padded with the highest digit.
   */
  var BASE85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
  var base85Value = null;

  function decodeBase85(text) {
    var length = text.length, groups = Math.floor(length / 5), rest = length % 5;
    if (rest === 1) throw new Error('The data of this page is cut short: keep the files of a run as it wrote them.');
    if (!base85Value) {
      base85Value = new Int8Array(128).fill(-1);
      for (var d = 0; d < 85; d++) base85Value[BASE85.charCodeAt(d)] = d;
    }
    var bytes = new Uint8Array(groups * 4 + (rest ? rest - 1 : 0));
    var at = 0, out = 0;
    function digit() {
      var code = text.charCodeAt(at++), value = code < 128 ? base85Value[code] : -1;
      if (value < 0) throw new Error('The data of this page holds a character base 85 does not: it was changed after it was written.');
      return value;
    }
    for (var g = 0; g < groups; g++) {
      var v = digit();
      for (var k = 1; k < 5; k++) v = v * 85 + digit();
      bytes[out++] = v >>> 24 & 255; bytes[out++] = v >>> 16 & 255; bytes[out++] = v >>> 8 & 255; bytes[out++] = v & 255;
    }
    if (rest) {
      var w = 0;
      for (var j = 0; j < 5; j++) w = w * 85 + (j < rest ? digit() : 84);
      for (var b = 0; b < rest - 1; b++) bytes[out++] = w >>> (24 - 8 * b) & 255;
    }
    return bytes;
  }

  /*
   * Bytes the writer deflated and wrote as base64, or base85 when asked (html_bytes.c), inflated
   * by the browser: a promise of a Uint8Array. Browsers before DecompressionStream (Chrome 80,
   * Firefox 113, Safari 16.4) are told so rather than shown an empty page.
   */
  function unpack(text, encoding) {
    if (typeof DecompressionStream === 'undefined' || typeof Response === 'undefined') {
      return Promise.reject(new Error('This page needs a browser that can inflate its data (DecompressionStream: ' +
        'Chrome or Edge 80, Firefox 113, Safari 16.4 or later).'));
    }
    var bytes;
    try {
      bytes = encoding === 'base85' ? decodeBase85(text) : decodeBase64(text);
    } catch (error) {
      return Promise.reject(error);
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Response(stream).arrayBuffer().then(function (buffer) { return new Uint8Array(buffer); });
  }

  /* The UTF-8 text of bytes. */
  function utf8(bytes) {
    return new TextDecoder('utf-8').decode(bytes);
  }

  /* ---- the bars: runs of (row, series), times exact, prefix max of ends per run ---- */

  function decodeBars(spec, rowCount) {
    var runBytes = decodeBase64(spec.runs);
    var data = decodeBase64(spec.data);
    var runCount = spec.runCount, count = spec.count;
    var runRow = new Uint32Array(runCount), runSeries = new Uint32Array(runCount);
    var runFirst = new Uint32Array(runCount + 1);
    var pos = 0, i, r;

    function varint(bytes) {
      var value = 0, factor = 1, byte;
      do {
        byte = bytes[pos++];
        value += (byte & 127) * factor;
        factor *= 128;
      } while (byte & 128);
      return value;
    }

    var first = 0;
    for (r = 0; r < runCount; r++) {
      runRow[r] = varint(runBytes);
      runSeries[r] = varint(runBytes);
      runFirst[r] = first;
      first += varint(runBytes);
    }
    runFirst[runCount] = first;
    if (first !== count) throw new Error('rl-insight: bar runs do not add up');

    var start = new Float64Array(count), end = new Float64Array(count), maxEnd = new Float64Array(count);
    if (spec.encoding === 'grid') {
      var unit = Math.pow(2, -spec.gridBits);
      pos = 0;
      for (r = 0; r < runCount; r++) {
        var previous = 0, stop = runFirst[r + 1];
        for (i = runFirst[r]; i < stop; i++) {
          /* zigzag varints, decoded with arithmetic: the writer keeps codes below 2^53, past 32 bits */
          var z = 0, f = 1, b;
          do { b = data[pos++]; z += (b & 127) * f; f *= 128; } while (b & 128);
          var n = previous + (z % 2 ? -(z + 1) / 2 : z / 2);
          z = 0; f = 1;
          do { b = data[pos++]; z += (b & 127) * f; f *= 128; } while (b & 128);
          var m = n + (z % 2 ? -(z + 1) / 2 : z / 2);
          start[i] = n * unit;
          end[i] = m * unit;
          previous = n;
        }
      }
    } else {
      var floats = new Float64Array(data.buffer, data.byteOffset, count * 2);
      for (i = 0; i < count; i++) {
        start[i] = floats[2 * i];
        end[i] = floats[2 * i + 1];
      }
    }
    for (r = 0; r < runCount; r++) {
      var running = -Infinity;
      for (i = runFirst[r]; i < runFirst[r + 1]; i++) {
        if (end[i] > running) running = end[i];
        maxEnd[i] = running;
      }
    }
    var rowRuns = [];
    for (r = 0; r < rowCount; r++) rowRuns.push([]);
    for (r = 0; r < runCount; r++) rowRuns[runRow[r]].push(r);
    return {
      count: count, runSeries: runSeries, runFirst: runFirst, rowRuns: rowRuns,
      start: start, end: end, maxEnd: maxEnd
    };
  }

  /* First index in [lo, hi) with array[index] >= value (array ascending there). */
  function lowerBound(array, lo, hi, value) {
    while (lo < hi) {
      var mid = (lo + hi) >>> 1;
      if (array[mid] < value) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /* First index in [lo, hi) with array[index] > value. */
  function upperBound(array, lo, hi, value) {
    while (lo < hi) {
      var mid = (lo + hi) >>> 1;
      if (array[mid] <= value) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /* ---- ticks: the same 1/2/5 x 10^k rule as rli_nice_ticks and rli_time_ticks in the C layout ---- */

  /* value rounded to decimals places, ',' every three digits of the integer part (rli_fmt_thousands). */
  function fmtThousands(value, decimals) {
    var text = value.toFixed(decimals);
    if (/^-0(\.0*)?$/.test(text)) text = text.slice(1);
    var sign = text[0] === '-' ? '-' : '', body = sign ? text.slice(1) : text;
    var dot = body.indexOf('.'), integer = dot < 0 ? body : body.slice(0, dot);
    return sign + integer.replace(/\B(?=(\d{3})+$)/g, ',') + (dot < 0 ? '' : body.slice(dot));
  }

  /* ms below 10 s, s below 10 min, min from there (rli_time_unit_for). */
  function timeUnitFor(spanMs) {
    var span = Math.abs(spanMs);
    if (!(span >= 10e3) || !isFinite(span)) return { name: 'ms', ms: 1 };
    if (span < 600e3) return { name: 's', ms: 1e3 };
    return { name: 'min', ms: 60e3 };
  }

  /* Ticks of [lo, hi] counted in unitMs: values in ms, labels in the unit, plain or with separators. */
  function ticksInUnit(lo, hi, target, max, unitMs, separators) {
    if (!isFinite(lo) || !isFinite(hi) || hi < lo || !(unitMs > 0)) return [];
    if (target < 1) target = 1;
    lo /= unitMs;
    hi /= unitMs;
    if (hi === lo) return [{ value: lo * unitMs, label: String(lo) }];
    var raw = (hi - lo) / target;
    var magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 5, 10], step = 0, decimals = 0;
    for (var i = 0; i < steps.length; i++) {
      step = steps[i] * magnitude;
      if (step >= raw * (1 - 1e-9)) break;
    }
    if (step < 1) decimals = Math.min(15, Math.ceil(-Math.log10(step) - 1e-9));
    var first = Math.ceil(lo / step - 1e-9), last = Math.floor(hi / step + 1e-9);
    var ticks = [];
    for (var k = first; k <= last && ticks.length < max; k++) {
      var value = k * step;
      if (value === 0) value = 0;
      var label = separators ? fmtThousands(value, decimals) : value.toFixed(decimals);
      if (/^-0(\.0*)?$/.test(label)) label = label.slice(1);
      ticks.push({ value: value * unitMs, label: label });
    }
    return ticks;
  }

  function niceTicks(lo, hi, target, max) {
    return ticksInUnit(lo, hi, target, max, 1, false);
  }

  /* A time axis of [lo, hi] ms in the unit the span reads best in, and its title. */
  function timeTicks(lo, hi, target, max) {
    var unit = timeUnitFor(hi - lo);
    return { unit: unit, title: 'Time (' + unit.name + ')', ticks: ticksInUnit(lo, hi, target, max, unit.ms, true) };
  }

  function formatMs(value) {
    var text = value.toFixed(3);
    return text === '-0.000' ? '0.000' : text;
  }

  /* The timeline filter that keeps exactly (role, rank)'s row: "actor rank 3", a role with spaces quoted. */
  function rowFilterText(role, rank) {
    var name = /^[^\s"\/,]+$/.test(role) && !/^rank$/i.test(role) ? role : '"' + String(role).replace(/"/g, '\\"') + '"';
    return name + ' rank ' + rank;
  }

  /* ---- times and sizes as every page writes them: from the run's t = 0, in a unit, separated ---- */

  var TIME_UNITS = { us: 1e-3, '\u00b5s': 1e-3, ms: 1, s: 1e3, min: 60e3 };

  /* The decimals a time shows in its unit: microseconds in ms, milliseconds in s, a tenth of a second in min. */
  function timeDecimals(unit) { return unit.ms >= 60e3 ? 2 : 3; }

  /* ms from t = 0 in `unit` (timeUnitFor), with separators: "1,234.567". */
  function fmtTime(ms, unit) {
    return fmtThousands(ms / unit.ms, timeDecimals(unit));
  }

  /* The same with the unit's name: "1,234.567 ms". */
  function fmtTimeUnit(ms, unit) {
    return fmtTime(ms, unit) + ' ' + unit.name;
  }

  /* A duration in the unit it reads best in alone (ms below 1 s, s below 10 min, then min), as rli_fmt_duration. */
  function durationUnit(ms) {
    var unit = timeUnitFor(ms);
    if (Math.abs(ms) >= 1e3 && Math.abs(ms) < 600e3) unit = { name: 's', ms: 1e3 };
    return unit;
  }
  function fmtDuration(ms) {
    return fmtTimeUnit(ms, durationUnit(ms));
  }

  /* KB below 1 MB, MB below 10 GB, GB from there (rli_size_unit_for): the unit of a memory axis up to maxMb. */
  function sizeUnitFor(maxMb) {
    var top = Math.abs(maxMb);
    if (!(top >= 1) || !isFinite(top)) return { name: 'KB', mb: 1 / 1024 };
    if (top < 10240) return { name: 'MB', mb: 1 };
    return { name: 'GB', mb: 1024 };
  }

  /* A size in MB in `unit` with its name: "1,261.04 MB", "205.08 GB". */
  function fmtSize(mb, unit, decimals) {
    unit = unit || sizeUnitFor(mb);
    return fmtThousands(mb / unit.mb, decimals === undefined ? 2 : decimals) + ' ' + unit.name;
  }

  /* Ticks of [lo, hi] counted in `unit` (a size axis in MB, labelled in GB: 1024), as rli_unit_ticks. */
  function unitTicks(lo, hi, target, max, unit) {
    return ticksInUnit(lo, hi, target, max, unit, true);
  }

  /*
   * A time typed into a box, in ms from t = 0: a number in `unit` (the axis's, which the box says),
   * or with its own unit ("1.5 s", "250ms", "2 min", "40 us"); separators and spaces are allowed.
   * {ms} or {error: what is wrong, in words}.
   */
  function parseTime(text, unit, what) {
    var typed = String(text == null ? '' : text).trim(), name = what || 'The time';
    if (!typed) return { error: name + ' is empty: type a time in ' + unit.name + ', or with its unit (ms, s, min)' };
    var match = /^([-+]?(?:\d[\d,\u202f ]*)?(?:\.\d*)?(?:e[-+]?\d+)?)\s*([a-z\u00b5]*)$/i.exec(typed);
    var number = match ? match[1].replace(/[,\u202f ]/g, '') : '';
    var suffix = match ? match[2].toLowerCase() : '';
    if (!match || !/\d/.test(number) || !isFinite(Number(number)))
      return { error: name + ' \u201c' + typed + '\u201d is not a time: type a number of ' + unit.name +
        ', or add its unit (ms, s, min)' };
    if (suffix && !(suffix in TIME_UNITS))
      return { error: name + ': \u201c' + match[2] + '\u201d is not a unit of time; use ms, s or min' };
    return { ms: Number(number) * (suffix ? TIME_UNITS[suffix] : unit.ms) };
  }

  function cssFontFamily(list) {
    var names = String(list || '').split(',').map(function (s) { return s.trim(); }).filter(Boolean);
    return names.map(function (s) { return JSON.stringify(s); }).concat(['sans-serif']).join(', ');
  }

  function parseColor(hex) {
    var value = parseInt(String(hex).slice(1), 16) || 0;
    return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* ---- the per-column coverage of bars thinner than a pixel (as render/lod.c) ---- */

  function growFloat64(array) {
    var grown = new Float64Array(array.length * 2);
    grown.set(array);
    return grown;
  }

  function addCoverage(coverage, width, from, to) {
    if (from < 0) from = 0;
    if (to > width) to = width;
    if (to <= from) return;
    var first = Math.floor(from), last = Math.floor(to);
    if (first === last) {
      coverage[first] += to - from;
      return;
    }
    coverage[first] += first + 1 - from;
    for (var c = first + 1; c < last; c++) coverage[c] += 1;
    if (last < width) coverage[last] += to - last;
  }

  return {
    readJson: readJson, decodeBase64: decodeBase64, unpack: unpack, utf8: utf8, decodeBars: decodeBars,
    lowerBound: lowerBound, upperBound: upperBound, niceTicks: niceTicks, timeTicks: timeTicks,
    timeUnitFor: timeUnitFor, fmtThousands: fmtThousands, formatMs: formatMs,
    fmtTime: fmtTime, fmtTimeUnit: fmtTimeUnit, fmtDuration: fmtDuration, durationUnit: durationUnit,
    sizeUnitFor: sizeUnitFor, fmtSize: fmtSize, unitTicks: unitTicks, parseTime: parseTime,
    rowFilterText: rowFilterText,
    cssFontFamily: cssFontFamily, parseColor: parseColor, element: element,
    growFloat64: growFloat64, addCoverage: addCoverage
  };
})();
