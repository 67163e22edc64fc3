/* The outbox's wiring to the page: what htmx could not send goes into the outbox
   (static/js/outbox.js, its design in its header), and the page shows what it holds.

   Its design:

   - The page's part is what htmx swaps after a write (the bar's data-part: #game, #evening,
     #circle; templates/scorepad/_phone_bar.html); its version is the sheet's poll's or the
     part's own data-version.
   - A write from inside the part is noted before it goes (its address, fields and CSRF token,
     on the element). When it fails (no connection, a timeout, a proxy's 502-504) it is kept,
     labelled for the list (a new deal: "Record deal {n}" and who went out, numbered by the
     offline form; else the form's button, as "Take out · Game 2"), and a game's page goes
     back to the sheet. A GET that
     fails opens the form the sheet holds instead where it can (a correction, with the deal's
     values), or says why it cannot (a deal of a player who has left since: "otherPlayers"),
     or goes back to the sheet (Cancel), or says the page was not kept.
   - Online or offline: offline from a failed request or the browser's "offline" until a
     request is answered (below 500) or the browser's "online"; the shared `state.offline`
     that the offline form reads too. An answer after being offline sends the outbox.
   - The list (.outbox): every entry of this game, its state and, once refused, its box
     (static/js/messages.js); and the new deals waiting on the sheet as rows (tr.pending)
     under the saved ones, their numbers and who went out: what was typed, never a score.
   - The line says the outbox's state: "sending", the entries "waiting" (or "queued" offline,
     "attention" once one was refused), "sent" for a while after a round sent some, and when
     it holds nothing "offline", "replaced" (the live poll's 286) or nothing.
   - The live poll: a hidden page does not poll; its 200 says "updated", its 286 "replaced".
   - A sheet with no form open (on load, after each swap): remembered by the offline form,
     its page sent to the service worker as this phone's copy ("keep-page", without the
     messages and the outbox list), and the forms of its last deals fetched once a while
     later (PREFETCH_MS), one after the other, so that the service worker keeps them.
   - The outbox sends on load, on "online", when the page is visible again, on "Send now",
     and after a round while it holds entries (its own timer).

   It touches .outbox, the sheet's tr.pending rows and the line (through messages). Loaded as a
   classic script (window.ScorepadOutboxPage) and by node for the unit tests (tests/js/), with
   the document, the window, the outbox, the offline form, the messages and the clock passed in. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ScorepadOutboxPage = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var PREFETCH_MS = 1500;

  // The page's CSRF token: the body's hx-headers, else the cookie.
  function csrfToken(doc) {
    try {
      var headers = JSON.parse(doc.body.getAttribute("hx-headers") || "{}");
      if (headers["X-CSRFToken"]) return headers["X-CSRFToken"];
    } catch (e) { /* no token on this page */ }
    var match = doc.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function isPoll(elt) { return !!(elt && elt.classList && elt.classList.contains("poll")); }

  // The version of the page shown: the sheet's live poll's, else that of the part ``part``
  // (an evening's, a circle's); NaN without one.
  function shownVersion(doc, part) {
    var held = doc.querySelector("#sheet .poll") || (part && doc.querySelector("#" + part + "[data-version]"));
    return held ? parseInt(held.dataset.version, 10) : NaN;
  }

  // Options: document, window, bar (#table-bar), outbox, form (static/js/offline-form.js),
  // messages (static/js/messages.js), state ({offline, replaced}), clock ({setTimeout,
  // clearTimeout}), fetch, field (ScorepadOutbox.field), isNewDeal (ScorepadOfflineForm.isNewDeal).
  function create(options) {
    var doc = options.document;
    var win = options.window;
    var bar = options.bar;
    var outbox = options.outbox;
    var form = options.form;
    var messages = options.messages;
    var state = options.state;
    var clock = options.clock;
    var field = options.field;
    var say = messages.say;
    var pageUrl = bar.dataset.url; // the page of the game, the evening or the circle
    var part = bar.dataset.part || "game";
    var canEdit = bar.dataset.canEdit === "true";
    var box = bar.querySelector(".outbox");
    var prefetched = {};
    var prefetchTimer = null;
    var serviceWorker = win.navigator.serviceWorker;

    function showQueue() {
      return outbox.all().then(function (entries) {
        entries = outbox.mine(entries);
        renderQueue(entries);
        renderPending(entries);
        form.showAhead(entries);
        if (entries.length) {
          var stuck = entries.some(function (e) { return e.state === "attention"; });
          say(stuck ? "attention" : state.offline ? "queued" : "waiting", entries.length);
        } else if (state.offline && form.isOpen()) {
          say("offlineForm");
        } else {
          say(state.replaced ? "replaced" : state.offline ? "offline" : "");
        }
        return entries;
      }).catch(function () { return []; });
    }

    function renderQueue(entries) {
      var list = box.querySelector(".outbox-list");
      list.textContent = "";
      box.hidden = !entries.length;
      box.querySelector(".outbox-count").textContent = messages.text("count", entries.length);
      entries.forEach(function (entry) {
        list.appendChild(messages.entry(entry, { review: review, discard: discard }));
      });
    }

    // The deals this phone keeps, on the sheet under the saved ones: their numbers, not sent yet.
    function renderPending(entries) {
      doc.querySelectorAll("#sheet tr.pending").forEach(function (row) { row.remove(); });
      var body = doc.querySelector("#sheet table.sheet tbody");
      if (!body) return;
      var columns = doc.querySelectorAll("#sheet table.sheet thead th").length - 1;
      entries.filter(function (e) { return e.number; }).forEach(function (entry) {
        var row = doc.createElement("tr");
        row.className = "pending" + (entry.state === "attention" ? " attention" : "");
        var head = doc.createElement("th");
        head.scope = "row";
        head.className = "num";
        head.textContent = String(entry.number);
        row.appendChild(head);
        var cell = doc.createElement("td");
        cell.colSpan = Math.max(1, columns);
        cell.textContent = messages.text("pending", entry.number) + (entry.who ? " — " + entry.who : "");
        row.appendChild(cell);
        body.appendChild(row);
      });
    }

    // The kept write as its form on the fresh sheet: saved only by the player's tap.
    function review(entry) {
      var post = doc.createElement("form");
      post.method = "post";
      post.action = entry.url;
      post.hidden = true;
      entry.fields.concat([["csrfmiddlewaretoken", csrfToken(doc) || entry.csrf]]).forEach(function (pair) {
        var input = doc.createElement("input");
        input.type = "hidden";
        input.name = pair[0];
        input.value = pair[1];
        post.appendChild(input);
      });
      doc.body.appendChild(post);
      return outbox.drop(entry).then(function () { post.submit(); });
    }

    function discard(entry) {
      if (!win.confirm(messages.text("discardConfirm"))) return Promise.resolve();
      return outbox.drop(entry).then(showQueue).then(send);
    }

    // Who went out, from the form's chips.
    function wentOut(elt) {
      var out = elt.querySelector && elt.querySelector('input[name="went_out"]:checked');
      var chip = out && out.closest("label");
      return chip ? chip.textContent.trim() : "";
    }

    function describe(elt) {
      var title = doc.getElementById("panel-title");
      var what = elt.querySelector("button[type=submit]:not([name=preview])");
      var label = (title && elt.closest("#panel") ? title.textContent : (what ? what.textContent : "")).trim();
      var who = wentOut(elt);
      return who ? label + " — " + who : label;
    }

    // A write that could not be sent: kept in the outbox, labelled for its list.
    function keep(elt, request) {
      var who = wentOut(elt);
      return outbox.keep(request, function (entries) {
        var number = options.isNewDeal(request.path) ? form.nextNumber(entries) : null;
        var title = number && form.recordTitle(number);
        return { number: number, who: who, label: title ? title + (who ? " — " + who : "") : describe(elt) };
      }).then(function () {
        state.offline = true;
        form.backToSheet();
        return showQueue();
      });
    }

    function send() { return outbox.send(); }

    // After each round of the outbox: the sheet and the list as they are now.
    function roundDone(round) {
      if (round.offline) state.offline = true;
      if (round.sent) {
        state.offline = false;
        refreshSheet();
      }
      return showQueue().then(function () {
        if (round.sent) say("sent", round.sent, !round.left.length);
      });
    }

    // A form being filled stays open: the live update brings the sheet under it.
    function refreshSheet() {
      if (!win.htmx || doc.getElementById("panel")) return;
      win.htmx.ajax("GET", pageUrl, { target: "#" + part, swap: "outerHTML" });
    }

    function inPart(elt) { return elt && elt.closest && elt.closest("#" + part); }

    // The sheet's "Record deal" (not the form's preview, which asks the same address).
    function newDealLink(elt) { return elt && elt.tagName === "A" && options.isNewDeal(elt.getAttribute("hx-get")); }

    function failed(event) {
      var elt = event.detail.elt;
      var config = event.detail.requestConfig || {};
      var correction;
      state.offline = true;
      if (config.verb === "post" && elt._outbox && canEdit) {
        keep(elt, elt._outbox);
        elt._outbox = null;
      } else if (elt.id === "preview") {
        elt.textContent = messages.text("previewOffline");
      } else if (config.verb === "get" && canEdit && elt.dataset && elt.dataset.values && (correction = form.correctionOf(elt)) && form.open(correction)) {
        // the same form, filled with the deal as stored
      } else if (correction && correction.left) {
        showQueue().then(function () { say("otherPlayers", correction.number); });
      } else if (config.verb === "get" && elt.closest && elt.closest("#panel[data-held]")) {
        form.backToSheet(); // Cancel: the sheet it was opened over
        showQueue();
      } else if (!isPoll(elt)) {
        showQueue().then(function () { say("notKept"); });
      } else {
        showQueue();
      }
    }

    function answered(d) {
      var xhr = d.xhr;
      if (!xhr || !xhr.status || d._seen) return;
      d._seen = true;
      var elt = (d.requestConfig && d.requestConfig.elt) || d.elt;
      if (xhr.getResponseHeader("X-Offline-Copy")) { state.offline = true; say("keptForm"); return; }
      if (isPoll(elt) && xhr.status === 286) { // this phone was replaced at the table
        state.replaced = true;
        say("replaced");
        return;
      }
      var wasOffline = state.offline;
      if (xhr.status < 500) state.offline = false;
      if (d.requestConfig && d.requestConfig.verb === "post" && elt._outbox && xhr.status < 500) {
        outbox.markUsed(field(elt._outbox.fields, "once"));
        elt._outbox = null;
        if (messages.said() === "saving") say("");
      }
      // The live update brought a change made on another phone.
      if (isPoll(elt) && xhr.status === 200) say("updated", 0, true);
      else if (wasOffline && !state.offline) say("back", 0, true);
      if (wasOffline && !state.offline) send();
    }

    // A sheet with no form open: remembered, kept by the worker, its forms fetched once.
    function settled() {
      outbox.learn(shownVersion(doc, part));
      if (!form.remember()) return;
      outbox.all().then(function (entries) {
        entries = outbox.mine(entries);
        renderPending(entries);
        form.showAhead(entries);
      }).catch(function () {});
      if (doc.documentElement.hasAttribute("data-offline-copy") && state.offline) return;
      var worker = serviceWorker && serviceWorker.controller;
      if (!worker) return;
      var page = doc.documentElement.cloneNode(true);
      page.removeAttribute("data-offline-copy");
      page.querySelectorAll(".messages, .message.error").forEach(function (n) { n.remove(); });
      var copyLine = page.querySelector(".connection");
      if (copyLine) { copyLine.textContent = ""; copyLine.removeAttribute("data-state"); }
      var copyBox = page.querySelector(".outbox");
      if (copyBox) copyBox.hidden = true;
      worker.postMessage({ type: "keep-page", url: pageUrl, html: "<!doctype html>\n" + page.outerHTML });
      clock.clearTimeout(prefetchTimer);
      if (canEdit && !state.offline) prefetchTimer = clock.setTimeout(prefetchForms, PREFETCH_MS);
    }

    function prefetchForms() {
      var version = shownVersion(doc, part);
      var urls = [];
      // Not the next deal's form: the sheet holds it (#offline-deal); nor a correction it fills
      // in (data-values; not a deal of a player who has left since).
      var rows = doc.querySelectorAll("#sheet tbody th a[hx-get]");
      for (var i = Math.max(0, rows.length - 3); i < rows.length; i++) {
        var correction = rows[i].dataset.values && form.correctionOf(rows[i]);
        if (!correction || correction.left) urls.push(rows[i].getAttribute("hx-get"));
      }
      // One after the other: four forms at once would compete with the table's own requests.
      return urls.reduce(function (chain, url) {
        var key = version + " " + url;
        if (prefetched[key]) return chain;
        prefetched[key] = true;
        return chain.then(function () {
          // The sheet moved on (or a form opened): its links may lead nowhere now.
          if (shownVersion(doc, part) !== version || doc.getElementById("panel")) return null;
          return options.fetch(url, {
            credentials: "same-origin",
            headers: { "HX-Request": "true", "HX-Target": "game", "HX-Current-URL": win.location.href },
          }).catch(function () {});
        });
      }, Promise.resolve());
    }

    var body = doc.body;
    body.addEventListener("htmx:configRequest", function (event) {
      var d = event.detail;
      if (d.verb !== "post" || !inPart(d.elt)) return;
      var fields = [];
      d.formData.forEach(function (value, name) { fields.push([name, String(value)]); });
      d.elt._outbox = { path: d.path, fields: fields, csrf: csrfToken(doc) };
    });
    body.addEventListener("htmx:beforeRequest", function (event) {
      var elt = event.detail.elt;
      if (isPoll(elt)) { // a hidden page does not poll
        if (doc.visibilityState === "hidden") event.preventDefault();
        return;
      }
      var config = event.detail.requestConfig || {};
      if (canEdit && config.verb === "get" && newDealLink(elt) && form.open(null, elt.getAttribute("hx-get"))) {
        event.preventDefault(); // the form the sheet holds, opened here
        return;
      }
      // The forms wait for a sheet the player left alone.
      clock.clearTimeout(prefetchTimer);
      if (config.verb === "post" && inPart(elt)) say("saving");
    });
    body.addEventListener("htmx:sendError", failed);
    body.addEventListener("htmx:timeout", failed);
    body.addEventListener("htmx:responseError", function (event) {
      var status = event.detail.xhr.status;
      if (status >= 502 && status <= 504) failed(event); // a proxy whose server does not answer
    });
    // Before the swap too: a live update replaces its own element.
    body.addEventListener("htmx:beforeSwap", function (event) { answered(event.detail); });
    body.addEventListener("htmx:afterRequest", function (event) { answered(event.detail); });
    body.addEventListener("htmx:afterSettle", settled);
    // The live stream brought the new sheet itself (static/js/live.js): as the poll's answer would.
    body.addEventListener("scorepad:pushed", function () { say("updated", 0, true); });
    win.addEventListener("online", function () { state.offline = false; send(); });
    win.addEventListener("offline", function () { state.offline = true; showQueue(); });
    doc.addEventListener("visibilitychange", function () {
      if (doc.visibilityState === "visible") send();
    });
    bar.querySelector("[data-outbox-send]").addEventListener("click", send);
    if (serviceWorker) serviceWorker.addEventListener("controllerchange", settled);

    return {
      showQueue: showQueue,
      roundDone: roundDone,
      settled: settled,
      prefetchForms: prefetchForms,
      start: function () {
        settled();
        return showQueue().then(send);
      },
    };
  }

  return { create: create, csrfToken: csrfToken, shownVersion: shownVersion, PREFETCH_MS: PREFETCH_MS };
});
