// The deal form the sheet holds (static/js/offline-form.js) on a DOM (happy-dom: why, in
// tests/js/page.js), with the real outbox on fake-indexeddb.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const OfflineForm = require("../../static/js/offline-form.js");
const { page, outbox, settle } = require("./page.js");

// The window's parts the form uses, recorded.
function browser(window, { worker = null } = {}) {
  const calls = { pushed: [], replaced: [], assigned: [], processed: [] };
  return {
    calls,
    history: {
      pushState: (state, title, url) => calls.pushed.push(url),
      replaceState: (state, title, url) => calls.replaced.push(url),
    },
    location: { assign: (url) => calls.assigned.push(url) },
    navigator: { serviceWorker: worker ? { controller: worker } : undefined },
    htmx: { process: (elt) => calls.processed.push(elt.id) },
  };
}

function setUp({ offline = false, worker = null } = {}) {
  const window = page();
  const win = browser(window, { worker });
  const box = outbox();
  const said = [];
  const state = { offline };
  const form = OfflineForm.create({
    document: window.document, window: win, outbox: box, state, say: (name) => said.push(name), gameUrl: "/g/abc/",
  });
  return { window, doc: window.document, win, box, said, state, form };
}

// A new deal kept in the outbox as the page keeps it (numbered by the form).
function keepDeal(box, form) {
  return box.keep({ path: "/g/abc/deals/new/", fields: [["version", "3"], ["once", ""], ["went_out", "1"]], csrf: "" }, (entries) => {
    const number = form.nextNumber(entries);
    return { number, who: "Ann", label: form.recordTitle(number) + " — Ann" };
  });
}

test("Record deal opens the form the sheet holds, numbered, with a token of its own", async () => {
  const { doc, win, form } = setUp();
  const panel = await form.open(null, "/g/abc/deals/new/");
  assert.equal(doc.getElementById("panel"), panel);
  assert.equal(panel.nextElementSibling, doc.getElementById("sheet"));
  assert.equal(panel.querySelector("#panel-title").textContent, "Record deal 2");
  assert.ok(panel.querySelector(".deal-now"), "the deal the form was made for shows its contract");
  assert.match(panel.querySelector('input[name="once"]').value, /^p[0-9a-f]{32}$/);
  assert.equal(panel.querySelector('input[name="number"]').value, "2");
  assert.equal(panel.querySelector("script"), null);
  assert.equal(doc.getElementById("messages").textContent, "", "the sheet's message was the sheet's");
  assert.equal(doc.querySelector("#sheet .actions").hidden, true);
  assert.deepEqual(win.calls.pushed, ["/g/abc/deals/new/"]);
  assert.deepEqual(win.calls.processed, ["panel"]);
  assert.equal(doc.activeElement, panel.querySelector("#panel-title"));
});

test("offline the address stays the sheet's and the line says the form is kept", async () => {
  const { win, said, form } = setUp({ offline: true });
  await form.open(null, "/g/abc/deals/new/");
  assert.deepEqual(win.calls.pushed, []);
  assert.deepEqual(said, ["offlineForm"]);
});

test("after deals kept offline the form moves on: the next number, that deal's contract from the schedule", async () => {
  const { doc, box, form } = setUp({ offline: true });
  await keepDeal(box, form);
  await keepDeal(box, form);
  const entries = await box.all();
  assert.deepEqual(entries.map((e) => e.number), [2, 3]);
  const panel = await form.open(null);
  assert.equal(panel.querySelector("#panel-title").textContent, "Record deal 4");
  assert.equal(panel.querySelector('input[name="number"]').value, "4");
  assert.equal(panel.querySelector(".deal-now").textContent, "3 sets · 9 cards each");
  const tokens = new Set([...entries.map((e) => e.once), panel.querySelector('input[name="once"]').value]);
  assert.equal(tokens.size, 3, "every deal its own one-time token");
  assert.equal(doc.querySelectorAll("#panel").length, 1);
});

