/* The phone at the table: service worker, connection state, the outbox's list and the forms
   a phone without a connection opens, the live update, screen kept awake. The outbox itself
   (what is kept, sent, refused) is static/js/outbox.js, its design in its header; the
   service worker's side is in the docstring of continental/app.py. */
(function () {
  "use strict";

  var doc = document;
  doc.documentElement.classList.add("js");
  var Outbox = window.ScorepadOutbox;
  var field = Outbox.field;

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }

  function ready(fn) {
    if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", fn);
    else fn();
  }

  function local(key, value) {
    try {
      if (value === undefined) return window.localStorage.getItem(key);
      window.localStorage.setItem(key, value);
    } catch (e) { /* private mode: nothing kept */ }
    return null;
  }

  // A browser's store, or null where reading it throws (some private modes).
  function browser(name) {
    try { return window[name] || null; } catch (e) { return null; }
  }

  function csrfToken() {
    try {
      var headers = JSON.parse(doc.body.getAttribute("hx-headers") || "{}");
      if (headers["X-CSRFToken"]) return headers["X-CSRFToken"];
    } catch (e) { /* no token on this page */ }
    var match = doc.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  // The offline page lists the sheets this phone keeps.

  function listKeptGames() {
    var list = doc.querySelector(".kept-list");
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!list || !worker) return;
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (!event.data || event.data.type !== "kept-games" || !event.data.games.length) return;
      event.data.games.forEach(function (game) {
        var title = new DOMParser().parseFromString(game.title, "text/html").documentElement.textContent;
        var item = doc.createElement("li");
        var link = doc.createElement("a");
        link.href = game.url;
        link.textContent = title;
        item.appendChild(link);
        list.appendChild(item);
      });
      list.closest("section").hidden = false;
    });
    worker.postMessage({ type: "kept-games" });
  }

  function Table(bar) {
    var token = bar.dataset.token;
    var gameUrl = bar.dataset.url;
    var canEdit = bar.dataset.canEdit === "true";
    var texts = {};
    bar.dataset.texts.split("|").forEach(function (pair) {
      var at = pair.indexOf("=");
      texts[pair.slice(0, at)] = pair.slice(at + 1);
    });
    var line = bar.querySelector(".connection");
    var box = bar.querySelector(".outbox");
    var offline = false; // the last request to the server failed
    var replaced = false;
    var lastSheet = null; // the game part of the page with no form open
    var clearTimer = null;
    var prefetched = {};
    var prefetchTimer = null;

    function text(name, n) { return (texts[name] || name).replace("{n}", String(n)); }

    function say(name, n, transient) {
      if (clearTimer) { clearTimeout(clearTimer); clearTimer = null; }
      line.textContent = name ? text(name, n) : "";
      line.dataset.state = name || "";
      if (transient) clearTimer = setTimeout(function () { showQueue(); }, 5000);
    }

    // The live update (polling): the sheet's `.poll` element asks for a newer version every
    // few seconds (templates/scorepad/game.html). How this page tells the poll apart is here; the handlers below ask it.
    function isPoll(elt) { return elt && elt.classList && elt.classList.contains("poll"); }
    function shownVersion() {
      var poll = doc.querySelector("#sheet .poll");
      return poll ? parseInt(poll.dataset.version, 10) : NaN;
    }
    // A hidden page does not poll; true when ``event`` was the poll's.
    function pollRequest(event) {
      if (!isPoll(event.detail.elt)) return false;
      if (doc.visibilityState === "hidden") event.preventDefault();
      return true;
    }
    // A poll's answer: "replaced" (286: this phone was replaced at the table), "updated"
    // (200: a change made on another phone) or "" (no change, or not the poll's).
    function pollAnswer(elt, xhr) {
      if (!isPoll(elt)) return "";
      if (xhr.status === 286) return "replaced";
      return xhr.status === 200 ? "updated" : "";
    }

    var outbox = Outbox.create({
      game: token,
      indexedDB: browser("indexedDB"),
      fetch: window.fetch.bind(window),
      locks: navigator.locks,
      storage: browser("localStorage"),
      clock: { now: Date.now, setTimeout: window.setTimeout.bind(window) },
      online: function () { return navigator.onLine !== false; },
      csrf: csrfToken,
      shownVersion: shownVersion,
      onSending: function () { say("sending", 0); },
      onRound: roundDone,
    });
    var mine = outbox.mine;

    function showQueue() {
      return outbox.all().then(function (entries) {
        entries = mine(entries);
        renderQueue(entries);
        renderPending(entries);
        if (entries.length) {
          var stuck = entries.some(function (e) { return e.state === "attention"; });
          say(stuck ? "attention" : offline ? "queued" : "waiting", entries.length);
        } else if (offline && doc.querySelector("#panel[data-held]")) {
          say("offlineForm");
        } else {
          say(replaced ? "replaced" : offline ? "offline" : "");
        }
        return entries;
      }).catch(function () { return []; });
    }

    function renderQueue(entries) {
      var list = box.querySelector(".outbox-list");
      list.textContent = "";
      box.hidden = !entries.length;
      box.querySelector(".outbox-count").textContent = text("count", entries.length);
      entries.forEach(function (entry) {
        var item = doc.createElement("li");
        item.className = "outbox-entry " + entry.state;
        var label = doc.createElement("span");
        label.className = "what";
        label.textContent = entry.label;
        item.appendChild(label);
        var when = doc.createElement("span");
        when.className = "when muted";
        when.textContent = " · " + new Date(entry.queuedAt).toLocaleTimeString(doc.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
        item.appendChild(when);
        if (entry.state === "attention") {
          var problem = doc.createElement("p");
          problem.className = "problem";
          problem.textContent = entry.problem || text(entry.outcome === "gone" ? "gone" : "refused");
          item.appendChild(problem);
          var actions = doc.createElement("div");
          actions.className = "form-actions";
          if (entry.outcome !== "gone") actions.appendChild(button(texts.review, "", function () { review(entry); }));
          actions.appendChild(button(texts.discard, "secondary danger-link", function () { discard(entry); }));
          item.appendChild(actions);
        }
        list.appendChild(item);
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
        cell.textContent = text("pending", entry.number) + (entry.who ? " — " + entry.who : "");
        row.appendChild(cell);
        body.appendChild(row);
      });
    }

    // "Record deal" opens the form the sheet holds (templates/scorepad/game.html#offline), online
    // or not: the same form the server would answer, numbered after the deals this phone keeps,
    // with a one-time token of its own. No round trip on the table's Wi-Fi, no rendering on the
    // server (docs/architecture.md, "The table server and a flaky connection").
    function nextNumber(entries) {
      var template = doc.getElementById("offline-deal");
      var next = template ? parseInt(template.dataset.next, 10) : NaN;
      var shown = doc.querySelectorAll("#sheet table.sheet tbody tr:not(.pending)").length + 1;
      if (isNaN(next)) next = shown;
      return next + mine(entries).filter(function (e) { return e.number; }).length;
    }

    // "Record deal {n}" in the page's language, from the form the sheet holds.
    function recordTitle(number) {
      var template = doc.getElementById("offline-deal");
      return template && template.dataset.title ? template.dataset.title.replace("{n}", String(number)) : "";
    }

    // ``correction``: {url, number, values} of a deal on the sheet (its link's data-values),
    // to correct it with the same form filled with the deal as stored (offline only: online the
    // server's correction form opens with the deal's result). ``url``: the address to show, as
    // the server's form would (a reload opens that form; the live update leaves it open).
    function openHeldForm(correction, url) {
      var template = doc.getElementById("offline-deal");
      var sheet = doc.getElementById("sheet");
      if (!template || !sheet || doc.getElementById("panel")) return false;
      outbox.all().catch(function () { return []; }).then(function (entries) {
        if (doc.getElementById("panel")) return;
        var panel = doc.importNode(template.content, true).firstElementChild;
        var number = correction ? correction.number : nextNumber(entries);
        panel.querySelectorAll("script").forEach(function (script) { script.remove(); });
        var title = panel.querySelector("#panel-title");
        if (title) {
          title.textContent = correction ? template.dataset.correct.replace("{n}", String(number)) : recordTitle(number);
        }
        // A later deal of the schedule may have another contract: that one is not shown.
        var spec = panel.querySelector(".deal-now");
        if (spec && (correction || number !== parseInt(template.dataset.next, 10))) spec.remove();
        if (correction) fill(panel.querySelector("form"), correction);
        panel.querySelectorAll('input[name="once"]').forEach(function (input) { input.value = outbox.newToken(); });
        panel.querySelectorAll('input[name="number"]').forEach(function (input) { input.value = String(number); });
        var said = doc.getElementById("messages");
        if (said) said.textContent = ""; // "Deal 4 recorded." belonged to the sheet before
        sheet.parentNode.insertBefore(panel, sheet);
        // Offline the address stays the sheet's, which the service worker keeps.
        if (url && !offline) history.pushState({ htmx: true }, "", url);
        hideActions();
        if (window.htmx) window.htmx.process(panel);
        doc.dispatchEvent(new Event("htmx:load"));
        if (offline) say("offlineForm");
        panel.scrollIntoView({ block: "start" });
        if (title) { title.tabIndex = -1; title.focus({ preventScroll: true }); }
      });
      return true;
    }

    var BOOKKEEPING = ["version", "once", "base", "number", "csrfmiddlewaretoken", "preview", "over"];

    // The form the sheet holds, made a deal's correction: its address, its values as stored,
    // and as ``base`` the values it opened with (scorepad/conflicts.py).
    function fill(form, correction) {
      form.action = correction.url;
      form.setAttribute("hx-post", correction.url);
      var values = correction.values;
      Array.prototype.forEach.call(form.elements, function (control) {
        var name = control.name;
        if (!name || BOOKKEEPING.indexOf(name) >= 0 || control.type === "submit") return;
        var value = Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : null;
        if (control.type === "radio") {
          if (value !== null) control.checked = control.value === value;
        } else if (control.type === "checkbox") {
          control.checked = value !== null && value !== "";
        } else {
          control.value = value === null ? "" : value;
        }
      });
      var base = {};
      Array.prototype.forEach.call(form.elements, function (control) {
        var name = control.name;
        if (!name || BOOKKEEPING.indexOf(name) >= 0 || control.type === "submit") return;
        if ((control.type === "radio" || control.type === "checkbox") && !control.checked) return;
        var text = control.type === "checkbox" ? "on" : String(control.value).trim();
        if (text) base[name] = text;
      });
      var baseInput = form.querySelector('input[name="base"]');
      if (baseInput) baseInput.value = JSON.stringify(base);
    }

    function correctionOf(link) {
      var found = (link.getAttribute("hx-get") || "").match(/\/deals\/(\d+)\/edit\/$/);
      try {
        return found && { url: link.getAttribute("hx-get"), number: parseInt(found[1], 10), values: JSON.parse(link.dataset.values) };
      } catch (e) { return null; }
    }

    function hideActions() {
      var actions = doc.querySelector("#sheet .actions");
      if (actions && doc.querySelector("#panel[data-held]")) actions.hidden = true;
    }

    function button(label, css, action) {
      var b = doc.createElement("button");
      b.type = "button";
      b.className = css;
      b.textContent = label;
      b.addEventListener("click", action);
      return b;
    }

    // The kept write as its form on the fresh sheet: saved only by the player's tap.
    function review(entry) {
      var form = doc.createElement("form");
      form.method = "post";
      form.action = entry.url;
      form.hidden = true;
      entry.fields.concat([["csrfmiddlewaretoken", csrfToken() || entry.csrf]]).forEach(function (pair) {
        var input = doc.createElement("input");
        input.type = "hidden";
        input.name = pair[0];
        input.value = pair[1];
        form.appendChild(input);
      });
      doc.body.appendChild(form);
      outbox.drop(entry).then(function () { form.submit(); });
    }

    function discard(entry) {
      if (!window.confirm(text("discardConfirm"))) return;
      outbox.drop(entry).then(showQueue).then(function () {
        send("discarded");
      });
    }

    function describe(elt) {
      var title = doc.getElementById("panel-title");
      var what = elt.querySelector("button[type=submit]:not([name=preview])");
      var label = (title && elt.closest("#panel") ? title.textContent : (what ? what.textContent : "")).trim();
      var out = elt.querySelector('input[name="went_out"]:checked');
      var chip = out && out.closest("label");
      if (chip) label += " — " + chip.textContent.trim();
      return label;
    }

    // A write that could not be sent: kept in the outbox, labelled for its list (a new
    // deal is numbered after the deals saved and those this phone keeps).
    function keep(elt, request) {
      var out = elt.querySelector && elt.querySelector('input[name="went_out"]:checked');
      var chip = out && out.closest("label");
      var who = chip ? chip.textContent.trim() : "";
      return outbox.keep(request, function (entries) {
        var number = /\/deals\/new\/$/.test(request.path) ? nextNumber(entries) : null;
        var title = number && recordTitle(number);
        return { number: number, who: who, label: title ? title + (chip ? " — " + who : "") : describe(elt) };
      }).then(function () {
        offline = true;
        backToSheet();
        return showQueue();
      });
    }

    // After a write was kept: the sheet as it was before the form opened.
    function backToSheet() {
      var game = doc.getElementById("game");
      var panel = doc.getElementById("panel");
      if (!game || !panel) return;
      if (!lastSheet) {
        if (navigator.serviceWorker && navigator.serviceWorker.controller) location.assign(gameUrl);
        else panel.remove();
        return;
      }
      var holder = doc.createElement("div");
      holder.innerHTML = lastSheet;
      var fresh = holder.firstElementChild;
      game.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
      history.replaceState(null, "", gameUrl);
    }

    function send() { return outbox.send(); }

    // After each round of the outbox (static/js/outbox.js): the sheet and the list as they are now.
    function roundDone(round) {
      if (round.offline) offline = true;
      if (round.sent) {
        offline = false;
        refreshSheet();
      }
      return showQueue().then(function () {
        if (round.sent) say("sent", round.sent, !round.left.length);
      });
    }

    // A form being filled stays open: the live update brings the sheet under it.
    function refreshSheet() {
      if (!window.htmx || doc.getElementById("panel")) return;
      window.htmx.ajax("GET", gameUrl, { target: "#game", swap: "outerHTML" });
    }

    function inGame(elt) { return elt && elt.closest && elt.closest("#game"); }

    doc.body.addEventListener("htmx:configRequest", function (event) {
      var d = event.detail;
      if (d.verb !== "post" || !inGame(d.elt)) return;
      var fields = [];
      d.formData.forEach(function (value, name) { fields.push([name, String(value)]); });
      d.elt._outbox = { path: d.path, fields: fields, csrf: csrfToken() };
    });

    // The sheet's "Record deal" (not the form's preview, which asks the same address).
    function newDealLink(elt) { return elt && elt.tagName === "A" && /\/deals\/new\/$/.test(elt.getAttribute("hx-get") || ""); }

    doc.body.addEventListener("htmx:beforeRequest", function (event) {
      if (pollRequest(event)) return;
      var config = event.detail.requestConfig || {};
      if (canEdit && config.verb === "get" && newDealLink(event.detail.elt) && openHeldForm(null, event.detail.elt.getAttribute("hx-get"))) {
        event.preventDefault(); // the form the sheet holds, opened here
        return;
      }
      // The forms wait for a sheet the player left alone.
      clearTimeout(prefetchTimer);
      if (event.detail.requestConfig.verb === "post" && inGame(event.detail.elt)) say("saving");
    });

    function failed(event) {
      var elt = event.detail.elt;
      var config = event.detail.requestConfig || {};
      offline = true;
      if (config.verb === "post" && elt._outbox && canEdit) {
        keep(elt, elt._outbox);
        elt._outbox = null;
      } else if (elt.id === "preview") {
        elt.textContent = texts.previewOffline;
      } else if (config.verb === "get" && canEdit && elt.dataset && elt.dataset.values && correctionOf(elt) && openHeldForm(correctionOf(elt))) {
        // the same form, filled with the deal as stored
      } else if (config.verb === "get" && elt.closest && elt.closest("#panel[data-held]")) {
        backToSheet(); // Cancel: the sheet it was opened over
        showQueue();
      } else if (!isPoll(elt)) {
        showQueue().then(function () { say("notKept"); });
      } else {
        showQueue();
      }
    }
    doc.body.addEventListener("htmx:sendError", failed);
    doc.body.addEventListener("htmx:timeout", failed);
    doc.body.addEventListener("htmx:responseError", function (event) {
      var status = event.detail.xhr.status;
      if (status >= 502 && status <= 504) failed(event); // a proxy whose server does not answer
    });

    function answered(d) {
      var xhr = d.xhr;
      if (!xhr || !xhr.status || d._seen) return;
      d._seen = true;
      var elt = (d.requestConfig && d.requestConfig.elt) || d.elt;
      if (xhr.getResponseHeader("X-Offline-Copy")) { offline = true; say("keptForm"); return; }
      var poll = pollAnswer(elt, xhr);
      if (poll === "replaced") {
        replaced = true;
        say("replaced");
        return;
      }
      var wasOffline = offline;
      if (xhr.status < 500) offline = false;
      if (d.requestConfig && d.requestConfig.verb === "post" && elt._outbox && xhr.status < 500) {
        outbox.markUsed(field(elt._outbox.fields, "once"));
        elt._outbox = null;
        if (line.dataset.state === "saving") say("");
      }
      // The live update brought a change made on another phone.
      if (poll === "updated") say("updated", 0, true);
      else if (wasOffline && !offline) say("back", 0, true);
      if (wasOffline && !offline) send("back");
    }
    // Before the swap too: a live update replaces its own element.
    doc.body.addEventListener("htmx:beforeSwap", function (event) { answered(event.detail); });
    doc.body.addEventListener("htmx:afterRequest", function (event) { answered(event.detail); });

    doc.body.addEventListener("htmx:afterSettle", function () { settled(); });

    // A new sheet stays where the player had scrolled it sideways (many players), and
    // down at its newest deal: after a save, a live update and on load.
    var sheetAt = null;
    function newestInView(box) { if (box) box.scrollTop = box.scrollHeight; }
    doc.body.addEventListener("htmx:beforeSwap", function () {
      var box = doc.querySelector(".sheet-scroll");
      sheetAt = box && box.scrollLeft;
    });
    // The live stream brought the new sheet itself (live.js): as the poll's answer would.
    doc.body.addEventListener("scorepad:pushed", function () {
      var box = doc.querySelector(".sheet-scroll");
      sheetAt = box && box.scrollLeft;
      say("updated", 0, true);
    });
    doc.body.addEventListener("htmx:afterSwap", function () {
      var box = doc.querySelector(".sheet-scroll");
      if (box && sheetAt !== null) box.scrollLeft = sheetAt;
      newestInView(box);
      sheetAt = null;
      hideActions();
    });
    newestInView(doc.querySelector(".sheet-scroll"));

    // A sheet with no form open: remembered, kept by the worker, its forms fetched once.
    function settled() {
      outbox.learn(shownVersion());
      var game = doc.getElementById("game");
      if (!game || doc.getElementById("panel")) return;
      lastSheet = game.outerHTML;
      outbox.all().then(function (entries) { renderPending(mine(entries)); }).catch(function () {});
      if (doc.documentElement.hasAttribute("data-offline-copy") && offline) return;
      var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (!worker) return;
      var page = doc.documentElement.cloneNode(true);
      page.removeAttribute("data-offline-copy");
      page.querySelectorAll(".messages, .message.error").forEach(function (n) { n.remove(); });
      var copyLine = page.querySelector(".connection");
      if (copyLine) { copyLine.textContent = ""; copyLine.removeAttribute("data-state"); }
      var copyBox = page.querySelector(".outbox");
      if (copyBox) copyBox.hidden = true;
      worker.postMessage({ type: "keep-page", url: gameUrl, html: "<!doctype html>\n" + page.outerHTML });
      clearTimeout(prefetchTimer);
      if (canEdit && !offline) prefetchTimer = setTimeout(prefetchForms, 1500);
    }

    function prefetchForms() {
      var version = shownVersion();
      var urls = [];
      // Not the next deal's form: the sheet holds it (#offline-deal); nor a correction it fills in (data-values).
      var rows = doc.querySelectorAll("#sheet tbody th a[hx-get]");
      for (var i = Math.max(0, rows.length - 3); i < rows.length; i++) if (!rows[i].dataset.values) urls.push(rows[i].getAttribute("hx-get"));
      // One after the other: four forms at once would compete with the table's own requests.
      urls.reduce(function (chain, url) {
        var key = version + " " + url;
        if (prefetched[key]) return chain;
        prefetched[key] = true;
        return chain.then(function () {
          // The sheet moved on (or a form opened): its links may lead nowhere now.
          if (shownVersion() !== version || doc.getElementById("panel")) return null;
          return fetch(url, {
            credentials: "same-origin",
            headers: { "HX-Request": "true", "HX-Target": "game", "HX-Current-URL": location.href },
          }).catch(function () {});
        });
      }, Promise.resolve());
    }

    window.addEventListener("online", function () { offline = false; send("online"); });
    window.addEventListener("offline", function () { offline = true; showQueue(); });
    doc.addEventListener("visibilitychange", function () {
      if (doc.visibilityState === "visible") send("visible");
    });
    bar.querySelector("[data-outbox-send]").addEventListener("click", function () { send("tap"); });

    if (doc.documentElement.hasAttribute("data-offline-copy")) offline = true;
    if (navigator.serviceWorker) {
      navigator.serviceWorker.addEventListener("controllerchange", settled);
    }
    settled();
    showQueue().then(function () { send("load"); });

    var wake = doc.querySelector("[data-wake]");
    var lock = null;
    if (wake && navigator.wakeLock && navigator.wakeLock.request) {
      wake.closest("label").hidden = false;
      wake.checked = local("scorepad-wake") !== "off";
      var hold = function () {
        if (!wake.checked || lock || doc.visibilityState !== "visible") return;
        navigator.wakeLock.request("screen").then(function (sentinel) {
          lock = sentinel;
          sentinel.addEventListener("release", function () { lock = null; });
        }).catch(function () { lock = null; });
      };
      wake.addEventListener("change", function () {
        local("scorepad-wake", wake.checked ? "on" : "off");
        if (wake.checked) hold();
        else if (lock) { lock.release().catch(function () {}); lock = null; }
      });
      doc.addEventListener("visibilitychange", hold);
      hold();
    }
  }

  // A form refused (templates/scorepad/_errors.html): its first control in view and
  // focused, once per summary, after a load or a swap; and the card grid's script
  // (static/js/cards.js, named by the grid) when a swap brought one: htmx drops the scripts it swaps in.
  function settle(swapped) {
    var box = doc.querySelector(".error-summary:not([data-seen])");
    if (box) {
      box.setAttribute("data-seen", "");
      var link = box.querySelector("a[href^='#']");
      var to = (link && doc.getElementById(link.hash.slice(1))) || box;
      var fold = to.closest("details");
      if (fold) fold.open = true;
      to.scrollIntoView({ block: "center" });
      to.focus({ preventScroll: true });
    }
    var lazy = swapped && doc.querySelector("[data-script]");
    if (lazy && !window.cardGrid) {
      window.cardGrid = 1;
      var script = doc.createElement("script");
      script.src = lazy.dataset.script;
      doc.head.appendChild(script);
    }
  }
  doc.addEventListener("htmx:afterSettle", function () { setTimeout(settle, 0, 1); });

  ready(function () {
    settle();
    listKeptGames();
    var bar = doc.getElementById("table-bar");
    if (bar && bar.dataset.texts) Table(bar);
  });
})();
