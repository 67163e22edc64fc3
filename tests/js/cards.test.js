// The card grid (static/js/cards.js) on a DOM (happy-dom: why, in tests/js/page.js): its keys
// type tokens into the text box, the hand shows them as faces and a tap on one takes it out,
// the sum of a game of penalties is what the engine will count, and a token the engine would
// refuse is said so, never counted as nothing. The grid is as templates/cards/grid.html
// renders it in German (its reading table is rules/engine/cards.py's reading_table("de")).
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const { Window } = require("happy-dom");
const Cards = require("../../static/js/cards.js");

const READING = JSON.stringify({
  ranks: { A: "A", J: "J", Q: "Q", K: "K", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", T: "10", B: "J", D: "Q", AS: "A" },
  suits: { S: "S", H: "H", D: "D", C: "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C" },
  jokers: ["JK", "JO", "JOKER", "★"],
  joker: "JK",
});

// A key of the grid: its code, what it types, its face and its points.
const key = (code, typed, face, points) =>
  `<button type="button" class="card-key" data-card="${code}" data-points="${points}" data-type="${typed}" aria-label="${code}">${face}</button>`;

function grid(target, { reading = READING, unit = "Strafpunkte" } = {}) {
  return `<div class="card-grid" data-target="${target}" data-remove="Entfernen" data-reading='${reading}' data-unread="%(token)s ist keine Karte"${unit ? ` data-unit="${unit}"` : ""} role="group">
    <div class="card-hand check-cards" data-card-hand></div>
    <div class="card-suit red-suit">${key("JH", "B♥", "B♥", 10)}${key("5H", "5♥", "5♥", 5)}</div>
    <div class="card-suit">${key("QC", "D♣", "D♣", 10)}${key("AS", "A♠", "A♠", 20)}</div>
    <div class="card-tools">
      <button type="button" class="card-key joker" data-card="JK" data-points="50" aria-label="Joker">JK</button>
      <button type="button" data-card-action="back">Letzte entfernen</button>
      <button type="button" data-card-action="clear">Leeren</button>
      <span class="card-count">Karten: <output data-card-count>0</output> · Strafpunkte: <output data-card-points>0</output></span>
    </div>
  </div>`;
}

// A deal form of a game of penalties: two players, each with cards in a fold and its sum.
function setUp(options = {}) {
  const window = new Window({ url: "http://table.test/de/games/abc/deals/new/" });
  const doc = window.document;
  doc.body.innerHTML = `<form>${[1, 2].map((pos) => `
    <details class="cards-entry"><summary>Karten <span class="card-sum" data-sum-for="id_cards_${pos}"></span></summary>
      <textarea id="id_cards_${pos}" name="cards_${pos}"></textarea>${grid(`id_cards_${pos}`, options)}
    </details>`).join("")}</form>`;
  const changes = [];
  doc.getElementById("id_cards_1").addEventListener("change", () => changes.push("change"));
  const grids = Cards.create({ document: doc });
  const tap = (selector, at = doc.querySelector(".card-grid")) => at.querySelector(selector).click();
  const box = doc.getElementById("id_cards_1");
  const type = (text) => {
    box.value = text;
    box.dispatchEvent(new window.Event("input", { bubbles: true }));
  };
  return { window, doc, grids, tap, box, type, changes };
}

const hand = (doc) => [...doc.querySelector("[data-card-hand]").children].map((b) => b.textContent);
const out = (doc, name) => doc.querySelector(`[data-card-${name}]`).textContent;

test("a tap on a key types its token, shows its face in the hand and counts its points", () => {
  const { doc, tap, box, changes } = setUp();
  tap('[data-card="JH"]');
  tap('[data-card="AS"]');
  tap('[data-card="JK"]');
  assert.equal(box.value, "B♥ A♠ JK", "as the buttons say it, in the page's language");
  assert.deepEqual(hand(doc), ["B♥", "A♠", "JK★"]);
  assert.equal(out(doc, "count"), "3");
  assert.equal(out(doc, "points"), "80");
  assert.equal(doc.querySelector('[data-sum-for="id_cards_1"]').textContent, "· Strafpunkte: 80");
  assert.equal(doc.querySelector("[data-card-hand] .pc").classList.contains("red"), true, "a heart is red");
  assert.equal(changes.length, 3, "the form hears each change (its preview asks again)");
});

test("a card in the hand is taken out by a tap; Remove last and Clear do what they say", () => {
  const { doc, tap, box } = setUp();
  for (const code of ["JH", "5H", "QC", "AS"]) tap(`[data-card="${code}"]`);
  const second = doc.querySelector('[data-card-at="1"]');
  assert.equal(second.getAttribute("aria-label"), "Entfernen 5H");
  second.click();
  assert.equal(box.value, "B♥ D♣ A♠");
  tap('[data-card-action="back"]');
  assert.equal(box.value, "B♥ D♣");
  assert.equal(out(doc, "points"), "20");
  tap('[data-card-action="clear"]');
  assert.equal(box.value, "");
  assert.deepEqual(hand(doc), []);
  assert.equal(out(doc, "count"), "0");
  assert.equal(doc.querySelector('[data-sum-for="id_cards_1"]').textContent, "", "no cards, no sum");
});

test("typed tokens are read as the engine reads them in the page's language", () => {
  const { doc, type } = setUp();
  type("w♥ d♣, jk;  5♥ As♠");
  // B is the German jack, D the queen; "W" is no rank in German: refused, never counted as nothing.
  assert.deepEqual(hand(doc), ["w♥", "D♣", "JK★", "5♥", "A♠"]);
  assert.equal(out(doc, "count"), "5");
  assert.equal(out(doc, "points"), "?");
  assert.equal(doc.querySelector("[data-card-points]").classList.contains("unread"), true);
  const sum = doc.querySelector('[data-sum-for="id_cards_1"]');
  assert.equal(sum.textContent, "· w♥ ist keine Karte");
  assert.equal(doc.querySelector("[data-card-hand] .pc.unread").textContent, "w♥");
  type("b♥ d♣ JOKER");
  assert.equal(out(doc, "points"), "70");
  assert.equal(sum.textContent, "· Strafpunkte: 70");
  assert.equal(sum.classList.contains("unread"), false);
});

test("a grid kept from before it carried the engine's reading reads its keys' own tokens", () => {
  const { doc, type } = setUp({ reading: "" });
  type("B♥ 5H JK XX");
  assert.deepEqual([...doc.querySelectorAll("[data-card-hand] .pc")].map((f) => f.textContent), ["B♥", "5♥", "JK★", "XX"]);
  assert.equal(out(doc, "points"), "?");
});

test("a classic game's grid counts cards but shows no penalty sum", () => {
  const { doc, tap } = setUp({ unit: "" });
  tap('[data-card="QC"]');
  assert.equal(out(doc, "count"), "1");
  assert.equal(doc.querySelector('[data-sum-for="id_cards_1"]').textContent, "");
});

test("one player's cards open at a time: opening one folds the other", () => {
  const { window, doc } = setUp();
  const [first, second] = doc.querySelectorAll("details.cards-entry");
  first.open = true;
  first.dispatchEvent(new window.Event("toggle"));
  second.open = true;
  second.dispatchEvent(new window.Event("toggle"));
  assert.equal(first.open, false);
  assert.equal(second.open, true);
});

test("a form swapped in shows the cards its boxes already hold (htmx:load)", () => {
  const { window, doc, grids } = setUp();
  doc.getElementById("id_cards_2").value = "A♠ 5♥";
  const fold = doc.querySelectorAll("details.cards-entry")[1];
  fold.dispatchEvent(new window.CustomEvent("htmx:load", { bubbles: true }));
  const second = fold.querySelector(".card-grid");
  assert.equal(second.querySelector("[data-card-count]").textContent, "2");
  assert.equal(second.querySelector("[data-card-points]").textContent, "25");
  grids.refresh(doc); // on load: every grid of the page
  assert.equal(doc.querySelector("[data-card-count]").textContent, "0");
});