test("a correction offline is the same form filled with the deal as stored", async () => {
  const { doc, form } = setUp({ offline: true });
  const link = doc.querySelector('#sheet a[hx-get="/g/abc/deals/1/edit/"]');
  const correction = form.correctionOf(link);
  assert.deepEqual(correction, { url: "/g/abc/deals/1/edit/", number: 1, values: { went_out: "1", score_1: "0", score_2: "10" } });
  const panel = await form.open(correction);
  const f = panel.querySelector("form");
  assert.equal(panel.querySelector("#panel-title").textContent, "Correct deal 1");
  assert.equal(f.getAttribute("hx-post"), "/g/abc/deals/1/edit/");
  assert.equal(f.querySelector('input[value="1"][name="went_out"]').checked, true);
  assert.equal(f.querySelector('[name="score_2"]').value, "10");
  assert.equal(f.querySelector('[name="closed"]').checked, false);
  assert.deepEqual(JSON.parse(f.querySelector('[name="base"]').value), { went_out: "1", score_1: "0", score_2: "10" });
  assert.equal(panel.querySelector(".deal-now"), null);
});

test("a deal some players at the table were not in: their controls are left out of the correction", async () => {
  const { doc, window, form } = setUp({ offline: true });
  const link = doc.querySelector('#sheet a[hx-get="/g/abc/deals/1/edit/"]');
  link.dataset.values = '{"went_out":"1","score_1":"0","seats":[1]}'; // Bob joined after deal 1
  const correction = form.correctionOf(link);
  assert.deepEqual(correction, { url: "/g/abc/deals/1/edit/", number: 1, seats: [1], values: { went_out: "1", score_1: "0" } });
  const panel = await form.open(correction);
  const f = panel.querySelector("form");
  const bob = f.querySelector('input[name="went_out"][value="2"]');
  assert.equal(bob.closest("label").hidden, true, "Bob is not offered as who went out");
  assert.equal(f.querySelector('[name="score_2"]').hidden, true);
  assert.equal(f.querySelector('input[name="went_out"][value="1"]').closest("label").hidden, false);
  const posted = [...new window.FormData(f).keys()];
  assert.equal(posted.includes("score_2"), false, "nothing of Bob's is posted");
  assert.equal(posted.includes("score_1"), true);
  assert.deepEqual(JSON.parse(f.querySelector('[name="base"]').value), { went_out: "1", score_1: "0" });
});

test("a deal of a player who has left since is not opened here", async () => {
  const { doc, form } = setUp({ offline: true });
  const link = doc.querySelector('#sheet a[hx-get="/g/abc/deals/1/edit/"]');
  link.dataset.values = '{"left":true}';
  const correction = form.correctionOf(link);
  assert.deepEqual(correction, { url: "/g/abc/deals/1/edit/", number: 1, left: true });
  assert.equal(form.open(correction), false);
  assert.equal(doc.getElementById("panel"), null);
});

test("a deal's link without its values is no correction here", () => {
  const { doc, form } = setUp();
  const link = doc.createElement("a");
  link.setAttribute("hx-get", "/g/abc/deals/1/edit/");
  link.dataset.values = "{not json";
  assert.equal(form.correctionOf(link), null);
  link.setAttribute("hx-get", "/g/abc/deals/new/");
  assert.equal(form.correctionOf(link), null);
});

test("one form at a time; none without the form the sheet holds", async () => {
  const { doc, form } = setUp();
  await form.open(null);
  assert.equal(form.open(null), false);
  doc.getElementById("panel").remove();
  doc.getElementById("offline-deal").remove();
  assert.equal(form.open(null), false);
});

test("back to the sheet: the one remembered before the form opened, at the sheet's address", async () => {
  const { doc, win, form } = setUp({ offline: true });
  assert.equal(form.remember(), true);
  await form.open(null);
  assert.equal(form.remember(), false, "a sheet with a form open is not remembered");
  doc.querySelector('#panel [name="score_1"]').value = "25";
  form.backToSheet();
  assert.equal(doc.getElementById("panel"), null);
  assert.equal(doc.querySelector("#sheet .actions").hidden, false);
  assert.deepEqual(win.calls.replaced, ["/g/abc/"]);
});

