/* xrange.js: the x-range controller of the shared core: one visible span that several panels follow, each told of every change. */
window.rliCore.XRange = (function () {
  'use strict';

  /*
   * lo..hi is the span in view; min..max the span there is data for. A
   * change goes to every listener with the source that made it, so a panel
   * can skip redrawing what it drew itself. Spans are kept at least
   * minSpan wide (1 µs) and inside min..max, never wider.
   */
  function XRange(lo, hi, min, max) {
    this.min = min;
    this.max = max > min ? max : min + 1;
    /* the closest zoom: a microsecond, or the whole span when it is shorter */
    this.minSpan = Math.min(1e-3, this.max - this.min);
    this.lo = lo;
    this.hi = hi;
    this.listeners = [];
  }

  XRange.prototype.listen = function (listener) { this.listeners.push(listener); };

  XRange.prototype.set = function (lo, hi, source) {
    if (!isFinite(lo) || !isFinite(hi)) return false;
    if (hi - lo < this.minSpan) {
      var mid = (lo + hi) / 2;
      lo = mid - this.minSpan / 2;
      hi = mid + this.minSpan / 2;
    }
    var span = hi - lo;
    if (span <= this.max - this.min) {
      if (lo < this.min) { lo = this.min; hi = lo + span; }
      if (hi > this.max) { hi = this.max; lo = hi - span; }
    } else {
      lo = this.min;
      hi = this.max;
    }
    if (lo === this.lo && hi === this.hi) return false;
    this.lo = lo;
    this.hi = hi;
    for (var i = 0; i < this.listeners.length; i++) this.listeners[i](lo, hi, source);
    return true;
  };

  /* factor > 1 zooms out around x, < 1 in. */
  XRange.prototype.zoomAt = function (x, factor, source) {
    return this.set(x - (x - this.lo) * factor, x + (this.hi - x) * factor, source);
  };

  XRange.prototype.panBy = function (dx, source) {
    var span = this.hi - this.lo;
    var lo = Math.min(Math.max(this.lo + dx, this.min), this.max - span);
    return this.set(lo, lo + span, source);
  };

  return XRange;
})();
