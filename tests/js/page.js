// What the unit tests of the phone's modules share (not a test itself: node --test runs only
// *.test.js): a page on a DOM and the fakes the modules are given.
//
// The DOM is happy-dom rather than jsdom, weighed for these tests: happy-dom's current major
// runs on the Node this machine has (20; jsdom's current line asks for Node 22 or later, so it
// would be pinned a major behind from the start); it brings 9 packages into package-lock.json
// where jsdom has 18 direct dependencies of its own; a fresh window costs about 5 ms, so every
// test has a page of its own. What jsdom does better (a stricter reading of the standards,
// navigation, a wider CSS selector engine) these modules do not use: they query by id, class
// and attribute, build elements, listen to events and read form controls. Neither lays the page
// out, so a scroll is checked as the numbers the module sets.
//
// The page mirrors templates/scorepad/game.html: the table bar (its texts as
// scorepad/templatetags/scorepad.py's table_texts gives them), the game with its messages,
// the sheet with its header, table, actions, the form it holds (#offline-deal) and the poll.
"use strict";

const { Window } = require("happy-dom");
const { IDBFactory } = require("fake-indexeddb");
const { fakeClock } = require("./clock.js");

const TEXTS = [
  "sending=Sending…", "waiting={n} waiting", "queued={n} kept on this phone", "attention=Needs a look",
  "offline=No connection", "offlineForm=No connection: the form is kept on this phone",
  "replaced=This phone was replaced", "sent={n} sent", "updated=Updated", "back=Connection back",
  "saving=Saving…", "keptForm=From this phone's copy", "notKept=Not kept on this phone",
  "count={n} not sent", "pending=Deal {n}, not sent yet", "refused=The server refused this",
  "gone=The game is gone", "review=Review", "discard=Discard", "discardConfirm=Discard it?",
  "previewOffline=No preview without a connection", "otherPlayers=Deal {n} had a player who left",
].join("|");

const heldForm = (next) => `<template id="offline-deal" data-next="${next}" data-title="Record deal {n}" data-correct="Correct deal {n}">
  <section id="panel" class="panel card-box" aria-labelledby="panel-title" data-held>
    <h2 id="panel-title">Record deal</h2>
    <p class="deal-now">1 set, 1 run</p>
    <form method="post" action="/g/abc/deals/new/" hx-post="/g/abc/deals/new/">
      <input type="hidden" name="version" value="3"><input type="hidden" name="once" value="">
      <input type="hidden" name="number" value=""><input type="hidden" name="base" value="">
      <label><input type="radio" name="went_out" value="1"> Ann</label>
      <label><input type="radio" name="went_out" value="2"> Bob</label>
      <input name="score_1" value=""><input name="score_2" value="">
      <label><input type="checkbox" name="closed"> closed</label>
      <button type="submit">Save</button>
      <a class="button secondary" href="/g/abc/" hx-get="/g/abc/">Cancel</a>
    </form>
    <script src="/static/js/cards.js"></script>
  </section>
</template>`;

// The schedule of a contract game of ``next + 2`` deals from deal ``next`` on, as
// scorepad/sheet.py's deals_ahead gives it and game.html#offline renders it: the dealer turns.
function schedule(next) {
  const deals = [0, 1, 2].map((k) => {
    const n = next + k;
    return `<template data-number="${n}" data-spec="${k + 1} sets · ${7 + k} cards each"><p class="deal-now">Deal ${n} of ${next + 2} · <strong>${k + 1} sets</strong></p><dl class="deal-facts"><div><dt>Deals</dt><dd>${["Ann", "Bob"][n % 2]}</dd></div><div><dt>Cards</dt><dd>${7 + k} each</dd></div></dl></template>`;
  });
  return `<div class="deal-schedule" hidden data-waiting="Waiting to be sent ({n})">${deals.join("")}<template data-number="${next + 3}" data-end><p class="deal-now game-over">Game over</p></template></div>`;
}

