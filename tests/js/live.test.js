// The live update loop (static/js/live.js, createLoop) on a simulated clock, stream and
// server: whatever the order of the events and the answers, whether they overlap or get
// lost, the page ends at the newest version. Run with `node --test tests/js/`.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const Live = require("../../static/js/live.js");
const { fakeClock } = require("./clock.js");

// A seeded random source (mulberry32): a failing seed can be run again.
function random(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/* One page and its server. ``kind``: "editor" (events say the version; the phone's own saves
   hold them back), "viewer" (events may carry the new page), "table" (a game's table mode:
   its versions count up too) or "evening" (a version says only that something changed).
   The server answers a fetch with what it holds when the request reaches it (the page as
   it is when its answer comes back: htmx swaps it whatever the page shows by then), and no
   change (204) when that is not newer than the version the request named. ``net`` says what
   goes wrong with a fetch while the phone's connection is bad (until ``lossyUntil``): no
   request sent at all, rejected, never answered, answered with an error. */
function world(clock, kind, rnd, net) {
  const ordered = kind !== "evening";
  const name = (v) => (kind === "evening" ? `2.${v}` : String(v));
  const w = {
    server: 3,
    shown: name(3),
    inFlight: 0,
    most: 0,
    fetches: 0,
    hiddenUntil: 0,
    savingUntil: 0,
    ordered,
    name,
  };
  w.fetch = function () {
    if (net.cannot && rnd() < net.cannot) return false; // htmx sent nothing
    w.fetches += 1;
    w.inFlight += 1;
    w.most = Math.max(w.most, w.inFlight);
    const asked = w.shown;
    const lossy = clock.now() < net.lossyUntil;
    return new Promise((resolve, reject) => {
      const there = rnd() * 300;
      const back = rnd() * 300;
      const fate = lossy ? rnd() : 1;
      if (fate < net.reject) {
        clock.setTimeout(() => { w.inFlight -= 1; reject(new Error("offline")); }, there);
        return;
      }
      if (fate < net.reject + net.hang) {
        // Never answered: htmx's timeout (10 s) ends it, and its promise is rejected, or at
        // times forgotten (the loop's own watch ends the wait).
        const said = rnd() < 0.5;
        clock.setTimeout(() => { w.inFlight -= 1; if (said) reject(new Error("timeout")); }, 10_000);
        return;
      }
      const error = fate < net.reject + net.hang + net.error;
      let read = null;
      clock.setTimeout(() => { read = w.server; }, there);
      clock.setTimeout(() => {
        w.inFlight -= 1;
        if (!error && (w.ordered ? read > Number(asked) : name(read) !== asked)) w.shown = name(read);
        resolve(!error); // as live.js's ask() says it: an error status is no answer
      }, there + back);
    });
  };
  w.show = function (version) {
    if (rnd() < 0.1) return false; // no sheet to swap into: the loop fetches instead
    w.shown = version;
    return true;
  };
  w.ready = () => clock.now() >= w.hiddenUntil && clock.now() >= w.savingUntil;
  return w;
}

/* A random story: commits on the server (some a few milliseconds apart, some bunched like
   a phone back from offline), each with its event delivered after its own delay (so out of
   order at times), some events lost but the last; the page hidden or saving for a while. */
async function story(seed, kind, make, net) {
  const rnd = random(seed);
  const clock = fakeClock();
  const w = world(clock, kind, rnd, net);
  const page = make({ clock, ordered: w.ordered, shown: () => w.shown, fetch: w.fetch, show: w.show, ready: w.ready });
  const commits = 1 + Math.floor(rnd() * 8);
  let at = 0;
  for (let i = 0; i < commits; i++) {
    at += rnd() < 0.5 ? rnd() * 20 : rnd() * 600;
    const last = i === commits - 1;
    clock.setTimeout(() => {
      w.server += 1;
      const version = w.name(w.server);
      const deliveries = last ? 1 : rnd() < 0.2 ? 0 : rnd() < 0.1 ? 2 : 1;
      for (let d = 0; d < deliveries; d++) {
        const carry = kind === "viewer" && rnd() < 0.7;
        clock.setTimeout(() => page.want(version, carry ? `<sheet ${version}>` : null), rnd() * 400);
      }
    }, at);
  }
  if (kind !== "table" && rnd() < 0.5) {
    const from = rnd() * 1500;
    const until = from + rnd() * 2000;
    const field = kind === "editor" && rnd() < 0.5 ? "savingUntil" : "hiddenUntil";
    clock.setTimeout(() => { w[field] = until; }, from);
    clock.setTimeout(() => page.resume(), until);
  }
  await clock.run();
  return { w, page, clock };
}

const theLoop = (options) => Live.createLoop(options);

/* The loop live.js had before: an event newer than the page fetches it (or shows the page it
   carried); a second fetch while one is loading is queued by htmx and dropped with the
   element the first answer replaces (or by the stream's guard against polls); a failed one
   is not tried again. */
function todaysLoop(o) {
  let loading = false;
  return {
    want(version, html) {
      if (!Live.newer(version, o.shown())) return;
      if (html && o.show(version, html)) return;
      if (!o.ready() || loading) return;
      const request = o.fetch();
      if (!request) return;
      loading = true;
      request.then(() => { loading = false; }, () => { loading = false; });
    },
    resume() {},
  };
}

const KINDS = ["editor", "viewer", "table", "evening"];
const CLEAN = { lossyUntil: 0, reject: 0, hang: 0, error: 0, cannot: 0 };
const LOSSY = { lossyUntil: 4000, reject: 0.2, hang: 0.1, error: 0.1, cannot: 0.1 };

test("whatever the interleaving, the page ends at the newest version, one fetch at a time", async () => {
  for (const kind of KINDS) {
    for (let seed = 1; seed <= 150; seed++) {
      for (const net of [CLEAN, LOSSY]) {
        const { w, page, clock } = await story(seed, kind, theLoop, net);
        const where = `${kind}, seed ${seed}${net === LOSSY ? ", lossy" : ""}`;
        assert.equal(w.shown, w.name(w.server), `the page is behind: ${where}`);
        assert.ok(w.most <= 1, `two fetches at once: ${where}`);
        assert.equal(page.state().loading, false, where);
        assert.equal(clock.pending(), 0, `still busy once at the newest: ${where}`);
        if (net === CLEAN) assert.ok(w.fetches <= 2 * 8 + 1, `${w.fetches} fetches: ${where}`);
      }
    }
  }
});

test("the property catches the loop live.js had: it ends behind with no loss at all", async () => {
  const behind = [];
  for (let seed = 1; seed <= 150; seed++) {
    const { w } = await story(seed, "editor", todaysLoop, CLEAN);
    if (w.shown !== w.name(w.server)) behind.push(seed);
  }
  assert.ok(behind.length > 0, "the old loop should end behind in some interleavings");
});

// The story: two deals 250 ms apart; the first fetch's answer is read before the
// second deal is saved and comes back after its event.
async function twoDealsCloseTogether(make) {
  const clock = fakeClock();
  const w = { server: 5, shown: "5", fetches: 0 };
  const page = make({
    clock,
    shown: () => w.shown,
    show: () => false,
    ready: () => true,
    fetch() {
      w.fetches += 1;
      const asked = Number(w.shown);
      return new Promise((resolve) => {
        let read;
        clock.setTimeout(() => { read = w.server; }, 50);
        clock.setTimeout(() => { if (read > asked) w.shown = String(read); resolve(); }, 600);
      });
    },
  });
  clock.setTimeout(() => { w.server = 6; page.want("6"); }, 0);
  clock.setTimeout(() => { w.server = 7; page.want("7"); }, 250);
  await clock.run();
  return w;
}

test("two deals 250 ms apart: the second, heard while the first loads, is fetched after it", async () => {
  const w = await twoDealsCloseTogether((o) => Live.createLoop(o));
  assert.equal(w.shown, "7");
  assert.equal(w.fetches, 2);
  const before = await twoDealsCloseTogether(todaysLoop);
  assert.equal(before.shown, "6"); // the old loop: a deal behind, and nothing asks again
  assert.equal(before.fetches, 1);
});

test("an event the page already shows, or an older one, asks nothing", async () => {
  const clock = fakeClock();
  let fetches = 0;
  const page = Live.createLoop({
    clock,
    shown: () => "7",
    fetch: () => { fetches += 1; return Promise.resolve(); },
    show: () => false,
    ready: () => true,
  });
  page.want("7");
  page.want("5");
  await clock.run();
  assert.equal(fetches, 0);
});

test("a fetch htmx did not send, or one that failed, is tried again later, not at once", async () => {
  const clock = fakeClock();
  const tries = [];
  let shown = "1";
  const page = Live.createLoop({
    clock,
    retryMs: 100,
    shown: () => shown,
    fetch() {
      tries.push(clock.now());
      if (tries.length === 1) return false;
      if (tries.length === 2) return Promise.reject(new Error("offline"));
      shown = "2";
      return Promise.resolve();
    },
    show: () => false,
    ready: () => true,
  });
  page.want("2");
  await clock.run();
  assert.equal(shown, "2");
  assert.deepEqual(tries, [0, 100, 300]);
});

test("a hidden page asks when it is seen again; the page an event carried is shown, not fetched", async () => {
  const clock = fakeClock();
  let shown = "1";
  let hidden = true;
  let fetches = 0;
  const page = Live.createLoop({
    clock,
    shown: () => shown,
    fetch: () => { fetches += 1; return Promise.resolve(); },
    show: (version) => { shown = version; return true; },
    ready: () => !hidden,
  });
  page.want("2", "<sheet 2>");
  await clock.run();
  assert.equal(shown, "1");
  hidden = false;
  page.resume();
  await clock.run();
  assert.equal(shown, "2");
  assert.equal(fetches, 0);
});

test("a lost stream asks once whatever the versions; close() asks once more and then stops", async () => {
  const clock = fakeClock();
  let fetches = 0;
  const page = Live.createLoop({
    clock,
    shown: () => "3",
    fetch: () => { fetches += 1; return Promise.resolve(); },
    show: () => false,
    ready: () => true,
  });
  page.refresh();
  await clock.run();
  assert.equal(fetches, 1);
  page.close();
  await clock.run();
  assert.equal(fetches, 2);
  page.want("9");
  await clock.run();
  assert.equal(fetches, 2);
});

test("versions: a game's count up, an evening's in turn, its table mode's written with a dash", () => {
  assert.ok(Live.newer("10", "9"));
  assert.ok(!Live.newer("9", "10"));
  assert.ok(Live.newer("4.10", "4.9"));
  assert.ok(Live.newer("5.1", "4.37"));
  assert.ok(Live.same("4.37", "4-37"));
  assert.ok(Live.newer("1", null));
  assert.ok(!Live.newer("", "1"));
});
