/* The phone at the table: service worker, connection state, outbox, screen kept awake.
   How it works: scorepad/views/app.py. */
(function () {
  "use strict";

  var doc = document;
  doc.documentElement.classList.add("js");
  var DB = "scorepad";
  var STORE = "outbox";
  var USED = "scorepad-used-once"; // one-time tokens of forms this phone sent
  var RETRY_MS = 20000;

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

  var dbPromise = null;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
        var open = window.indexedDB.open(DB, 1);
        open.onupgradeneeded = function () {
          open.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        };
        open.onsuccess = function () { resolve(open.result); };
        open.onerror = function () { reject(open.error); };
      });
    }
    return dbPromise;
  }

  function store(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var tx = database.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }

  var outbox = {
    all: function () {
      return store("readonly", function (s) { return s.getAll(); }).then(function (list) {
        return (list || []).sort(function (a, b) { return a.id - b.id; });
      });
    },
    add: function (entry) { return store("readwrite", function (s) { return s.add(entry); }); },
    put: function (entry) { return store("readwrite", function (s) { return s.put(entry); }); },
    remove: function (id) { return store("readwrite", function (s) { return s.delete(id); }); },
  };

  function usedTokens() {
    try { return JSON.parse(local(USED) || "[]"); } catch (e) { return []; }
  }
  function markUsed(once) {
    if (!once) return;
    var list = usedTokens().filter(function (t) { return t !== once; });
    list.push(once);
    local(USED, JSON.stringify(list.slice(-300)));
  }
  function newToken() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return "p" + Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function field(fields, name, value) {
    for (var i = 0; i < fields.length; i++) {
      if (fields[i][0] === name) {
        if (value === undefined) return fields[i][1];
        fields[i][1] = value;
        return value;
      }
    }
    if (value !== undefined) fields.push([name, value]);
    return value === undefined ? null : value;
  }

  function csrfToken() {
    try {
      var headers = JSON.parse(doc.body.getAttribute("hx-headers") || "{}");
      if (headers["X-CSRFToken"]) return headers["X-CSRFToken"];
    } catch (e) { /* no token on this page */ }
    var match = doc.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  // One tab at a time sends the outbox.
  function exclusively(work) {
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request("scorepad-outbox", work);
    }
    return work();
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
    var versionKey = "scorepad-version:" + token;
    var offline = false; // the last request to the server failed
    var replaced = false;
    var sending = false;
    var lastSheet = null; // the game part of the page with no form open
    var clearTimer = null;
    var retryTimer = null;
    var prefetched = {};
    var prefetchTimer = null;

    function text(name, n) { return (texts[name] || name).replace("{n}", String(n)); }

    function say(name, n, transient) {
      if (clearTimer) { clearTimeout(clearTimer); clearTimer = null; }
      line.textContent = name ? text(name, n) : "";
      line.dataset.state = name || "";
      if (transient) clearTimer = setTimeout(function () { showQueue(); }, 5000);
    }

    function shownVersion() {
      var poll = doc.querySelector("#sheet .poll");
      return poll ? parseInt(poll.dataset.version, 10) : NaN;
    }
    function knownVersion() {
      var kept = parseInt(local(versionKey), 10);
      var shown = shownVersion();
      return Math.max(isNaN(kept) ? 0 : kept, isNaN(shown) ? 0 : shown);
    }
    function learn(version) {
      if (typeof version === "number" && version > knownVersion()) local(versionKey, String(version));
    }

    function mine(entries) { return entries.filter(function (e) { return e.game === token; }); }

    function showQueue() {
      return outbox.all().then(function (entries) {
        entries = mine(entries);
        renderQueue(entries);
        renderPending(entries);
        if (entries.length) {
          var stuck = entries.some(function (e) { return e.state === "attention"; });
          say(stuck ? "attention" : offline ? "queued" : "waiting", entries.length);
        } else if (offline && doc.querySelector("#panel[data-offline]")) {
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
          problem.textContent = entry.problem || text("refused");
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

    // Offline, "Record deal" opens the form the sheet holds (templates/scorepad/game.html):
    // numbered after the deals this phone keeps, with a one-time token of its own.
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
    // to correct it with the same form filled with the deal as stored.
    function openOfflineForm(correction) {
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
        panel.querySelectorAll('input[name="once"]').forEach(function (input) { input.value = newToken(); });
        panel.querySelectorAll('input[name="number"]').forEach(function (input) { input.value = String(number); });
        sheet.parentNode.insertBefore(panel, sheet);
        hideActions();
        if (window.htmx) window.htmx.process(panel);
        doc.dispatchEvent(new Event("htmx:load"));
        say("offlineForm");
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
      if (actions && doc.querySelector("#panel[data-offline]")) actions.hidden = true;
    }

    function button(label, css, action) {
      var b = doc.createElement("button");
      b.type = "button";
      b.className = css;
      b.textContent = label;
      b.addEventListener("click", action);
      return b;
    }

    // Later writes were made on top of this one: one version less each.
    function shiftAfter(entry) {
      return outbox.all().then(function (entries) {
        return Promise.all(mine(entries).filter(function (e) { return e.id > entry.id; }).map(function (e) {
          e.version -= 1;
          field(e.fields, "version", String(e.version));
          return outbox.put(e);
        }));
      });
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
      outbox.remove(entry.id).then(function () { return shiftAfter(entry); }).then(function () {
        form.submit();
      });
    }

    function discard(entry) {
      if (!window.confirm(text("discardConfirm"))) return;
      outbox.remove(entry.id).then(function () { return shiftAfter(entry); }).then(showQueue).then(function () {
        send("discarded");
      });
    }

    function describe(elt, fields) {
      var title = doc.getElementById("panel-title");
      var what = elt.querySelector("button[type=submit]:not([name=preview])");
      var label = (title && elt.closest("#panel") ? title.textContent : (what ? what.textContent : "")).trim();
      var out = elt.querySelector('input[name="went_out"]:checked');
      var chip = out && out.closest("label");
      if (chip) label += " — " + chip.textContent.trim();
      return label;
    }

    function keep(elt, request) {
      var fields = request.fields.filter(function (pair) { return pair[0] !== "csrfmiddlewaretoken"; });
      var csrf = request.csrf;
      return outbox.all().then(function (entries) {
        var once = field(fields, "once");
        var taken = entries.some(function (e) { return e.once === once; });
        if (!once || taken || usedTokens().indexOf(once) >= 0) once = field(fields, "once", newToken());
        learn(parseInt(field(fields, "version"), 10));
        var version = knownVersion() + mine(entries).length;
        field(fields, "version", String(version));
        // A new deal is numbered after the deals saved and those this phone keeps.
        var number = null;
        if (/\/deals\/new\/$/.test(request.path)) {
          number = nextNumber(entries);
          field(fields, "number", String(number));
        }
        var out = elt.querySelector && elt.querySelector('input[name="went_out"]:checked');
        var chip = out && out.closest("label");
        return outbox.add({
          number: number,
          who: chip ? chip.textContent.trim() : "",
          game: token,
          url: request.path,
          fields: fields,
          csrf: csrf,
          once: once,
          version: version,
          label: number && recordTitle(number) ? recordTitle(number) + (chip ? " — " + chip.textContent.trim() : "") : describe(elt, fields),
          queuedAt: Date.now(),
          state: "waiting",
        });
      }).then(function () {
        offline = true;
        backToSheet();
        retrySoon();
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

    function post(entry) {
      var body = new URLSearchParams();
      entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
      var csrf = csrfToken() || entry.csrf;
      body.set("csrfmiddlewaretoken", csrf);
      return fetch(entry.url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { "X-Scorepad-Outbox": "1", "X-CSRFToken": csrf },
      }).then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (answer) {
          return { status: response.status, answer: answer };
        });
      });
    }

    function send(reason) {
      if (sending || navigator.onLine === false) return Promise.resolve();
      sending = true;
      var sent = 0;
      return exclusively(function () {
        return outbox.all().then(function (entries) {
          var blocked = {};
          return entries.reduce(function (chain, entry) {
            return chain.then(function (stop) {
              if (stop || blocked[entry.game] || entry.state === "attention") {
                blocked[entry.game] = true;
                return stop;
              }
              if (entry.game === token) say("sending", 0);
              return post(entry).then(function (result) {
                var outcome = result.answer.outcome;
                learnFor(entry.game, result.answer.version);
                if (result.status === 200 && (outcome === "saved" || outcome === "already")) {
                  markUsed(entry.once);
                  sent += 1;
                  return outbox.remove(entry.id).then(function () { return false; });
                }
                if (result.status === 429 || result.status >= 500) return true; // later (503 "retry": the database did not answer)
                entry.state = "attention";
                entry.outcome = outcome || (result.status === 404 ? "gone" : "refused");
                entry.problem = result.answer.message || text(result.status === 404 ? "gone" : "refused");
                blocked[entry.game] = true;
                return outbox.put(entry).then(function () { return false; });
              }, function () {
                offline = true;
                return true; // no connection after all: everything waits
              });
            });
          }, Promise.resolve(false));
        });
      }).then(function () {
        if (sent) {
          offline = false;
          refreshSheet();
        }
        return showQueue();
      }).then(function (left) {
        if (sent) say("sent", sent, !left.length);
        if (left.length) retrySoon();
      }).catch(function () {}).then(function () { sending = false; });
    }

    function learnFor(game, version) {
      if (typeof version !== "number") return;
      if (game === token) learn(version);
      else {
        var key = "scorepad-version:" + game;
        if (!(parseInt(local(key), 10) >= version)) local(key, String(version));
      }
    }

    function retrySoon() {
      if (retryTimer) return;
      retryTimer = setTimeout(function () { retryTimer = null; send("retry"); }, RETRY_MS);
    }

    // A form being filled stays open: the live update brings the sheet under it.
    function refreshSheet() {
      if (!window.htmx || doc.getElementById("panel")) return;
      window.htmx.ajax("GET", gameUrl, { target: "#game", swap: "outerHTML" });
    }

    function inGame(elt) { return elt && elt.closest && elt.closest("#game"); }
    function isPoll(elt) { return elt && elt.classList && elt.classList.contains("poll"); }

    doc.body.addEventListener("htmx:configRequest", function (event) {
      var d = event.detail;
      if (d.verb !== "post" || !inGame(d.elt)) return;
      var fields = [];
      d.formData.forEach(function (value, name) { fields.push([name, String(value)]); });
      d.elt._outbox = { path: d.path, fields: fields, csrf: csrfToken() };
    });

    doc.body.addEventListener("htmx:beforeRequest", function (event) {
      // A hidden page does not poll; the forms wait for a sheet the player left alone.
      if (isPoll(event.detail.elt)) {
        if (doc.visibilityState === "hidden") event.preventDefault();
        return;
      }
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
      } else if (config.verb === "get" && canEdit && /\/deals\/new\/$/.test(elt.getAttribute("hx-get") || "") && openOfflineForm()) {
        // the form the sheet holds
      } else if (config.verb === "get" && canEdit && elt.dataset && elt.dataset.values && correctionOf(elt) && openOfflineForm(correctionOf(elt))) {
        // the same form, filled with the deal as stored
      } else if (config.verb === "get" && elt.closest && elt.closest("#panel[data-offline]")) {
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
      if (isPoll(elt) && xhr.status === 286) {
        replaced = true;
        say("replaced");
        return;
      }
      var wasOffline = offline;
      if (xhr.status < 500) offline = false;
      if (d.requestConfig && d.requestConfig.verb === "post" && elt._outbox && xhr.status < 500) {
        markUsed(field(elt._outbox.fields, "once"));
        elt._outbox = null;
        if (line.dataset.state === "saving") say("");
      }
      // The live update brought a change made on another phone.
      if (isPoll(elt) && xhr.status === 200) say("updated", 0, true);
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
      learn(shownVersion());
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

    var wake = bar.querySelector("[data-wake]");
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
