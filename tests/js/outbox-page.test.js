// The outbox's wiring to the page (static/js/outbox-page.js) on a DOM (happy-dom: why, in
// tests/js/page.js), htmx's events dispatched as htmx dispatches them, the real outbox on
// fake-indexeddb, the clock fake.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const Messages = require("../../static/js/messages.js");
const OutboxPage = require("../../static/js/outbox-page.js");
const { page, wire, htmxEvent, settle } = require("./page.js");

// The page as table.js wires it; ``worker``: a service worker controlling the page.
function setUp({ worker = null, offline = false, answers = [] } = {}) {
  return wire(page(), { worker, offline, answers });
}

function formData(pairs) {
  return { forEach: (fn) => pairs.forEach(([name, value]) => fn(value, name)) };
}

// A deal saved from the form the sheet holds while the server cannot be reached.
async function saveOffline(t, who = "1") {
  const panel = await t.form.open(null);
  panel.querySelector(`input[name="went_out"][value="${who}"]`).checked = true;
  const f = panel.querySelector("form");
  const fields = [["version", "3"], ["once", panel.querySelector('[name="once"]').value], ["went_out", who]];
  htmxEvent(t.window, f, "htmx:configRequest", { verb: "post", path: "/g/abc/deals/new/", formData: formData(fields) });
  htmxEvent(t.window, f, "htmx:beforeRequest", { requestConfig: { verb: "post" } });
  assert.equal(t.line(), "saving");
  htmxEvent(t.window, f, "htmx:sendError", { requestConfig: { verb: "post" } });
  await settle(10);
}

test("a deal that cannot be sent is kept, listed, and waits on the sheet as typed", async () => {
  const t = setUp();
  await t.page.start();
  await saveOffline(t, "1");
  const entries = await t.box.all();
  assert.equal(entries.length, 1);
  assert.equal(entries[0].number, 2);
  assert.equal(entries[0].label, "Record deal 2 — Ann");
  assert.equal(t.state.offline, true);
  assert.equal(t.doc.getElementById("panel"), null, "back to the sheet");
  assert.equal(t.line(), "queued");
  assert.equal(t.doc.querySelector(".outbox").hidden, false);
  assert.equal(t.doc.querySelector(".outbox-count").textContent, "1 not sent");
  const rows = [...t.doc.querySelectorAll("#sheet tr.pending")];
  assert.deepEqual(rows.map((r) => r.textContent), ["2Deal 2, not sent yet — Ann"]);
  assert.equal(rows[0].querySelector("td").colSpan, 2);
  // The next one is deal 3.
  await saveOffline(t, "2");
  assert.deepEqual((await t.box.all()).map((e) => e.label), ["Record deal 2 — Ann", "Record deal 3 — Bob"]);
  assert.equal(t.doc.querySelectorAll("#sheet tr.pending").length, 2);
});

test("Record deal opens the form the sheet holds instead of asking the server", async () => {
  const t = setUp();
  const link = t.doc.querySelector("#sheet .actions a");
  const event = htmxEvent(t.window, link, "htmx:beforeRequest", { requestConfig: { verb: "get" } });
  assert.equal(event.defaultPrevented, true);
  await settle();
  assert.ok(t.doc.getElementById("panel"));
  assert.deepEqual(t.calls.pushed, ["/g/abc/deals/new/"]);
});

test("a correction that cannot be asked opens the same form filled in", async () => {
  const t = setUp();
  const link = t.doc.querySelector('#sheet a[hx-get="/g/abc/deals/1/edit/"]');
  htmxEvent(t.window, link, "htmx:sendError", { requestConfig: { verb: "get" } });
  await settle();
  assert.equal(t.doc.querySelector("#panel-title").textContent, "Correct deal 1");
  assert.equal(t.state.offline, true);
});

test("offline, a deal of a player who has left since says why it cannot be corrected here", async () => {
  const t = setUp({ offline: true });
  await t.page.start();
  const link = t.doc.querySelector('#sheet a[hx-get="/g/abc/deals/1/edit/"]');
  link.dataset.values = '{"left":true}';
  htmxEvent(t.window, link, "htmx:sendError", { requestConfig: { verb: "get" } });
  await settle(10);
  assert.equal(t.doc.getElementById("panel"), null);
  assert.equal(t.line(), "otherPlayers");
  assert.equal(t.doc.querySelector(".connection").textContent, "Deal 1 had a player who left");
});

