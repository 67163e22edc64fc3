// The phone's messages (static/js/messages.js) on a DOM (happy-dom: why, in tests/js/page.js).
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const Messages = require("../../static/js/messages.js");
const { page, fakeClock, TEXTS } = require("./page.js");

function messages(window, clock, onClear) {
  return Messages.create({
    document: window.document,
    line: window.document.querySelector(".connection"),
    texts: Messages.parseTexts(TEXTS),
    clock,
    onClear,
  });
}

test("the line says a state in the page's words, its name in data-state", () => {
  const window = page();
  const m = messages(window, fakeClock());
  m.say("queued", 3);
  const line = window.document.querySelector(".connection");
  assert.equal(line.textContent, "3 kept on this phone");
  assert.equal(line.dataset.state, "queued");
  assert.equal(m.said(), "queued");
  m.say("");
  assert.equal(line.textContent, "");
  assert.equal(m.said(), "");
});

test("a transient state gives way after five seconds, and only the last one", () => {
  const window = page();
  const clock = fakeClock();
  let cleared = 0;
  const m = messages(window, clock, () => { cleared += 1; });
  m.say("sent", 2, true);
  clock.tick(4000);
  m.say("updated", 0, true); // a second transient one starts its own five seconds
  clock.tick(4000);
  assert.equal(cleared, 0);
  clock.tick(1000);
  assert.equal(cleared, 1);
  m.say("back", 0, true);
  m.say("offline"); // a lasting state ends the transient one's timer
  clock.tick(10000);
  assert.equal(cleared, 1);
  assert.equal(clock.pending(), 0);
});

test("a refused entry's box shows the server's message and the two buttons", () => {
  const window = page();
  const m = messages(window, fakeClock());
  const reviewed = [];
  const discarded = [];
  const message = "Deal 3 was corrected on another phone: Bob 40 there, 25 here.";
  const entry = { state: "attention", label: "Correct deal 3", queuedAt: 0, problem: message, outcome: "conflict" };
  const box = m.entry(entry, { review: (e) => reviewed.push(e), discard: (e) => discarded.push(e) });
  assert.equal(box.className, "outbox-entry attention");
  assert.equal(box.querySelector(".what").textContent, "Correct deal 3");
  assert.equal(box.querySelector(".problem").textContent, message);
  const buttons = [...box.querySelectorAll("button")];
  assert.deepEqual(buttons.map((b) => b.textContent), ["Review", "Discard"]);
  buttons[0].click();
  buttons[1].click();
  assert.deepEqual([reviewed, discarded], [[entry], [entry]]);
});

test("a refusal the server did not explain says so; a game gone cannot be reviewed", () => {
  const window = page();
  const m = messages(window, fakeClock());
  const refused = m.entry({ state: "attention", label: "Record deal 2", queuedAt: 0, outcome: "refused" }, {});
  assert.equal(refused.querySelector(".problem").textContent, "The server refused this");
  const gone = m.entry({ state: "attention", label: "Record deal 2", queuedAt: 0, outcome: "gone" }, {});
  assert.equal(gone.querySelector(".problem").textContent, "The game is gone");
  assert.deepEqual([...gone.querySelectorAll("button")].map((b) => b.textContent), ["Discard"]);
  const waiting = m.entry({ state: "waiting", label: "Record deal 2", queuedAt: 0 }, {});
  assert.equal(waiting.querySelector(".problem, button"), null);
});

test("a refused form's first control is focused and its fold opened, once per summary", () => {
  const window = page({
    html: `<details><summary>More</summary><input id="id_score"></details>
      <div class="error-summary" tabindex="-1"><a href="#id_score">A score is missing</a></div>`,
  });
  const doc = window.document;
  const to = Messages.focusErrors(doc);
  assert.equal(to.id, "id_score");
  assert.equal(doc.activeElement, to);
  assert.equal(doc.querySelector("details").open, true);
  doc.body.focus();
  assert.equal(Messages.focusErrors(doc), null); // seen: not again
});