// The sheet of game "abc" after ``deals`` deals (two players), at ``version``.
function sheetHtml({ deals = 1, version = 3 } = {}) {
  const rows = [];
  for (let n = 1; n <= deals; n++) {
    rows.push(`<tr><th scope="row" class="num"><a href="/g/abc/deals/${n}/edit/" hx-get="/g/abc/deals/${n}/edit/" data-values='{"went_out":"1","score_1":"0","score_2":"${n * 10}"}'>${n}</a></th><td>0</td><td>${n * 10}</td></tr>`);
  }
  return `<section id="sheet" class="sheet-area">
    <header class="deal-head"><h1 id="sheet-title">Continental</h1><p class="deal-now">Deal ${deals + 1} · <strong>2 sets</strong></p></header>
    <div class="sheet-wrap"><div class="sheet-scroll" tabindex="0"><table class="sheet"><thead><tr><th class="num">#</th><th>Ann</th><th>Bob</th></tr></thead>
    <tbody>${rows.join("")}</tbody></table></div></div>
    <div class="actions"><a class="button big" href="/g/abc/deals/new/" hx-get="/g/abc/deals/new/">Record deal ${deals + 1}</a></div>
    ${heldForm(deals + 1)}
    ${schedule(deals + 1)}
    <div class="poll" hx-get="/g/abc/version/?v=${version}" data-version="${version}"></div>
  </section>`;
}

function pageHtml(options = {}) {
  return `<div id="table-bar" class="table-bar" data-token="abc" data-url="/g/abc/" data-can-edit="true" data-texts="${TEXTS}">
    <p class="connection" role="status"></p>
    <section class="outbox card-box" hidden><h2 class="outbox-count"></h2><ul class="outbox-list"></ul><button type="button" data-outbox-send>Send now</button></section>
  </div>
  <label class="check wake" hidden><input type="checkbox" data-wake> Keep the screen on</label>
  <div id="game" class="game"><div id="messages" class="messages"><ul><li>Deal 1 recorded.</li></ul></div>${sheetHtml(options)}</div>`;
}

// A window with the game page in it (``html`` instead when given).
function page(options = {}) {
  const window = new Window({ url: "http://table.test/g/abc/" });
  window.document.documentElement.lang = "en";
  window.document.body.setAttribute("hx-headers", '{"X-CSRFToken": "csrf-1"}');
  window.document.body.innerHTML = options.html || pageHtml(options);
  window.confirm = () => true;
  return window;
}

// localStorage as a browser keeps it.
function memoryStorage() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
  };
}

// A server that takes every post, as scorepad/views/deals.py answers an outbox (``answers``:
// the ones to give first, {status, outcome, message}, or "down" for no connection).
function fakeFetch(answers = []) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    const answer = answers.shift() || { status: 200, outcome: "saved" };
    if (answer === "down") throw new TypeError("Failed to fetch");
    const body = { outcome: answer.outcome, version: 4, message: answer.message || "" };
    return { status: answer.status, ok: answer.status < 400, json: async () => body };
  };
  fetch.calls = calls;
  return fetch;
}

// The outbox (static/js/outbox.js) on a fresh fake IndexedDB, its tokens made in turn.
function outbox(options = {}) {
  let made = 0;
  const Outbox = require("../../static/js/outbox.js");
  return Outbox.create({
    token: options.token || "abc",
    indexedDB: new IDBFactory(),
    fetch: options.fetch || fakeFetch(),
    storage: options.storage || memoryStorage(),
    clock: options.clock || fakeClock(),
    online: options.online || (() => true),
    shownVersion: options.shownVersion || (() => 3),
    random: (bytes) => { made += 1; for (let i = 0; i < bytes.length; i++) bytes[i] = (made * 31 + i * 37) & 255; return bytes; },
    onRound: options.onRound,
  });
}

// An htmx event as htmx dispatches it: on the element, bubbling, with its detail.
function htmxEvent(window, elt, name, detail) {
  const event = new window.CustomEvent(name, { bubbles: true, cancelable: true, detail: { elt, ...detail } });
  elt.dispatchEvent(event);
  return event;
}

