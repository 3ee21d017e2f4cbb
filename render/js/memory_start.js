/* memory_start.js: starts a memory page once its model and data are inflated: the view from the link's #range, the test hook. */
(function () {
  'use strict';

  var core = window.rliCore, MemoryPage = window.rliMemoryPage;

  function fail(text) {
    var note = core.element('p', 'rli-load-error', text);
    document.body.appendChild(note);
  }

  function show(model, data) {
    var page = new MemoryPage(model, data);
    page.buildDom();
    /* with several named lines (Allocated, Reserved), their legend above the curve, a button each (legend.js) */
    if (window.rliLegend) page.seriesLegend = window.rliLegend.forMemory(page);
    page.resize();
    page.range.listen(function () { page.syncRange(); page.draw(); });
    page.bindInput();
    /* A link (a Go, the timeline's) carries the view it was followed from; a reload and Back the view left. */
    page.applyView(MemoryPage.readView(window.location.hash));
    page.syncRange();
    page.draw();
    window.rliMemory = page;
  }

  /* The model is packed in the page, the data in the file beside it (html_pages.c, html_memory_data.c). */
  function start() {
    var packed = window.rliMemoryData, unstarted = document.getElementById('rli-unstarted');
    if (unstarted) unstarted.remove();
    core.unpack(document.getElementById('rli-model').textContent).then(function (bytes) {
      var model = JSON.parse(core.utf8(bytes));
      if (!packed || packed.page !== model.page || packed.version !== 3 || typeof packed.packed !== 'string') {
        throw new Error('The data of this page (' + model.data + ') is missing or belongs to another page: keep ' +
          'the files of a run together in one folder.');
      }
      return core.unpack(packed.packed, 'base85').then(function (data) { show(model, MemoryPage.unpackData(data)); });
    }).catch(function (error) { fail(error.message); });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
