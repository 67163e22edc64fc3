// An evening's and a circle's page have the outbox as a game's has (static/js/outbox-page.js
// with the bar's data-part, templates/scorepad/_phone_bar.html): a write made there without a
// connection is kept with the thing's link and version, listed by its button, and sent later;
// the answer's part is asked again once it is sent. On a DOM (happy-dom, tests/js/page.js),
// htmx's events dispatched as htmx dispatches them, the real outbox on fake-indexeddb.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const { page, outbox, wire, htmxEvent, settle, TEXTS } = require("./page.js");

// The evening page as templates/scorepad/evening.html renders it for its editor (its part at
// ``version``), or the circle's.
function thingHtml(part, version) {
  const bar = `<div id="table-bar" class="table-bar" data-token="ev1" data-part="${part}" data-url="/e/ev1/" data-can-edit="true" data-texts="${TEXTS}">
    <p class="connection" role="status"></p>
    <section class="outbox card-box" hidden><h2 class="outbox-count"></h2><ul class="outbox-list"></ul><button type="button" data-outbox-send>Send now</button></section>
  </div>`;
  return `${bar}<div id="${part}" hx-target="this" hx-swap="outerHTML" data-version="${version}">
    <h1>Friday</h1>
    <ol class="evening-games"><li><a href="/g/g2/">Game 2</a>
      <form method="post" action="/e/ev1/games/remove/" hx-post="/e/ev1/games/remove/" class="inline-form">
        <input type="hidden" name="version" value="${version}"><input type="hidden" name="once" value="form-once-1"><input type="hidden" name="game" value="12">
        <button type="submit" class="secondary">Take out<span class="visually-hidden"> · Game 2</span></button>
      </form></li></ol>
  </div>`;
}

function setUp({ part = "evening", version = 5, answers = [] } = {}) {
  return wire(page({ html: thingHtml(part, version) }), { url: "/e/ev1/", token: "ev1", part, worker: true, answers });
}

// The Take out form posted while the server cannot be reached.
async function takeOutOffline(t) {
  const f = t.doc.querySelector("form");
  const fields = [];
  new t.window.FormData(f).forEach((value, name) => fields.push([name, value]));
  const formData = { forEach: (fn) => fields.forEach(([name, value]) => fn(value, name)) };
  htmxEvent(t.window, f, "htmx:configRequest", { verb: "post", path: f.getAttribute("hx-post"), formData });
  htmxEvent(t.window, f, "htmx:beforeRequest", { requestConfig: { verb: "post" } });
  assert.equal(t.line(), "saving");
  htmxEvent(t.window, f, "htmx:sendError", { requestConfig: { verb: "post" } });
  await settle(10);
}

for (const part of ["evening", "circle"]) {
  test(`a ${part}'s write that cannot be sent is kept with its link and version, listed by its button`, async () => {
    const t = setUp({ part });
    await t.page.start();
    await takeOutOffline(t);
    const entries = await t.box.all();
    assert.equal(entries.length, 1);
    assert.equal(entries[0].token, "ev1");
    assert.equal(entries[0].url, "/e/ev1/games/remove/");
    assert.equal(entries[0].version, 5, "the version of the part shown");
    assert.equal(entries[0].number, null, "not a deal: no waiting row");
    assert.equal(entries[0].label, "Take out · Game 2");
    assert.equal(t.line(), "queued");
    assert.equal(t.doc.querySelector(".outbox").hidden, false);
    assert.equal(t.doc.querySelector(".outbox-list").textContent.includes("Take out · Game 2"), true);
    assert.ok(t.doc.getElementById(part), "the page stays as it was");
  });
}

test("sent later, the write leaves the list and the evening's part is asked again", async () => {
  const t = setUp({ answers: ["down"] });
  await t.page.start();
  await takeOutOffline(t);
  t.state.offline = false;
  assert.equal((await t.box.send()).offline, true, "still no connection: it waits");
  assert.equal((await t.box.all()).length, 1);
  const round = await t.box.send();
  assert.equal(round.sent, 1);
  const sent = t.fetch.calls.at(-1);
  assert.equal(sent.url, "/e/ev1/games/remove/");
  assert.equal(sent.init.headers["X-Scorepad-Outbox"], "1");
  assert.equal(sent.init.body.get("version"), "5");
  assert.equal(sent.init.body.get("game"), "12");
  assert.deepEqual(t.calls.ajax, ["/e/ev1/"]);
  assert.deepEqual(t.calls.targets, ["#evening"]);
  assert.equal((await t.box.all()).length, 0);
  assert.equal(t.line(), "sent");
});

test("two writes kept on the evening chain their versions; a stale one waits for the player", async () => {
  const t = setUp({ answers: [{ status: 409, outcome: "conflict", message: "The evening changed while you were on this page." }] });
  await t.page.start();
  await takeOutOffline(t);
  await takeOutOffline(t);
  const entries = await t.box.all();
  assert.deepEqual(entries.map((e) => e.version), [5, 6]);
  assert.notEqual(entries[0].once, entries[1].once, "a token is used once");
  t.state.offline = false;
  await t.box.send();
  const left = await t.box.all();
  assert.equal(left.length, 2, "the conflict blocks the evening's queue");
  assert.equal(left[0].state, "attention");
  assert.equal(t.line(), "attention");
  assert.match(t.doc.querySelector(".outbox-list").textContent, /The evening changed while you were on this page/);
});

test("the page with no form open is kept by the worker under the evening's address", async () => {
  const t = setUp();
  await t.page.start();
  const kept = t.calls.posted.filter((m) => m.type === "keep-page");
  assert.equal(kept.length, 1);
  assert.equal(kept[0].url, "/e/ev1/");
  assert.match(kept[0].html, /id="evening"/);
});

test("an entry kept before evenings had an outbox (its link as `game`) is still its thing's", () => {
  const box = outbox({ token: "ev1" });
  assert.equal(box.mine([{ game: "ev1" }, { token: "ev1" }, { token: "other" }, { game: "other" }]).length, 2);
});