// Lets the promises (and fake-indexeddb's callbacks) run.
function settle(rounds = 5) {
  let chain = Promise.resolve();
  for (let i = 0; i < rounds; i++) chain = chain.then(() => new Promise((resolve) => setImmediate(resolve)));
  return chain;
}

// The outbox's modules on ``window``'s page as static/js/table.js wires them, with a fake
// browser window around it (history, htmx, confirm, a service worker: ``worker`` makes one
// control the page) and the fake server ``answers``. ``url``: the page's address, ``token``
// its thing's link, ``part``: the part the bar names (the evening's, the circle's: its version
// the part's own). ``calls`` records htmx's requests and targets, the pushed addresses, what
// was posted to the worker and the confirmations asked.
function wire(window, { url = "/g/abc/", token = "abc", part = "", worker = null, offline = false, answers = [] } = {}) {
  const Outbox = require("../../static/js/outbox.js");
  const Messages = require("../../static/js/messages.js");
  const OfflineForm = require("../../static/js/offline-form.js");
  const OutboxPage = require("../../static/js/outbox-page.js");
  const doc = window.document;
  const clock = fakeClock();
  const calls = { ajax: [], targets: [], pushed: [], posted: [], confirmed: 0 };
  const serviceWorker = new window.EventTarget();
  serviceWorker.controller = worker && { postMessage: (m) => calls.posted.push(m) };
  const win = new window.EventTarget();
  Object.assign(win, {
    navigator: { serviceWorker },
    location: { href: `http://table.test${url}`, assign: () => {} },
    history: { pushState: (s, t, address) => calls.pushed.push(address), replaceState: () => {} },
    htmx: { process: () => {}, ajax: (verb, address, config) => { calls.ajax.push(address); calls.targets.push(config && config.target); } },
    confirm: () => { calls.confirmed += 1; return true; },
  });
  const state = { offline, replaced: false };
  let wired = null;
  const fetch = fakeFetch(answers);
  const box = outbox({
    clock, fetch, token, onRound: (round) => wired.roundDone(round),
    shownVersion: part ? () => OutboxPage.shownVersion(doc, part) : undefined,
  });
  const messages = Messages.create({
    document: doc, line: doc.querySelector(".connection"), texts: Messages.parseTexts(TEXTS), clock,
    onClear: () => wired.showQueue(),
  });
  const form = OfflineForm.create({ document: doc, window: win, outbox: box, state, say: messages.say, gameUrl: url });
  wired = OutboxPage.create({
    document: doc, window: win, bar: doc.getElementById("table-bar"), outbox: box, form, messages, state, clock,
    fetch, field: Outbox.field, isNewDeal: OfflineForm.isNewDeal,
  });
  const line = () => doc.querySelector(".connection").dataset.state;
  return { window, doc, clock, calls, state, box, form, page: wired, fetch, line, win };
}

// navigator.wakeLock as a browser gives it: a sentinel per request, released on hide.
function fakeWakeLock(window) {
  const held = [];
  return {
    held,
    request(type) {
      const sentinel = new window.EventTarget();
      sentinel.type = type;
      sentinel.released = false;
      sentinel.release = async () => {
        if (sentinel.released) return;
        sentinel.released = true;
        held.splice(held.indexOf(sentinel), 1);
        sentinel.dispatchEvent(new window.Event("release"));
      };
      held.push(sentinel);
      return Promise.resolve(sentinel);
    },
  };
}

// The page shown or hidden, as the browser says it.
function visibility(window, state) {
  Object.defineProperty(window.document, "visibilityState", { configurable: true, get: () => state });
  window.document.dispatchEvent(new window.Event("visibilitychange"));
}

module.exports = {
  page, pageHtml, sheetHtml, fakeClock, memoryStorage, fakeFetch, outbox, wire, htmxEvent, settle, fakeWakeLock, visibility, TEXTS,
};
