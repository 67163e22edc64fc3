// The screen kept awake (static/js/wake.js) on a DOM (happy-dom) with a fake wake lock.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const Wake = require("../../static/js/wake.js");
const { page, memoryStorage, settle, fakeWakeLock, visibility } = require("./page.js");

test("without a wake lock the toggle stays hidden", () => {
  const window = page();
  assert.equal(Wake.create({ document: window.document, wakeLock: undefined, storage: null }), null);
  assert.equal(window.document.querySelector("label.wake").hidden, true);
});

test("the screen is held on load, released on hide and held again when visible", async () => {
  const window = page();
  visibility(window, "visible");
  const lock = fakeWakeLock(window);
  const wake = Wake.create({ document: window.document, wakeLock: lock, storage: memoryStorage() });
  await settle();
  assert.equal(window.document.querySelector("label.wake").hidden, false);
  assert.equal(lock.held.length, 1);
  // The browser releases the lock when the page is hidden.
  visibility(window, "hidden");
  await lock.held[0].release();
  await settle();
  assert.equal(wake.held(), null);
  assert.equal(lock.held.length, 0);
  visibility(window, "visible");
  await settle();
  assert.equal(lock.held.length, 1);
  assert.ok(wake.held());
});

test("turned off, the lock is released and the choice kept for the next page", async () => {
  const window = page();
  visibility(window, "visible");
  const lock = fakeWakeLock(window);
  const storage = memoryStorage();
  Wake.create({ document: window.document, wakeLock: lock, storage });
  await settle();
  const toggle = window.document.querySelector("[data-wake]");
  toggle.checked = false;
  toggle.dispatchEvent(new window.Event("change"));
  await settle();
  assert.equal(lock.held.length, 0);
  assert.equal(storage.getItem("scorepad-wake"), "off");

  const next = page();
  visibility(next, "visible");
  const nextLock = fakeWakeLock(next);
  Wake.create({ document: next.document, wakeLock: nextLock, storage });
  await settle();
  assert.equal(next.document.querySelector("[data-wake]").checked, false);
  assert.equal(nextLock.held.length, 0);
});
