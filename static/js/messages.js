/* The phone's messages: the connection line under the header, an outbox entry's box (the
   server's refusal or conflict, with what the player can do about it), and the summary of a
   form the server refused.

   Its design:

   - The words are the page's (templates/scorepad/game.html, #table-bar's data-texts: name=text
     pairs joined by "|", from scorepad/templatetags/scorepad.py's table_texts); `{n}` in a text
     is a count. A name with no text says itself.
   - The line (`say(name, n, transient)`): one state at a time, its name in data-state (the
     browser tests and the CSS read it). A transient one ("sent", "updated", "back") gives way
     after TRANSIENT_MS to what the page says when nothing happened (`onClear`, the outbox's
     list: static/js/outbox-page.js).
   - An entry's box (`entry(item, actions)`): its label and when it was kept; once the server
     refused it ("attention"), the server's own message (a conflict names the deal and both
     values, scorepad/conflicts.py), or "refused" / "gone" when it said none, and the buttons
     "Review" (not for a game that is gone) and "Discard". The phone adds nothing of its own to
     what the server said.
   - The refused form's summary (`focusErrors`, templates/scorepad/_errors.html): its first
     control in view and focused, once per summary, its fold opened.

   It touches only the line (.connection), the boxes it builds and the summary. Loaded as a
   classic script (window.ScorepadMessages) and by node for the unit tests (tests/js/), with the
   document and the clock passed in. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ScorepadMessages = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var TRANSIENT_MS = 5000;

  // "name=text|name=text" as an object.
  function parseTexts(data) {
    var texts = {};
    (data || "").split("|").forEach(function (pair) {
      var at = pair.indexOf("=");
      if (at > 0) texts[pair.slice(0, at)] = pair.slice(at + 1);
    });
    return texts;
  }

  // Options: document, line (the .connection element), texts, clock ({setTimeout, clearTimeout}),
  // onClear (what to say once a transient state gave way).
  function create(options) {
    var doc = options.document;
    var line = options.line;
    var texts = options.texts || {};
    var clock = options.clock;
    var onClear = options.onClear || function () {};
    var clearTimer = null;

    function text(name, n) { return (texts[name] || name).replace("{n}", String(n)); }

    function say(name, n, transient) {
      if (clearTimer) { clock.clearTimeout(clearTimer); clearTimer = null; }
      line.textContent = name ? text(name, n) : "";
      line.dataset.state = name || "";
      if (transient) clearTimer = clock.setTimeout(function () { clearTimer = null; onClear(); }, TRANSIENT_MS);
    }

    function said() { return line.dataset.state || ""; }

    function button(label, css, action) {
      var b = doc.createElement("button");
      b.type = "button";
      b.className = css;
      b.textContent = label;
      b.addEventListener("click", action);
      return b;
    }

    // An outbox entry as an item of its list; ``actions``: {review, discard}, called with it.
    function entry(item, actions) {
      var li = doc.createElement("li");
      li.className = "outbox-entry " + item.state;
      var label = doc.createElement("span");
      label.className = "what";
      label.textContent = item.label;
      li.appendChild(label);
      var when = doc.createElement("span");
      when.className = "when muted";
      when.textContent = " · " + new Date(item.queuedAt).toLocaleTimeString(doc.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
      li.appendChild(when);
      if (item.state === "attention") {
        var problem = doc.createElement("p");
        problem.className = "problem";
        problem.textContent = item.problem || text(item.outcome === "gone" ? "gone" : "refused");
        li.appendChild(problem);
        var buttons = doc.createElement("div");
        buttons.className = "form-actions";
        if (item.outcome !== "gone") buttons.appendChild(button(texts.review, "", function () { actions.review(item); }));
        buttons.appendChild(button(texts.discard, "secondary danger-link", function () { actions.discard(item); }));
        li.appendChild(buttons);
      }
      return li;
    }

    return { text: text, say: say, said: said, entry: entry };
  }

  // A form refused: its first control in view and focused, once per summary.
  function focusErrors(doc) {
    var box = doc.querySelector(".error-summary:not([data-seen])");
    if (!box) return null;
    box.setAttribute("data-seen", "");
    var link = box.querySelector("a[href^='#']");
    var to = (link && doc.getElementById(link.hash.slice(1))) || box;
    var fold = to.closest("details");
    if (fold) fold.open = true;
    to.scrollIntoView({ block: "center" });
    to.focus({ preventScroll: true });
    return to;
  }

  return { create: create, parseTexts: parseTexts, focusErrors: focusErrors, TRANSIENT_MS: TRANSIENT_MS };
});
