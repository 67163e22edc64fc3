/* Live updates: the page follows its stream (continental/live.py) instead of asking every 3 s.
 *
 * An element with data-live (the sheet's #table-bar, the evening's #evening-live, table
 * mode's #tm-live) names the stream; data-live-port, when set, is the stream process's port on this page's host. Each
 * event carries the version the page should show: a newer one fetches the sheet at once
 * with the sheet's own request (the .poll element's, which table.js answers as before), or
 * swaps in the sheet the event carried (a plain viewer's page, data-live-lang), or
 * the evening's content; table mode (data-live-poll) sends its own version check, which
 * answers 204 when nothing it shows changed. While the stream is held the 3 s polls are
 * dropped. The stream says it is alive with a beat event every so many seconds (the beat's
 * data); QUIET_BEATS of them missed and the page counts it lost (a stream process that stopped
 * answering while the connection stays open, a phone woken from sleep): it fetches what it
 * shows and opens a new stream, which polls like the first when no event comes.
 * Without EventSource, or when no first event comes within FIRST_MS (a proxy that buffers),
 * or when the stream is refused, the page polls as before.
 */
(function () {
  "use strict";
  var FIRST_MS = 4000;
  var BEAT_MS = 60000; // how long a beat may take before the first one says it
  var QUIET_BEATS = 3; // beats missed before the stream counts as lost
  var AGAIN_MS = 60000; // a stream refused or lost is asked for again after 1-2 minutes
  var SAVE_WAIT_MS = 12000; // beyond htmx's timeout (10 s): a save never answered stops waiting
  var doc = document;
  var state = { open: false, live: false, beatMs: BEAT_MS };
  window.scorepadLive = state; // for the tests and the bench: is the stream held?

  function shownVersion() {
    var poll = doc.querySelector("#sheet .poll");
    return poll ? poll.dataset.version : null;
  }

  function fetchSheet() {
    var poll = doc.querySelector("#sheet .poll");
    if (!poll || !window.htmx) return;
    if (doc.visibilityState === "hidden") { state.pending = true; return; }
    state.live = true;
    window.htmx.ajax("GET", poll.getAttribute("hx-get"), { source: poll, target: "#sheet", swap: "outerHTML" });
    state.live = false;
  }

  // The new sheet the event carried, swapped in as the sheet's own request would have
  // (table.js hears "scorepad:pushed" as it hears that request's answer).
  function showSheet(html) {
    var sheet = doc.getElementById("sheet");
    if (!sheet || !window.htmx || !window.htmx.swap) return false;
    if (doc.visibilityState === "hidden") { state.pending = true; return true; }
    doc.body.dispatchEvent(new CustomEvent("scorepad:pushed"));
    window.htmx.swap(sheet, html, { swapStyle: "outerHTML" });
    state.pushed = (state.pushed || 0) + 1;
    return true;
  }

  // This phone's own save in flight: its answer is the new sheet, so the event of that
  // change (which may come first: the stream hears the commit) waits for it instead of
  // fetching the same sheet beside it. Asked for after the answer only if still behind.
  function savingNow() { return state.saving && Date.now() - state.saving < SAVE_WAIT_MS; }

  function saveAnswered() {
    if (!state.saving) return;
    state.saving = 0;
    var waiting = state.waiting;
    state.waiting = 0;
    if (waiting && !(waiting <= parseInt(shownVersion(), 10))) fetchSheet();
  }

  function busy(main) {
    var active = doc.activeElement;
    return active && active !== doc.body && main.contains(active) && active.closest("form");
  }

  function fetchEvening(el) {
    var main = doc.getElementById("main");
    if (!main || !window.htmx) return;
    if (busy(main) || doc.visibilityState === "hidden") { state.pending = true; return; }
    window.htmx.ajax("GET", el.dataset.url || location.pathname, { target: "#main", select: "#main", swap: "outerHTML" });
  }

  function fetchPolled(el) {
    var poll = doc.querySelector(el.dataset.livePoll);
    if (!poll || !window.htmx) return;
    if (doc.visibilityState === "hidden") { state.pending = true; return; }
    state.live = true;
    window.htmx.ajax("GET", poll.getAttribute("hx-get"), { source: poll, target: poll.getAttribute("hx-target"), swap: "outerHTML" });
    state.live = false;
  }

  function refresh(el) {
    if (el.id === "table-bar") fetchSheet();
    else if (el.dataset.livePoll) fetchPolled(el);
    else fetchEvening(el);
  }

  function say(text) {
    var box = doc.getElementById("live-status");
    if (!box) return;
    box.textContent = text;
    box.hidden = false;
  }

  function follow(el) {
    var port = el.dataset.livePort;
    var base = port ? location.protocol + "//" + location.hostname + ":" + port : "";
    var isGame = el.id === "table-bar";
    var polled = Boolean(el.dataset.livePoll);
    var lang = isGame && el.dataset.liveLang ? "&l=" + encodeURIComponent(el.dataset.liveLang) : "";
    var source = new EventSource(base + el.dataset.live + "?v=" + encodeURIComponent((isGame ? shownVersion() : el.dataset.liveId) || "") + lang);
    var first = setTimeout(function () { source.close(); state.open = false; }, FIRST_MS);
    var quiet = null;
    // Anything the stream says shows it alive; silence for QUIET_BEATS beats does not.
    function heard() {
      clearTimeout(quiet);
      quiet = setTimeout(lost, state.beatMs * QUIET_BEATS);
    }
    function lost() {
      source.close();
      state.open = false; // the 3 s polls go through again
      state.lost = (state.lost || 0) + 1;
      refresh(el);
      // A new stream at once (a phone woken from sleep finds its old one dead): if it brings
      // no first event either, FIRST_MS closes it and the page goes on polling.
      setTimeout(function () { if (doc.contains(el)) follow(el); }, Math.random() * 2000);
    }
    function again() {
      setTimeout(function () { if (doc.contains(el)) follow(el); }, AGAIN_MS + Math.random() * AGAIN_MS);
    }
    source.addEventListener("beat", function (event) {
      var seconds = parseFloat(event.data);
      if (seconds > 0) state.beatMs = seconds * 1000;
      if (state.open) heard();
    });
    source.addEventListener("version", function (event) {
      clearTimeout(first);
      state.open = true;
      heard();
      if (isGame) {
        // "7", or "7" and the new sheet on the lines after it (a plain viewer's stream).
        var text = event.data;
        var cut = text.indexOf("\n");
        var shown = parseInt(shownVersion(), 10);
        var version = parseInt(cut < 0 ? text : text.slice(0, cut), 10);
        if (!(version <= shown)) {
          if (cut < 0 && savingNow()) state.waiting = Math.max(state.waiting || 0, version);
          else if (cut < 0 || !showSheet(text.slice(cut + 1))) fetchSheet();
        }
      } else if (polled) {
        // Its own check says whether what it shows changed (204 when not): the first event
        // too, since a change may have come between the page and its stream.
        fetchPolled(el);
      } else {
        var current = doc.querySelector("[data-live]");
        if (current && current.dataset.liveId !== event.data) fetchEvening(current);
      }
    });
    source.addEventListener("replaced", function () {
      clearTimeout(quiet);
      source.close();
      state.open = false;
      if (isGame) fetchSheet(); // the sheet's own request answers 286: table.js says so
      else if (polled) fetchPolled(el); // its version check answers 286: the polls stop
      else say(el.dataset.replaced || "");
    });
    source.onerror = function () {
      state.open = false; // polls meanwhile; EventSource reconnects by itself
      clearTimeout(quiet); // its first event after the reconnect starts the watch again
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(first);
        again(); // refused (a dead link, too many streams): poll meanwhile
      }
    };
  }

  function start() {
    var el = doc.querySelector("[data-live]");
    if (!el || !window.EventSource) return;
    follow(el);
    doc.body.addEventListener("htmx:beforeRequest", function (event) {
      var elt = event.detail.elt;
      if (!state.open || state.live || !elt || !elt.classList || !elt.classList.contains("poll")) return;
      event.preventDefault(); // the stream says when to ask
    });
    doc.body.addEventListener("htmx:beforeSend", function (event) {
      var elt = event.detail.elt;
      var config = event.detail.requestConfig || {};
      if (config.verb === "post" && elt && elt.closest && elt.closest("#game")) state.saving = Date.now();
    });
    ["htmx:afterRequest", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
      doc.body.addEventListener(name, function (event) {
        var config = event.detail.requestConfig || {};
        if (config.verb === "post") setTimeout(saveAnswered, 0);
      });
    });
    function later() {
      if (doc.visibilityState !== "visible" || !state.pending) return;
      state.pending = false;
      var current = doc.querySelector("[data-live]");
      if (current) refresh(current);
    }
    // What waited for the page to be seen again, or for the form being filled to be left.
    doc.addEventListener("visibilitychange", later);
    doc.addEventListener("focusout", function () { setTimeout(later, 0); });
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", start);
  else start();
})();
