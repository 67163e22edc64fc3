/* The deal form the sheet holds, opened by the phone itself, and the sheet under it.

   Its design (docs/architecture.md, "The table server and a flaky connection"):

   - "Record deal" opens the form the sheet holds (templates/scorepad/game.html#offline,
     <template id="offline-deal">), online or not: the same form the server would answer,
     numbered after the deals this phone keeps (`nextNumber`: the template's data-next plus
     the new deals in the outbox), with a one-time token of its own (the outbox's `newToken`).
     No round trip on the table's Wi-Fi, no rendering on the server. The deal's facts in the
     form (.deal-now: contract, cards) are shown only for the deal the template was made for.
   - A correction offline: the same form filled with the deal as stored (`fill`, from the
     sheet's link's data-values), and as ``base`` the values it opened with
     (scorepad/conflicts.py). Online the server's correction form opens instead. The form is
     made for the players at the table now: for a deal some of them were not in (they joined
     since) the values name the deal's players (`seats`), and the others' controls are
     hidden and left out of what is posted, as the server's form for that deal has none; a
     deal of a player who has left since has no control of theirs in it (`left`): it is not
     opened, and the page says why (static/js/outbox-page.js).
   - The address: online the form's own (a reload opens the server's form); offline the
     sheet's, which the service worker keeps.
   - Back to the sheet (`backToSheet`, after a write was kept or on Cancel offline): the
     sheet as it was before the form opened (`remember`, the game part with no form open),
     else the sheet's address again.
   - The sheet moves on (`showAhead`): after new deals kept offline, the header shows the
     first deal not sent yet (number, dealer, starter, contract, cards: the schedule the server
     rendered after the held form, .deal-schedule, scorepad/sheet.py's deals_ahead), marked
     "Waiting to be sent (n)", and "Record deal" says that deal's number. When the deals kept
     reach the deal that ends the game by itself (a contract game's last, a target of deals),
     the header says "Game over", still marked as waiting, and "Record deal" is hidden. A game
     that may end on a score goes on showing the next deal: whether a score ends it is the
     server's to say once the deals are sent. The phone never computes a score or a total:
     the waiting rows show what was typed.
   - The sheet's actions are hidden while the form it holds is open (`hideActions`).
   - The offline page lists the sheets this phone keeps (`listKeptGames`: the service
     worker's answer to "kept-games").

   It touches #panel (which it inserts), #messages (emptied: its words were the sheet's),
   #game (replaced by the sheet remembered), the sheet's .deal-head and .actions and the offline page's
   .kept-list. Loaded as a classic script (window.ScorepadOfflineForm) and by node for the
   unit tests (tests/js/), with the document, the window (history, location, htmx), the
   outbox and the shared state ({offline}) passed in. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ScorepadOfflineForm = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // A new deal's address (the sheet's "Record deal", the form's post), not a correction's.
  function isNewDeal(url) { return /\/deals\/new\/$/.test(url || ""); }

  // Fields that are the form's bookkeeping, not the deal.
  var BOOKKEEPING = ["version", "once", "base", "number", "csrfmiddlewaretoken", "preview", "over"];

  function dealFields(form, each) {
    Array.prototype.forEach.call(form.elements, function (control) {
      var name = control.name;
      if (!name || BOOKKEEPING.indexOf(name) >= 0 || control.type === "submit" || control.disabled) return;
      each(control, name);
    });
  }

  // The seat a control of the deal form is for (its position), or null: who went out, and a
  // player's points and cards (templates/scorepad/_deal_form.html).
  function seatOf(control) {
    if (control.name === "went_out") return /^\d+$/.test(control.value) ? parseInt(control.value, 10) : null;
    var found = control.name.match(/_(\d+)$/);
    return found ? parseInt(found[1], 10) : null;
  }

  // Only the players of the deal (``seats``, positions): the others' controls hidden, and
  // disabled, so that nothing of theirs is posted.
  function onlyPlayers(form, seats) {
    Array.prototype.forEach.call(form.elements, function (control) {
      var seat = seatOf(control);
      if (seat === null || seats.indexOf(seat) >= 0) return;
      control.disabled = true;
      var shown = control.closest(".penalty-row, label") || control;
      shown.hidden = true;
    });
  }

  // The form the sheet holds, made a deal's correction: its address, its players, its values
  // as stored, and as ``base`` the values it opened with.
  function fill(form, correction) {
    form.action = correction.url;
    form.setAttribute("hx-post", correction.url);
    if (correction.seats) onlyPlayers(form, correction.seats);
    var values = correction.values;
    dealFields(form, function (control, name) {
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
    dealFields(form, function (control, name) {
      if ((control.type === "radio" || control.type === "checkbox") && !control.checked) return;
      var text = control.type === "checkbox" ? "on" : String(control.value).trim();
      if (text) base[name] = text;
    });
    var baseInput = form.querySelector('input[name="base"]');
    if (baseInput) baseInput.value = JSON.stringify(base);
  }

  // A deal's link on the sheet as {url, number, values, seats} (``seats``: the deal's players
  // when not all of the table's), {url, number, left: true} for a deal of a player who has
  // left since, or null.
  function correctionOf(link) {
    var found = (link.getAttribute("hx-get") || "").match(/\/deals\/(\d+)\/edit\/$/);
    var values;
    try {
      values = found && JSON.parse(link.dataset.values);
    } catch (e) { return null; }
    if (!values || typeof values !== "object") return null;
    var correction = { url: link.getAttribute("hx-get"), number: parseInt(found[1], 10) };
    if (values.left) return Object.assign(correction, { left: true });
    if (values.seats) correction.seats = values.seats;
    delete values.seats;
    return Object.assign(correction, { values: values });
  }

  // The offline page: the sheets this phone keeps, as the service worker lists them.
  function listKeptGames(doc, serviceWorker) {
    var list = doc.querySelector(".kept-list");
    var worker = serviceWorker && serviceWorker.controller;
    if (!list || !worker) return;
    serviceWorker.addEventListener("message", function (event) {
      if (!event.data || event.data.type !== "kept-games" || !event.data.games.length) return;
      event.data.games.forEach(function (game) {
        var title = new doc.defaultView.DOMParser().parseFromString(game.title, "text/html").documentElement.textContent;
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

  // Options: document, window, outbox, state ({offline}), say (the connection line), gameUrl.
  function create(options) {
    var doc = options.document;
    var win = options.window;
    var outbox = options.outbox;
    var state = options.state;
    var say = options.say;
    var gameUrl = options.gameUrl;
    var lastSheet = null; // the game part of the page with no form open

    function template() { return doc.getElementById("offline-deal"); }

    // The number of a new deal recorded now: after the sheet's and the ones this phone keeps.
    function nextNumber(entries) {
      var held = template();
      var next = held ? parseInt(held.dataset.next, 10) : NaN;
      if (isNaN(next)) next = doc.querySelectorAll("#sheet table.sheet tbody tr:not(.pending)").length + 1;
      return next + outbox.mine(entries).filter(function (e) { return e.number; }).length;
    }

    // "Record deal {n}" in the page's language, from the form the sheet holds.
    function recordTitle(number) {
      var held = template();
      return held && held.dataset.title ? held.dataset.title.replace("{n}", String(number)) : "";
    }

    function hideActions() {
      var actions = doc.querySelector("#sheet .actions");
      if (actions && doc.querySelector("#panel[data-held]")) actions.hidden = true;
    }

    // ``correction``: {url, number, values} of a deal on the sheet, or null for a new deal.
    // ``url``: the address to show, as the server's form would. False when there is no form
    // to open here (the server's is asked then); else a promise of the panel.
    function open(correction, url) {
      var held = template();
      var sheet = doc.getElementById("sheet");
      if (!held || !sheet || doc.getElementById("panel") || (correction && correction.left)) return false;
      return outbox.all().catch(function () { return []; }).then(function (entries) {
        if (doc.getElementById("panel")) return null;
        var panel = doc.importNode(held.content, true).firstElementChild;
        var number = correction ? correction.number : nextNumber(entries);
        panel.querySelectorAll("script").forEach(function (script) { script.remove(); });
        var title = panel.querySelector("#panel-title");
        if (title) title.textContent = correction ? held.dataset.correct.replace("{n}", String(number)) : recordTitle(number);
        // A later deal's contract from the schedule (none beyond it); a correction's is the deal's own.
        var spec = panel.querySelector(".deal-now");
        var later = !correction && number !== parseInt(held.dataset.next, 10);
        var facts = later && scheduled(number);
        if (spec && facts && facts.dataset.spec) spec.textContent = facts.dataset.spec;
        else if (spec && (correction || later)) spec.remove();
        if (correction) fill(panel.querySelector("form"), correction);
        panel.querySelectorAll('input[name="once"]').forEach(function (input) { input.value = outbox.newToken(); });
        panel.querySelectorAll('input[name="number"]').forEach(function (input) { input.value = String(number); });
        var said = doc.getElementById("messages");
        if (said) said.textContent = ""; // "Deal 4 recorded." belonged to the sheet before
        sheet.parentNode.insertBefore(panel, sheet);
        if (url && !state.offline) win.history.pushState({ htmx: true }, "", url);
        hideActions();
        if (win.htmx) win.htmx.process(panel);
        doc.dispatchEvent(new doc.defaultView.Event("htmx:load"));
        if (state.offline) say("offlineForm");
        panel.scrollIntoView({ block: "start" });
        if (title) { title.tabIndex = -1; title.focus({ preventScroll: true }); }
        return panel;
      });
    }

    // The schedule's facts of deal ``number`` (its <template>), or null beyond the schedule.
    function scheduled(number) {
      return doc.querySelector('#sheet .deal-schedule template[data-number="' + number + '"]');
    }

    // The sheet's header and "Record deal" as they will read once the deals this phone keeps
    // are sent: the first deal not sent yet, from the schedule the server rendered, marked as
    // waiting; the game over when the deals kept end it. Beyond the schedule, its number only.
    function showAhead(entries) {
      var held = template();
      var schedule = doc.querySelector("#sheet .deal-schedule");
      var head = doc.querySelector("#sheet .deal-head");
      if (!held || !schedule || !head) return;
      var number = nextNumber(entries);
      var waiting = number - parseInt(held.dataset.next, 10);
      if (!waiting && !head.classList.contains("waiting")) return; // as the server rendered it
      Array.prototype.slice.call(head.children).forEach(function (child) {
        if (child.tagName !== "H1") child.remove();
      });
      var facts = scheduled(number);
      if (facts) head.appendChild(doc.importNode(facts.content, true));
      head.classList.toggle("waiting", waiting > 0);
      if (waiting > 0) {
        var mark = doc.createElement("p");
        mark.className = "deal-waiting";
        mark.textContent = schedule.dataset.waiting.replace("{n}", String(waiting));
        head.appendChild(mark);
      }
      var record = doc.querySelector("#sheet .actions a[hx-get]");
      if (record && isNewDeal(record.getAttribute("hx-get"))) {
        record.textContent = recordTitle(number);
        record.hidden = !!(facts && facts.hasAttribute("data-end"));
      }
    }

    // A page with no form open, its sheet remembered for `backToSheet` (an evening's or a
    // circle's page has none); false while a form is open.
    function remember() {
      if (doc.getElementById("panel")) return false;
      var game = doc.getElementById("game");
      if (game) lastSheet = game.outerHTML;
      return true;
    }

    function backToSheet() {
      var game = doc.getElementById("game");
      var panel = doc.getElementById("panel");
      if (!game || !panel) return;
      if (!lastSheet) {
        var worker = win.navigator.serviceWorker && win.navigator.serviceWorker.controller;
        if (worker) win.location.assign(gameUrl);
        else panel.remove();
        return;
      }
      var holder = doc.createElement("div");
      holder.innerHTML = lastSheet;
      var fresh = holder.firstElementChild;
      game.replaceWith(fresh);
      if (win.htmx) win.htmx.process(fresh);
      win.history.replaceState(null, "", gameUrl);
    }

    doc.body.addEventListener("htmx:afterSwap", hideActions);

    return {
      open: open,
      showAhead: showAhead,
      nextNumber: nextNumber,
      recordTitle: recordTitle,
      remember: remember,
      backToSheet: backToSheet,
      correctionOf: correctionOf,
      isOpen: function () { return !!doc.querySelector("#panel[data-held]"); },
    };
  }

  return { create: create, isNewDeal: isNewDeal, fill: fill, correctionOf: correctionOf, listKeptGames: listKeptGames };
});
