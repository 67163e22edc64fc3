// Table mode's full screen and screen kept on (static/js/tablemode.js) on a DOM (happy-dom:
// why, in tests/js/page.js), with a fake wake lock and a fake Fullscreen API. The page's top
// is as templates/scorepad/tablemode.html renders it in English.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const { Window } = require("happy-dom");
const TableMode = require("../../static/js/tablemode.js");
const { fakeWakeLock, visibility, settle } = require("./page.js");

// ``fullscreen``: the browser has the Fullscreen API (requests granted as asked).
function setUp({ fullscreen = true, wakeLock = true, refuse = false } = {}) {
  const window = new Window({ url: "http://table.test/en/games/abc/table/" });
  const doc = window.document;
  doc.body.innerHTML = `<div class="tm-top"><a href="/en/games/abc/">Back</a>
    <span class="tm-awake" role="status" data-awake data-on="The screen stays on."></span>
    <button type="button" class="secondary tm-full" data-fullscreen data-enter="Full screen" data-leave="Leave full screen" hidden>Full screen</button></div>`;
  Object.defineProperty(doc, "visibilityState", { configurable: true, get: () => "visible" });
  const asked = [];
  if (fullscreen) {
    let element = null;
    Object.defineProperty(doc, "fullscreenEnabled", { configurable: true, get: () => true });
    Object.defineProperty(doc, "fullscreenElement", { configurable: true, get: () => element });
    const change = (to) => {
      element = to;
      doc.dispatchEvent(new window.Event("fullscreenchange"));
      return Promise.resolve();
    };
    doc.documentElement.requestFullscreen = () => { asked.push("enter"); return change(doc.documentElement); };
    doc.exitFullscreen = () => { asked.push("leave"); return change(null); };
  }
  const lock = wakeLock ? fakeWakeLock(window) : undefined;
  if (lock && refuse) lock.request = () => Promise.reject(new Error("NotAllowedError"));
  const mode = TableMode.create({ document: doc, navigator: { wakeLock: lock } });
  const button = doc.querySelector("[data-fullscreen]");
  const said = doc.querySelector("[data-awake]");
  return { window, doc, mode, lock, asked, button, said };
}

test("the screen is kept on while the page is shown, and said so", async () => {
  const t = setUp();
  assert.equal(await t.mode.start(), true);
  assert.equal(t.lock.held.length, 1);
  assert.equal(t.lock.held[0].type, "screen");
  assert.equal(t.said.textContent, "The screen stays on.");
});

test("hidden, the browser releases the lock; shown again, it is asked again", async () => {
  const t = setUp();
  await t.mode.start();
  visibility(t.window, "hidden");
  await t.lock.held[0].release(); // what the browser does to a hidden page's lock
  assert.equal(t.said.textContent, "");
  visibility(t.window, "visible");
  await settle(3);
  assert.equal(t.lock.held.length, 1, "asked again");
  assert.equal(t.said.textContent, "The screen stays on.");
  visibility(t.window, "visible");
  await settle(3);
  assert.equal(t.lock.held.length, 1, "one lock, not one a time the page is shown");
});

test("a lock refused (battery saver) says nothing, and the screen sleeps as usual", async () => {
  const t = setUp({ refuse: true });
  assert.equal(await t.mode.start(), false);
  assert.equal(t.said.textContent, "");
});

test("full screen on a tap, and the button says how to leave it", async () => {
  const t = setUp();
  await t.mode.start();
  assert.equal(t.button.hidden, false);
  assert.equal(t.button.textContent, "Full screen");
  assert.equal(t.button.getAttribute("aria-pressed"), "false");
  t.button.click();
  await settle(2);
  assert.deepEqual(t.asked, ["enter"]);
  assert.equal(t.button.textContent, "Leave full screen");
  assert.equal(t.button.getAttribute("aria-pressed"), "true");
  t.button.click();
  await settle(2);
  assert.deepEqual(t.asked, ["enter", "leave"]);
  assert.equal(t.button.textContent, "Full screen");
});

test("a tap asks for the lock again when it was lost (some browsers grant it only on a tap)", async () => {
  const t = setUp();
  await t.mode.start();
  await t.lock.held[0].release();
  t.button.click();
  await settle(3);
  assert.equal(t.lock.held.length, 1);
  assert.equal(t.said.textContent, "The screen stays on.");
});

test("without the Fullscreen API nor a wake lock the button stays hidden and nothing is said", async () => {
  const t = setUp({ fullscreen: false, wakeLock: false });
  assert.equal(await t.mode.start(), false);
  assert.equal(t.button.hidden, true);
  assert.equal(t.said.textContent, "");
});
