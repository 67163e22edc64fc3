// No module of the phone's code touches another's elements: each one's jobs run on the whole
// page (tests/js/page.js), the other modules stubbed, and every element added, removed or
// changed (attributes, text) is one of its own. Elements are named by selector: "#panel"
// owns what is inside it, "=#game" only the element itself (the offline form puts back a
// whole sheet, not its parts).
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const Outbox = require("../../static/js/outbox.js");
const Messages = require("../../static/js/messages.js");
const OfflineForm = require("../../static/js/offline-form.js");
const OutboxPage = require("../../static/js/outbox-page.js");
const Scroll = require("../../static/js/scroll.js");
const Wake = require("../../static/js/wake.js");
const { page, outbox, fakeClock, htmxEvent, settle, TEXTS } = require("./page.js");

const OWN = {
  messages: [".connection", ".error-summary", "details"],
  offlineForm: ["#panel", "#messages", "#sheet .deal-head", "#sheet .actions", "=#game"],
  outboxPage: [".outbox", "tr.pending"],
  scroll: [],
  wake: ["label.wake"],
};

// What ``work`` changed: elements whose attributes or text changed, and children added or
// removed, each with the element it was added to or removed from.
async function changed(window, work) {
  const found = [];
  const note = (records) => {
    for (const r of records) {
      if (r.type === "childList") for (const n of [...r.addedNodes, ...r.removedNodes]) found.push({ node: n, parent: r.target });
      else found.push({ node: r.target, parent: null });
    }
  };
  const observer = new window.MutationObserver(note);
  observer.observe(window.document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  await work();
  await settle(10);
  note(observer.takeRecords());
  observer.disconnect();
  return found.map(({ node, parent }) => ({ node: node.nodeType === 1 ? node : parent || node.parentElement, parent }));
}

// Its own: the element is one of the module's, or inside one (an added or removed child: it
// was put in or taken from one of them).
function own(element, selectors) {
  return selectors.some((s) => (s[0] === "=" ? element.matches(s.slice(1)) : element.matches(s) || element.closest(s)));
}

function assertOwn(name, found) {
  const strays = found.filter(({ node, parent }) => {
    if (own(node, OWN[name])) return false;
    return !(parent && node !== parent && OWN[name].some((s) => s[0] !== "=" && parent.closest(s)));
  });
  assert.deepEqual(strays.map(({ node }) => node.outerHTML.slice(0, 80)), [], `${name} touched what is not its own`);
}

function stubMessages() {
  const real = Messages.create({ document: page().document, line: page().document.createElement("p"), texts: Messages.parseTexts(TEXTS), clock: fakeClock() });
  return { say: () => {}, said: () => "", text: real.text, entry: real.entry };
}

test("messages touch only the line and a refused form's summary", async () => {
  const window = page();
  const doc = window.document;
  doc.getElementById("game").insertAdjacentHTML("beforeend", '<details><input id="x"></details><div class="error-summary"><a href="#x">!</a></div>');
  const clock = fakeClock();
  const nodes = await changed(window, async () => {
    const m = Messages.create({ document: doc, line: doc.querySelector(".connection"), texts: Messages.parseTexts(TEXTS), clock });
    m.say("queued", 2);
    m.say("sent", 1, true);
    clock.tick(Messages.TRANSIENT_MS);
    Messages.focusErrors(doc);
  });
  assert.ok(nodes.length);
  assertOwn("messages", nodes);
});

test("the offline form touches only its panel, the sheet's messages and actions, and the sheet it puts back", async () => {
  const window = page();
  const doc = window.document;
  const win = { history: { pushState() {}, replaceState() {} }, location: {}, navigator: {}, htmx: null };
  const form = OfflineForm.create({ document: doc, window: win, outbox: outbox(), state: { offline: true }, say: () => {}, gameUrl: "/g/abc/" });
  const nodes = await changed(window, async () => {
    form.remember();
    await form.open(null);
    form.backToSheet();
    await form.open(form.correctionOf(doc.querySelector("#sheet tbody a")));
  });
  assert.ok(nodes.length);
  assertOwn("offlineForm", nodes);
});

test("the outbox's wiring touches only the list and the waiting rows", async () => {
  const window = page();
  const doc = window.document;
  const win = new window.EventTarget();
  Object.assign(win, { navigator: {}, location: { href: "" }, htmx: null, confirm: () => true });
  const form = {
    nextNumber: () => 2, recordTitle: (n) => `Record deal ${n}`, backToSheet() {}, open: () => false,
    remember: () => true, isOpen: () => false, correctionOf: () => null, showAhead() {},
  };
  const clock = fakeClock();
  const box = outbox({ clock });
  const wired = OutboxPage.create({
    document: doc, window: win, bar: doc.getElementById("table-bar"), outbox: box, form, messages: stubMessages(),
    state: { offline: false, replaced: false }, clock, fetch: async () => ({}), field: Outbox.field, isNewDeal: OfflineForm.isNewDeal,
  });
  const nodes = await changed(window, async () => {
    await wired.start();
    const f = doc.querySelector("#sheet .actions a");
    htmxEvent(window, f, "htmx:configRequest", { verb: "post", path: "/g/abc/deals/new/", formData: { forEach: (fn) => fn("3", "version") } });
    htmxEvent(window, f, "htmx:sendError", { requestConfig: { verb: "post" } });
    await settle(10);
    await wired.showQueue();
  });
  assert.ok(doc.querySelector("tr.pending"));
  assertOwn("outboxPage", nodes);
});

test("the scroll and the wake lock change no element but the toggle's label", async () => {
  const window = page();
  const doc = window.document;
  Object.defineProperty(doc, "visibilityState", { configurable: true, get: () => "visible" });
  const scrolled = await changed(window, async () => {
    Scroll.create({ document: doc });
    htmxEvent(window, doc.getElementById("sheet"), "htmx:beforeSwap", {});
    htmxEvent(window, doc.getElementById("sheet"), "htmx:afterSwap", {});
  });
  assertOwn("scroll", scrolled);
  const woken = await changed(window, async () => {
    Wake.create({ document: doc, wakeLock: { request: async () => new window.EventTarget() }, storage: null });
  });
  assert.ok(woken.length);
  assertOwn("wake", woken);
});
