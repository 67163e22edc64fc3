/* The card grid (templates/cards/grid.html): its buttons type card tokens into a text input,
   the hand above the grid shows the cards as faces (tap one to take it out) and, in a game
   of penalties, what they are worth. Without this script the grid stays hidden and the
   text input alone works. Loaded by the deal form (static/js/table.js after a swap).

   A typed token is read exactly as the engine reads it (rules/engine/cards.py, parse_card):
   with the engine's own table for the page's language, which the grid carries
   (data-reading: suit letters and symbols, canonical and local rank letters, the jokers'
   words), so "W♥ D♣ JK" in Polish counts as the saved deal will. A token the engine would
   refuse is said so beside the grid, never counted as nothing. readCard is loaded by node
   too, for the test that checks it against the engine for every token (tests/scorepad/),
   and the grid's behaviour (`create`, the document passed in) for its unit tests
   (tests/js/cards.test.js). */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ScorepadCards = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  function own(map, key) {
    return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : null;
  }

  // The canonical code of a typed token ("JH", "JK"), or null when the engine would refuse it.
  function readCard(token, table) {
    var upper = String(token).trim().toUpperCase();
    if (!upper) return null;
    if (table.jokers.indexOf(upper) >= 0) return table.joker;
    var suit = own(table.suits, upper.slice(-1));
    var rank = suit && own(table.ranks, upper.slice(0, -1));
    return rank ? rank + suit : null;
  }

  // The grid's behaviour on ``options.document`` (a browser's, or happy-dom's in node's unit
  // tests, tests/js/cards.test.js): its listeners, and `refresh` for the grids of a part of
  // the page (a form htmx swapped in).
  function create(options) {
    var doc = options.document;

    function tokens(input) {
      var text = input.value.trim();
      return text ? text.split(/[\s,;]+/) : [];
    }

    function el(tag, css, text) {
      var node = doc.createElement(tag);
      if (css) node.className = css;
      if (text) node.textContent = text;
      return node;
    }

    // One face, as templates/cards/face.html#face draws it: rank over suit; a token that is
    // no card as it was typed, marked.
    function face(key, token) {
      if (!key) return el("span", "pc unread", token);
      var text = key.textContent.trim();
      var joker = key.classList.contains("joker");
      var pc = el("span", "pc" + (joker ? " joker" : key.closest(".red-suit") ? " red" : ""));
      pc.appendChild(el("span", "pc-rank", joker ? text : text.slice(0, -1)));
      pc.appendChild(el("span", "pc-suit", joker ? "★" : text.slice(-1)));
      return pc;
    }

    // The engine's reading of this language, as the grid carries it (null on a page kept from
    // before it did: the keys' own tokens then, as before).
    function table(grid) {
      if (grid._reading === undefined) {
        try {
          grid._reading = JSON.parse(grid.dataset.reading || "null");
        } catch (e) {
          grid._reading = null;
        }
      }
      return grid._reading;
    }

    // The key of a token, read as the engine reads it.
    function keyOf(grid, token) {
      var reading = table(grid), keys, upper = token.toUpperCase(), code = upper;
      if (reading) {
        code = readCard(token, reading);
        return code ? grid.querySelector('[data-card="' + code + '"]') : null;
      }
      keys = grid.querySelectorAll("[data-card]");
      for (var i = 0; i < keys.length; i++) {
        if ((keys[i].dataset.type || "").toUpperCase() === upper) return keys[i];
      }
      return grid.querySelector('[data-card="' + code + '"]');
    }

    function show(grid, input) {
      var list = tokens(input), points = 0, unread = null, hand = grid.querySelector("[data-card-hand]");
      if (hand) hand.textContent = "";
      list.forEach(function (token, i) {
        var key = keyOf(grid, token);
        if (key) points += Number(key.dataset.points || 0);
        else if (unread === null) unread = token;
        if (!hand) return;
        var button = el("button", "check-card");
        button.type = "button";
        button.dataset.cardAt = String(i);
        button.setAttribute("aria-label", grid.dataset.remove + " " + (key ? key.getAttribute("aria-label") : token));
        button.appendChild(face(key, token));
        hand.appendChild(button);
      });
      // A token that is no card: the engine will refuse the hand, so no sum is shown, but
      // what it will say.
      var refused = unread === null ? "" : (grid.dataset.unread || "%(token)s ?").replace("%(token)s", unread);
      var out = grid.querySelector("[data-card-count]");
      if (out) out.textContent = String(list.length);
      out = grid.querySelector("[data-card-points]");
      if (out) {
        out.textContent = refused ? "?" : String(points);
        out.classList.toggle("unread", Boolean(refused));
      }
      doc.querySelectorAll('[data-sum-for="' + input.id + '"]').forEach(function (sum) {
        sum.textContent = !list.length || !grid.dataset.unit ? "" : refused ? "· " + refused : "· " + grid.dataset.unit + ": " + points;
        sum.classList.toggle("unread", Boolean(refused && grid.dataset.unit));
      });
    }

    doc.addEventListener("click", function (event) {
      var key = event.target.closest("[data-card], [data-card-action], [data-card-at]");
      var grid = key && key.closest(".card-grid");
      var input = grid && doc.getElementById(grid.dataset.target);
      if (!input) return;
      var list = tokens(input);
      if (key.dataset.card) list.push(key.dataset.type || key.dataset.card); // as the buttons say it
      else if (key.dataset.cardAt) list.splice(Number(key.dataset.cardAt), 1);
      else if (key.dataset.cardAction === "back") list.pop();
      else if (key.dataset.cardAction === "clear") list = [];
      input.value = list.join(" ");
      show(grid, input);
      var Event = doc.defaultView.Event;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });

    doc.addEventListener("input", function (event) {
      var input = event.target;
      if (!input.id) return;
      doc.querySelectorAll('.card-grid[data-target="' + input.id + '"]').forEach(function (grid) {
        show(grid, input);
      });
    });

    // One card grid open at a time: opening a player's cards folds the others of the form.
    // (Not <details name>: a swap inserts the new form while the old one is still there, and
    // the browser would then fold the new form's open grid.)
    doc.addEventListener("toggle", function (event) {
      var fold = event.target;
      if (!fold.open || !fold.classList || !fold.classList.contains("cards-entry")) return;
      var form = fold.closest("form");
      if (!form) return;
      form.querySelectorAll("details.cards-entry[open]").forEach(function (other) {
        if (other !== fold) other.open = false;
      });
    }, true);

    function refresh(root) {
      root.querySelectorAll(".card-grid").forEach(function (grid) {
        var input = doc.getElementById(grid.dataset.target);
        if (input) show(grid, input);
      });
    }
    doc.addEventListener("htmx:load", function (event) { refresh(event.target); });

    return { refresh: refresh };
  }

  return { readCard: readCard, create: create };
});

(function () {
  "use strict";
  if (typeof document === "undefined" || window.cardGridOn) return;
  window.cardGridOn = window.cardGrid = 1;
  var doc = document;
  doc.documentElement.classList.add("cards-js");
  var grids = window.ScorepadCards.create({ document: doc });
  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", function () { grids.refresh(doc); });
  else grids.refresh(doc);
})();
