// The sheet's scroll (static/js/scroll.js) on a DOM (happy-dom, which lays nothing out: the
// box's scrollHeight is set here as a browser would measure it).
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const Scroll = require("../../static/js/scroll.js");
const { page, sheetHtml, htmxEvent } = require("./page.js");

function measured(box, height) {
  Object.defineProperty(box, "scrollHeight", { configurable: true, get: () => height });
  return box;
}

test("on load the newest deal is in view", () => {
  const window = page();
  const doc = window.document;
  measured(doc.querySelector(".sheet-scroll"), 900);
  Scroll.create({ document: doc });
  assert.equal(doc.querySelector(".sheet-scroll").scrollTop, 900);
});

test("a swapped sheet keeps the sideways scroll and shows its newest deal", () => {
  const window = page();
  const doc = window.document;
  Scroll.create({ document: doc });
  doc.querySelector(".sheet-scroll").scrollLeft = 120;
  htmxEvent(window, doc.getElementById("sheet"), "htmx:beforeSwap", {});
  doc.getElementById("sheet").outerHTML = sheetHtml({ deals: 2 });
  const fresh = measured(doc.querySelector(".sheet-scroll"), 1400);
  htmxEvent(window, doc.getElementById("sheet"), "htmx:afterSwap", {});
  assert.equal(fresh.scrollLeft, 120);
  assert.equal(fresh.scrollTop, 1400);
});

test("the sheet the live stream pushed keeps the sideways scroll too", () => {
  const window = page();
  const doc = window.document;
  Scroll.create({ document: doc });
  doc.querySelector(".sheet-scroll").scrollLeft = 60;
  doc.body.dispatchEvent(new window.CustomEvent("scorepad:pushed"));
  doc.getElementById("sheet").outerHTML = sheetHtml({ deals: 3 });
  const fresh = measured(doc.querySelector(".sheet-scroll"), 2000);
  htmxEvent(window, doc.getElementById("sheet"), "htmx:afterSwap", {});
  assert.equal(fresh.scrollLeft, 60);
  assert.equal(fresh.scrollTop, 2000);
});
