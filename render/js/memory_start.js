/* memory_start.js: starts a memory page once its data file has loaded: the view from the link's #range, the test hook. */
(function () {
  'use strict';

  var MemoryPage = window.rliMemoryPage;

  function fail(text) {
    var note = window.rliCore.element('p', 'rli-load-error', text);
    document.body.appendChild(note);
  }

  function start() {
    var model = window.rliCore.readJson('rli-model'), data = window.rliMemoryData;
    if (!data || data.page !== model.page) {
      fail('The data of this page (' + model.data + ') is missing or belongs to another page: keep the files of a ' +
        'run together in one folder.');
      return;
    }
    var page = new MemoryPage(model, data);
    page.buildDom();
    page.resize();
    /* A "Go" link carries the view it was followed from. */
    var match = /#range=([-0-9.e+]+),([-0-9.e+]+)/.exec(window.location.hash);
    if (match) page.range.set(Number(match[1]), Number(match[2]), 'link');
    page.range.listen(function () { page.syncRange(); page.draw(); });
    page.bindInput();
    page.syncRange();
    page.draw();
    window.rliMemory = page;
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