test("back to the sheet with none remembered: the sheet's address (the worker keeps it), else the form goes", async () => {
  const kept = setUp({ offline: true, worker: {} });
  await kept.form.open(null);
  kept.form.backToSheet();
  assert.deepEqual(kept.win.calls.assigned, ["/g/abc/"]);
  const plain = setUp({ offline: true });
  await plain.form.open(null);
  plain.form.backToSheet();
  assert.equal(plain.doc.getElementById("panel"), null);
});

test("the offline page lists the sheets the worker keeps", async () => {
  const window = page({ html: '<section hidden><ul class="kept-list"></ul></section>' });
  const posted = [];
  const worker = new window.EventTarget();
  worker.controller = { postMessage: (m) => posted.push(m) };
  OfflineForm.listKeptGames(window.document, worker);
  assert.deepEqual(posted, [{ type: "kept-games" }]);
  const message = new window.Event("message");
  message.data = { type: "kept-games", games: [{ url: "/g/abc/", title: "Ann &amp; Bob" }] };
  worker.dispatchEvent(message);
  await settle(1);
  const link = window.document.querySelector(".kept-list a");
  assert.equal(link.textContent, "Ann & Bob");
  assert.equal(link.getAttribute("href"), "/g/abc/");
  assert.equal(window.document.querySelector("section").hidden, false);
});

// The header's deal facts as the player reads them.
function header(doc) {
  const head = doc.querySelector("#sheet .deal-head");
  return {
    deal: head.querySelector(".deal-now").textContent,
    dealer: head.querySelector(".deal-facts dd")?.textContent,
    waiting: head.querySelector(".deal-waiting")?.textContent,
    marked: head.classList.contains("waiting"),
    title: head.querySelector("h1").textContent,
  };
}

test("the sheet moves on: after deals kept offline the header and the button read as they will once sent", async () => {
  const { doc, box, form } = setUp({ offline: true });
  const record = doc.querySelector("#sheet .actions a");
  form.showAhead(await box.all());
  assert.deepEqual(header(doc), { deal: "Deal 2 · 2 sets", dealer: undefined, waiting: undefined, marked: false, title: "Continental" });
  await keepDeal(box, form);
  await keepDeal(box, form);
  form.showAhead(await box.all());
  assert.deepEqual(header(doc), { deal: "Deal 4 of 4 · 3 sets", dealer: "Ann", waiting: "Waiting to be sent (2)", marked: true, title: "Continental" });
  assert.equal(record.textContent, "Record deal 4");
  assert.equal(record.hidden, false);
  // The opened form is deal 4's.
  const panel = await form.open(null);
  assert.equal(panel.querySelector("#panel-title").textContent, "Record deal 4");
});

test("the deals kept end a game of fixed length: game over, waiting, no Record deal", async () => {
  const { doc, box, form } = setUp({ offline: true });
  for (let i = 0; i < 3; i++) await keepDeal(box, form);
  form.showAhead(await box.all());
  const seen = header(doc);
  assert.equal(seen.deal, "Game over");
  assert.equal(seen.waiting, "Waiting to be sent (3)");
  assert.equal(doc.querySelector("#sheet .actions a").hidden, true);
});

test("sent (or discarded), the header is the next deal's again, unmarked", async () => {
  const { doc, box, form } = setUp({ offline: true });
  await keepDeal(box, form);
  form.showAhead(await box.all());
  assert.equal(header(doc).deal, "Deal 3 of 4 · 2 sets");
  for (const entry of await box.all()) await box.drop(entry);
  form.showAhead(await box.all());
  assert.deepEqual(header(doc), { deal: "Deal 2 of 4 · 1 sets", dealer: "Ann", waiting: undefined, marked: false, title: "Continental" });
  assert.equal(doc.querySelector("#sheet .actions a").textContent, "Record deal 2");
});

test("beyond the schedule the header says only how many wait", async () => {
  const { doc, box, form } = setUp({ offline: true });
  doc.querySelector('#sheet .deal-schedule template[data-end]').remove();
  for (let i = 0; i < 3; i++) await keepDeal(box, form);
  form.showAhead(await box.all());
  const head = doc.querySelector("#sheet .deal-head");
  assert.deepEqual([...head.children].map((c) => c.className || c.tagName), ["H1", "deal-waiting"]);
  assert.equal(doc.querySelector("#sheet .actions a").textContent, "Record deal 5");
});
