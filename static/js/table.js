/* The phone at the table: the modules by job, wired, on a game's, an evening's and a circle's
   page alike (each has the bar, templates/scorepad/_phone_bar.html; only a game's sheet holds
   a deal form, scrolls to its newest deal and offers to keep the screen on). Each module has
   its design in its header:
   static/js/outbox.js (the outbox itself: what is kept, sent, refused), outbox-page.js (its
   wiring to the page: what htmx could not send, the list, the connection line's state),
   offline-form.js (the deal form the sheet holds, opened by the phone), messages.js (the
   connection line, an entry's refusal, a refused form's summary), scroll.js (the newest deal
   in view), wake.js (the screen kept awake); live.js is the live update. The service
   worker's side is in the docstring of continental/app.py. */
(function () {
  "use strict";

  var doc = document;
  doc.documentElement.classList.add("js");
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});

  // A browser's store, or null where reading it throws (some private modes).
  function browser(name) {
    try { return window[name] || null; } catch (e) { return null; }
  }

  var clock = { now: Date.now, setTimeout: window.setTimeout.bind(window), clearTimeout: window.clearTimeout.bind(window) };

  function Table(bar) {
    var Outbox = window.ScorepadOutbox;
    var state = { offline: doc.documentElement.hasAttribute("data-offline-copy"), replaced: false };
    var page = null;
    var messages = window.ScorepadMessages.create({
      document: doc, line: bar.querySelector(".connection"), clock: clock,
      texts: window.ScorepadMessages.parseTexts(bar.dataset.texts),
      onClear: function () { page.showQueue(); },
    });
    var outbox = Outbox.create({
      token: bar.dataset.token, indexedDB: browser("indexedDB"), fetch: window.fetch.bind(window),
      locks: navigator.locks, storage: browser("localStorage"), clock: clock,
      online: function () { return navigator.onLine !== false; },
      csrf: function () { return window.ScorepadOutboxPage.csrfToken(doc); },
      shownVersion: function () { return window.ScorepadOutboxPage.shownVersion(doc, bar.dataset.part); },
      onSending: function () { messages.say("sending", 0); },
      onRound: function (round) { return page.roundDone(round); },
    });
    var form = window.ScorepadOfflineForm.create({
      document: doc, window: window, outbox: outbox, state: state, say: messages.say, gameUrl: bar.dataset.url,
    });
    page = window.ScorepadOutboxPage.create({
      document: doc, window: window, bar: bar, outbox: outbox, form: form, messages: messages,
      state: state, clock: clock, fetch: window.fetch.bind(window), field: Outbox.field,
      isNewDeal: window.ScorepadOfflineForm.isNewDeal,
    });
    window.ScorepadScroll.create({ document: doc });
    window.ScorepadWake.create({ document: doc, wakeLock: navigator.wakeLock, storage: browser("localStorage") });
    page.start();
  }

  // After a load or a swap: a refused form's first control focused, and the card grid's script
  // (static/js/cards.js, named by the grid) when a swap brought one: htmx drops the scripts it swaps in.
  function settle(swapped) {
    window.ScorepadMessages.focusErrors(doc);
    var lazy = swapped && doc.querySelector("[data-script]");
    if (lazy && !window.cardGrid) {
      window.cardGrid = 1;
      var script = doc.createElement("script");
      script.src = lazy.dataset.script;
      doc.head.appendChild(script);
    }
  }
  doc.addEventListener("htmx:afterSettle", function () { setTimeout(settle, 0, 1); });

  function ready() {
    settle();
    window.ScorepadOfflineForm.listKeptGames(doc, navigator.serviceWorker);
    var bar = doc.getElementById("table-bar");
    if (bar && bar.dataset.texts) Table(bar);
  }
  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
