/* Live updates: the page follows its stream (continental/live.py) instead of asking every 3 s.
 *
 * An element with data-live (the sheet's #table-bar, the evening's #evening-live, table
 * mode's #tm-live) names the stream; data-live-port, when set, is the stream process's port on this page's host. Each
 * event carries the version the page should show: a newer one fetches the sheet at once
 * with the sheet's own request (the .poll element's, which table.js answers as before), or
 * swaps in the sheet the event carried (a plain viewer's page, data-live-lang), or
 * the evening's content; table mode (data-live-poll) sends its own version check, which
 * answers 204 when nothing it shows changed. A tournament's pages (#tournament-stream) ask
 * their live part's own check the same way, and a viewer's (data-live-carry) swaps in the
 * part the event carried. While the stream is held the 3 s polls are
 * dropped. The stream says it is alive with a beat event every so many seconds (the beat's
 * data); QUIET_BEATS of them missed and the page counts it lost (a stream process that stopped
 * answering while the connection stays open, a phone woken from sleep): it fetches what it
 * shows and opens a new stream, which polls like the first when no event comes.
 * Without EventSource, or when no first event comes within FIRST_MS (a proxy that buffers),
 * or when the stream is refused, the page polls as before.
 *
 * The page always ends at the newest version it heard of (`createLoop`): one fetch at a
 * time, and an event that comes while one is loading is remembered and asked for after it
 * (htmx would queue a second request of the same element and then drop it with the element
 * the first one's answer replaced, and with the 3 s polls dropped nothing asked again: an
 * editor's phone stayed a deal behind). A fetch that fails or brings less than the newest
 * is tried again, later each time. The loop (`createLoop`) and the page's side (`createPage`:
 * the stream, its beats, the fallback to polling and back) are loaded by node too, for their
 * unit tests (tests/js/live.test.js, tests/js/live-page.test.js), with what they need from the
 * page passed in (the document, the window, EventSource, the clock).
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ScorepadLive = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // Versions: a game's "7"; an evening's "4.37" (its table mode's "4-37"): numbers in turn.
  function parts(version) {
    if (version === null || version === undefined || version === "") return null;
    var list = String(version).split(/[.-]/).map(Number);
    return list.some(isNaN) ? null : list;
  }

  function same(a, b) {
    var x = parts(a), y = parts(b);
    if (!x || !y) return String(a) === String(b);
    return x.join(".") === y.join(".");
  }

  // True when ``a`` is a newer version than ``b`` (anything is newer than no version).
  function newer(a, b) {
    var x = parts(a), y = parts(b);
    if (!x) return false;
    if (!y) return true;
    if (x.length !== y.length) return !same(a, b);
    for (var i = 0; i < x.length; i++) {
      if (x[i] !== y[i]) return x[i] > y[i];
    }
    return false;
  }

  /* The update loop of one page. ``o``:
     - shown(): the version the page shows;
     - fetch(): asks for the page (its answer swapped in when it comes); a promise that
       settles once it is answered (resolved) or failed (rejected), or false when no request
       went out (no connection to ask with: htmx still busy with another);
     - show(version, html): swaps in a page the event carried; false when it cannot;
     - ready(): false while the page must not change now (hidden, a save or a form under
       way): the loop waits for resume();
     - ordered: false when a version says only that something changed (an evening's, whose
       games may leave it): the loop then asks once after each event that differs from
       the page, instead of until the page is at least as new;
     - clock ({setTimeout, clearTimeout}), retryMs (the first wait after a fetch that did
       not bring the newest, doubled each time up to maxRetryMs), waitMs (how long a fetch
       may take before it counts as failed).
     Returns want(version, html) for each event (html: the page it carried, if any),
     refresh() to ask whatever the version (a stream lost), close() to ask once more and
     then stop (a link replaced: that answer says so), resume() when ready() may have turned
     true, and state() for the tests. */
  function createLoop(o) {
    var clock = o.clock;
    var ordered = o.ordered !== false;
    var retryMs = o.retryMs || 250;
    var maxRetryMs = o.maxRetryMs || 30000;
    var waitMs = o.waitMs || 12000;
    var wanted = null; // the newest version heard of
    var carried = null; // {version, html}: the newest page an event carried, not shown yet
    var asked = 0; // events (and refreshes) heard: each wants a fetch that started after it
    var answered = 0; // the events a fetch answered (one that started after them)
    var force = false; // refresh(): one fetch whatever the versions say
    var loading = false;
    var timer = null; // the next try after a fetch that did not bring the newest
    var failures = 0;
    var fetches = 0;
    var closing = false; // close(): one last fetch, then nothing more
    var closed = false;

    function behind() {
      if (force) return true;
      if (ordered && wanted !== null) return newer(wanted, o.shown());
      return answered < asked;
    }

    function want(version, html) {
      var shown = o.shown();
      if (ordered ? !newer(version, shown) : same(version, shown)) return;
      if (wanted === null || newer(version, wanted) || !ordered) wanted = version;
      if (html !== undefined && html !== null && (!carried || !newer(carried.version, version))) {
        carried = { version: version, html: html };
      }
      asked += 1;
      step();
    }

    function refresh() {
      force = true;
      asked += 1;
      step();
    }

    function resume() {
      step();
    }

    function close() {
      closing = true;
      refresh();
    }

    function step() {
      if (loading || timer || closed) return;
      if (!behind()) { carried = null; failures = 0; return; }
      if (!o.ready()) return; // resume() asks again
      if (carried && !force && newer(carried.version, o.shown())) {
        var page = carried;
        carried = null;
        if (o.show(page.version, page.html)) {
          if (!ordered) answered = asked;
          step();
          return;
        }
      }
      carried = null;
      fetchNow();
    }

    function fetchNow() {
      var mark = asked;
      var forced = force;
      var last = closing;
      var settled = false;
      force = false;
      loading = true;
      fetches += 1;
      var watch = clock.setTimeout(function () { done(false); }, waitMs);
      function done(ok) {
        if (settled) return;
        settled = true;
        clock.clearTimeout(watch);
        loading = false;
        if (ok) answered = Math.max(answered, mark);
        else if (forced) force = true;
        if (ok && last) { closed = true; return; }
        if (!behind()) { step(); return; }
        // Still behind: at once when events came meanwhile and this fetch was answered
        // (the newest was not asked for yet), later when it failed or fell short.
        if (ok && asked > mark) { step(); return; }
        failures += 1;
        var wait = Math.min(maxRetryMs, retryMs * Math.pow(2, failures - 1));
        timer = clock.setTimeout(function () { timer = null; step(); }, wait);
      }
      var request;
      try {
        request = o.fetch();
      } catch (e) {
        request = false;
      }
      if (request === false || request === undefined || request === null) {
        // Nothing went out: a failure, tried again later (not in this very turn).
        clock.setTimeout(function () { done(false); }, 0);
        return;
      }
      Promise.resolve(request).then(function (result) { done(result !== false); }, function () { done(false); });
    }

    return {
      want: want,
      refresh: refresh,
      resume: resume,
      close: close,
      state: function () {
        return { wanted: wanted, loading: loading, asked: asked, answered: answered, fetches: fetches, waiting: Boolean(timer) };
      },
    };
  }

  /* One page's live update (the header's design): its stream, its loop, and the polls it
     holds back while the stream is open. ``env``: document, window (htmx, location, CustomEvent;
     window.scorepadLive is set to the state, for the browser tests and the bench),
     EventSource (none: the page polls), clock ({setTimeout, clearTimeout, now}), random.
     Returns {start, state}; node's unit tests (tests/js/live-page.test.js) pass fakes. */
  function createPage(env) {
    var doc = env.document;
    var win = env.window;
    var Source = env.EventSource;
    var clock = env.clock;
    var random = env.random || Math.random;
    var FIRST_MS = 4000;
    var BEAT_MS = 60000; // how long a beat may take before the first one says it
    var QUIET_BEATS = 3; // beats missed before the stream counts as lost
    var AGAIN_MS = 60000; // a stream refused or lost is asked for again after 1-2 minutes
    var SAVE_WAIT_MS = 12000; // beyond htmx's timeout (10 s): a save never answered stops waiting
    var state = { open: false, live: false, beatMs: BEAT_MS, fetches: 0 };
    win.scorepadLive = state; // for the tests and the bench: is the stream held?
    var loop = null; // the page's update loop (createLoop), made with its first stream

    function shownVersion() {
      var poll = doc.querySelector("#sheet .poll");
      return poll ? poll.dataset.version : null;
    }

    // The sheet's own request (or table mode's version check, or the evening's page), made by
    // the loop: a promise of whether it was answered (an error status is not), or false when
    // htmx did not send it (it queues a request of an element that has one under way, and
    // drops it with the element the first one's answer replaces).
    function ask(url, config) {
      if (!url || !win.htmx) return false;
      state.live = true;
      state.sent = null;
      var request = win.htmx.ajax("GET", url, config);
      var xhr = state.sent; // htmx:beforeSend, in that very call
      state.live = false;
      state.sent = null;
      if (!xhr || !request) return false;
      state.fetches += 1;
      return request.then(function () { return xhr.status >= 200 && xhr.status < 400; });
    }

    function askPoll(poll, target) {
      return poll ? ask(poll.getAttribute("hx-get"), { source: poll, target: target, swap: "outerHTML" }) : false;
    }

    function fetchSheet() {
      return askPoll(doc.querySelector("#sheet .poll"), "#sheet");
    }

    // The new sheet the event carried, swapped in as the sheet's own request would have
    // (table.js hears "scorepad:pushed" as it hears that request's answer).
    function showSheet(version, html) {
      var sheet = doc.getElementById("sheet");
      if (!sheet || !win.htmx || !win.htmx.swap) return false;
      doc.body.dispatchEvent(new win.CustomEvent("scorepad:pushed"));
      win.htmx.swap(sheet, html, { swapStyle: "outerHTML" });
      state.pushed = (state.pushed || 0) + 1;
      return true;
    }

    // The part a tournament's event carried (data-live-carry: its live part, rendered once
    // per version for every phone), swapped in as its own check's answer would have been.
    function showCarried(el, html) {
      var part = el.dataset.liveCarry ? doc.querySelector(el.dataset.liveCarry) : null;
      if (!part || !win.htmx || !win.htmx.swap) return false;
      win.htmx.swap(part, html, { swapStyle: "outerHTML" });
      doc.body.dispatchEvent(new win.CustomEvent("scorepad:swapped"));
      state.pushed = (state.pushed || 0) + 1;
      return true;
    }

    // This phone's own save in flight: its answer is the new sheet, so the event of that
    // change (which may come first: the stream hears the commit) waits for it instead of
    // fetching the same sheet beside it. Asked for after the answer only if still behind.
    function savingNow() { return state.saving && clock.now() - state.saving < SAVE_WAIT_MS; }

    function saveAnswered() {
      if (!state.saving) return;
      state.saving = 0;
      if (loop) loop.resume();
    }

    function busy(main) {
      var active = doc.activeElement;
      return active && active !== doc.body && main.contains(active) && active.closest("form");
    }

    // The evening's part (templates/scorepad/evening.html#evening, which its writes swap too):
    // the phone's connection line and outbox above it stay.
    function fetchEvening() {
      var el = doc.querySelector("[data-live]");
      if (!el || !doc.getElementById("evening")) return false;
      return ask(el.dataset.url || win.location.pathname, { target: "#evening", select: "#evening", swap: "outerHTML" });
    }

    function fetchPolled(el) {
      var poll = doc.querySelector(el.dataset.livePoll);
      return askPoll(poll, poll && poll.getAttribute("hx-target"));
    }

    function visible() { return doc.visibilityState !== "hidden"; }

    // One loop a page: the sheet (its versions count up), table mode (a game's count up; an
    // evening's say only that something changed) or the evening.
    function makeLoop(el) {
      if (el.id === "table-bar") {
        return createLoop({
          clock: clock,
          shown: shownVersion,
          fetch: fetchSheet,
          show: showSheet,
          // An event without the sheet waits for this phone's own save's answer.
          ready: function () { return visible() && !savingNow(); },
        });
      }
      if (el.dataset.livePoll) {
        return createLoop({
          clock: clock,
          // A game's versions count up; so do a tournament's (its own first, then its series'
          // games'); an evening's say only that something changed.
          ordered: /^\/live\/(games|tournaments)\//.test(el.dataset.live),
          shown: function () {
            var poll = doc.querySelector(el.dataset.livePoll);
            return poll ? poll.dataset.version : null;
          },
          fetch: function () { return fetchPolled(el); },
          show: function (version, html) { return showCarried(el, html); },
          ready: visible,
        });
      }
      return createLoop({
        clock: clock,
        ordered: false,
        shown: function () {
          var current = doc.querySelector("[data-live]");
          return current ? current.dataset.liveId : null;
        },
        fetch: fetchEvening,
        show: function () { return false; },
        ready: function () {
          var main = doc.getElementById("main");
          return visible() && !(main && busy(main));
        },
      });
    }

    function say(text) {
      var box = doc.getElementById("live-status");
      if (!box) return;
      box.textContent = text;
      box.hidden = false;
    }

    function follow(el) {
      var port = el.dataset.livePort;
      var base = port ? win.location.protocol + "//" + win.location.hostname + ":" + port : "";
      var isGame = el.id === "table-bar";
      var polled = Boolean(el.dataset.livePoll);
      var carries = isGame || Boolean(el.dataset.liveCarry); // its events may carry the page
      var lang = carries && el.dataset.liveLang ? "&l=" + encodeURIComponent(el.dataset.liveLang) : "";
      var source = new Source(base + el.dataset.live + "?v=" + encodeURIComponent((isGame ? shownVersion() : el.dataset.liveId) || "") + lang);
      var first = clock.setTimeout(function () { source.close(); state.open = false; }, FIRST_MS);
      var quiet = null;
      var firstEvent = true;
      // Anything the stream says shows it alive; silence for QUIET_BEATS beats does not.
      function heard() {
        clock.clearTimeout(quiet);
        quiet = clock.setTimeout(lost, state.beatMs * QUIET_BEATS);
      }
      function lost() {
        source.close();
        state.open = false; // the 3 s polls go through again
        state.lost = (state.lost || 0) + 1;
        loop.refresh();
        // A new stream at once (a phone woken from sleep finds its old one dead): if it brings
        // no first event either, FIRST_MS closes it and the page goes on polling.
        clock.setTimeout(function () { if (doc.contains(el)) follow(el); }, random() * 2000);
      }
      function again() {
        clock.setTimeout(function () { if (doc.contains(el)) follow(el); }, AGAIN_MS + random() * AGAIN_MS);
      }
      source.addEventListener("beat", function (event) {
        var seconds = parseFloat(event.data);
        if (seconds > 0) state.beatMs = seconds * 1000;
        if (state.open) heard();
      });
      source.addEventListener("version", function (event) {
        clock.clearTimeout(first);
        state.open = true;
        heard();
        if (carries) {
          // "7", or "7" and the new sheet on the lines after it (a plain viewer's stream); a
          // tournament's "12.40" and its live part.
          var text = event.data;
          var cut = text.indexOf("\n");
          loop.want(cut < 0 ? text : text.slice(0, cut), cut < 0 ? null : text.slice(cut + 1));
        } else if (polled && firstEvent && loop.state().asked === 0) {
          // Its own check says whether what it shows changed (204 when not): the first event
          // asks whatever it says, since a change may have come between the page and its stream.
          loop.refresh();
        } else {
          loop.want(event.data);
        }
        firstEvent = false;
      });
      source.addEventListener("replaced", function () {
        clock.clearTimeout(quiet);
        source.close();
        state.open = false;
        if (isGame || polled) loop.close(); // the sheet's own request (the version check) answers 286: table.js says so, the polls stop
        else say(el.dataset.replaced || "");
      });
      source.onerror = function () {
        state.open = false; // polls meanwhile; EventSource reconnects by itself
        clock.clearTimeout(quiet); // its first event after the reconnect starts the watch again
        if (source.readyState === Source.CLOSED) {
          clock.clearTimeout(first);
          again(); // refused (a dead link, too many streams): poll meanwhile
        }
      };
    }

    function start() {
      var el = doc.querySelector("[data-live]");
      if (!el || !Source) return;
      loop = makeLoop(el);
      state.loop = loop.state; // for the tests
      follow(el);
      doc.body.addEventListener("htmx:beforeRequest", function (event) {
        var elt = event.detail.elt;
        if (!state.open || state.live || !elt || !elt.classList || !elt.classList.contains("poll")) return;
        event.preventDefault(); // the stream says when to ask
      });
      doc.body.addEventListener("htmx:beforeSend", function (event) {
        var elt = event.detail.elt;
        var config = event.detail.requestConfig || {};
        if (state.live) state.sent = event.detail.xhr; // the loop's own request went out
        if (config.verb === "post" && elt && elt.closest && elt.closest("#game")) state.saving = clock.now();
      });
      ["htmx:afterRequest", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
        doc.body.addEventListener(name, function (event) {
          var config = event.detail.requestConfig || {};
          if (config.verb === "post") clock.setTimeout(saveAnswered, 0);
        });
      });
      // What waited for the page to be seen again, or for the form being filled to be left.
      function later() { if (visible()) loop.resume(); }
      doc.addEventListener("visibilitychange", later);
      doc.addEventListener("focusout", function () { clock.setTimeout(later, 0); });
    }

    return { start: start, state: state };
  }

  return { createLoop: createLoop, createPage: createPage, newer: newer, same: same };
});

// The browser: the page's live update, started once the page is read.
(function () {
  "use strict";
  if (typeof document === "undefined" || !self.ScorepadLive) return; // node: the factories alone
  var page = self.ScorepadLive.createPage({
    document: document,
    window: window,
    EventSource: window.EventSource,
    clock: { setTimeout: window.setTimeout.bind(window), clearTimeout: window.clearTimeout.bind(window), now: Date.now },
    random: Math.random,
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", page.start);
  else page.start();
})();