test("a hidden page does not poll; the poll's answers say updated or replaced", async () => {
  const t = setUp();
  const poll = t.doc.querySelector("#sheet .poll");
  Object.defineProperty(t.doc, "visibilityState", { configurable: true, get: () => "hidden" });
  assert.equal(htmxEvent(t.window, poll, "htmx:beforeRequest", { requestConfig: { verb: "get" } }).defaultPrevented, true);
  const answer = (status) => ({ xhr: { status, getResponseHeader: () => null }, requestConfig: { verb: "get", elt: poll } });
  htmxEvent(t.window, poll, "htmx:afterRequest", answer(200));
  assert.equal(t.line(), "updated");
  t.clock.tick(Messages.TRANSIENT_MS);
  await settle();
  assert.equal(t.line(), "");
  htmxEvent(t.window, poll, "htmx:afterRequest", answer(286));
  assert.equal(t.line(), "replaced");
  assert.equal(t.state.replaced, true);
});

test("the first answer after being offline says so and sends the outbox", async () => {
  const t = setUp({ offline: true });
  await t.page.start();
  await saveOffline(t);
  const poll = t.doc.querySelector("#sheet .poll");
  htmxEvent(t.window, poll, "htmx:afterRequest", { xhr: { status: 204, getResponseHeader: () => null }, requestConfig: { verb: "get", elt: poll } });
  assert.equal(t.state.offline, false);
  await settle(20);
  assert.equal(t.fetch.calls.length, 1, "the kept deal was sent");
  assert.equal((await t.box.all()).length, 0);
  assert.deepEqual(t.calls.ajax, ["/g/abc/"], "the sheet asked again");
  assert.equal(t.line(), "sent");
});

test("a refused entry shows the server's message in the list; discarding it empties the list", async () => {
  const message = "Deal 2 was recorded on another phone.";
  const t = setUp({ answers: [{ status: 409, outcome: "conflict", message }] });
  await saveOffline(t);
  t.state.offline = false;
  await t.box.send();
  await settle(10);
  assert.equal(t.line(), "attention");
  const item = t.doc.querySelector(".outbox-entry.attention");
  assert.equal(item.querySelector(".problem").textContent, message);
  assert.ok(t.doc.querySelector("#sheet tr.pending.attention"));
  const discard = [...item.querySelectorAll("button")].find((b) => b.textContent === "Discard");
  discard.click();
  await settle(20);
  assert.equal(t.calls.confirmed, 1);
  assert.equal((await t.box.all()).length, 0);
  assert.equal(t.doc.querySelectorAll(".outbox-entry, #sheet tr.pending").length, 0);
  assert.equal(t.doc.querySelector(".outbox").hidden, true);
});

test("a sheet with no form open is sent to the worker without messages or the list, its forms fetched later", async () => {
  const t = setUp({ worker: true });
  t.doc.querySelector(".connection").textContent = "Saving…";
  t.page.settled();
  assert.equal(t.calls.posted.length, 1);
  const kept = t.calls.posted[0];
  assert.equal(kept.type, "keep-page");
  assert.equal(kept.url, "/g/abc/");
  const copy = new t.window.DOMParser().parseFromString(kept.html, "text/html");
  assert.equal(copy.querySelector(".messages"), null);
  assert.equal(copy.querySelector(".connection").textContent, "");
  assert.equal(copy.querySelector(".outbox").hidden, true);
  assert.equal(t.fetch.calls.length, 0);
  t.clock.tick(OutboxPage.PREFETCH_MS);
  await settle(5);
  // The sheet's deal link carries its values: the form the sheet holds corrects it, nothing fetched.
  assert.equal(t.fetch.calls.length, 0);
  // A deal the form the sheet holds cannot correct (a player who has left since played it):
  // its server form fetched once, for the worker.
  t.doc.querySelector("#sheet tbody th a").dataset.values = '{"left":true}';
  t.page.settled();
  t.clock.tick(OutboxPage.PREFETCH_MS);
  await settle(5);
  assert.deepEqual(t.fetch.calls.map((c) => [c.url, c.init.headers["HX-Target"]]), [["/g/abc/deals/1/edit/", "game"]]);
  t.page.settled();
  t.clock.tick(OutboxPage.PREFETCH_MS);
  await settle(5);
  assert.equal(t.fetch.calls.length, 1, "once per version");
});
