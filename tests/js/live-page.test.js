// The page's side of the live update (static/js/live.js, createPage) on a DOM (happy-dom: why,
// in tests/js/page.js) with a fake EventSource and a fake clock: a stream that drops falls
// back to polling and back, a silent stream counts as lost, a stream with no first event
// leaves the page polling. The update loop itself has its property test (live.test.js).
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const Live = require("../../static/js/live.js");
const { page, fakeClock, htmxEvent, settle } = require("./page.js");

// EventSource as a browser gives it, driven by the test: ``opened`` lists every stream made.
function fakeEventSource(window) {
  const opened = [];
  class FakeSource extends window.EventTarget {
    constructor(url) {
      super();
      this.url = url;
      this.readyState = FakeSource.OPEN;
      this.closed = false;
      opened.push(this);
    }
    close() {
      this.closed = true;
      this.readyState = FakeSource.CLOSED;
    }
    // The server says something.
    say(type, data) {
      const event = new window.Event(type);
      event.data = data;
      this.dispatchEvent(event);
    }
    // The connection failed: reconnecting by itself, or given up (refused).
    fail(closed) {
      if (closed) this.readyState = FakeSource.CLOSED;
      if (this.onerror) this.onerror(new window.Event("error"));
    }
  }
  FakeSource.OPEN = 1;
  FakeSource.CLOSED = 2;
  FakeSource.opened = opened;
  return FakeSource;
}

function setUp() {
  const window = page();
  const doc = window.document;
  doc.getElementById("table-bar").dataset.live = "/live/games/abc";
  const clock = fakeClock();
  const asked = [];
  const htmx = {
    // The sheet's own request: htmx:beforeSend in that very call, then the answer.
    ajax(verb, url, config) {
      asked.push(url);
      htmxEvent(window, config.source, "htmx:beforeSend", { xhr: { status: 200 }, requestConfig: { verb: "get" } });
      return Promise.resolve();
    },
    swap() {},
  };
  const win = { htmx, location: { protocol: "http:", hostname: "table.test", pathname: "/g/abc/" }, CustomEvent: window.CustomEvent };
  const Source = fakeEventSource(window);
  const live = Live.createPage({ document: doc, window: win, EventSource: Source, clock, random: () => 0.5 });
  live.start();
  // Whether the page's 3 s poll goes through now (the stream closed) or is held back.
  const polls = () => !htmxEvent(window, doc.querySelector("#sheet .poll"), "htmx:beforeRequest", { requestConfig: { verb: "get" } }).defaultPrevented;
  return { window, doc, clock, asked, Source, live, polls };
}

test("an open stream holds the polls back; a version it names is fetched once", async () => {
  const t = setUp();
  assert.equal(t.Source.opened.length, 1);
  assert.equal(t.Source.opened[0].url, "/live/games/abc?v=3");
  assert.equal(t.polls(), true, "no event yet: the page polls");
  t.Source.opened[0].say("version", "4");
  await settle();
  assert.equal(t.live.state.open, true);
  assert.equal(t.polls(), false);
  assert.deepEqual(t.asked, ["/g/abc/version/?v=3"]);
});

test("a stream that drops falls back to polling, and back to the stream when it returns", async () => {
  const t = setUp();
  const first = t.Source.opened[0];
  first.say("version", "3");
  assert.equal(t.polls(), false);
  first.fail(false); // EventSource reconnects by itself: the polls meanwhile
  assert.equal(t.polls(), true);
  first.say("version", "3"); // reconnected
  assert.equal(t.polls(), false);
  first.fail(true); // refused: given up, a new stream asked for later
  assert.equal(t.polls(), true);
  t.clock.tick(60_000);
  assert.equal(t.Source.opened.length, 1, "not at once");
  t.clock.tick(30_000); // AGAIN_MS and half of it again (random 0.5)
  assert.equal(t.Source.opened.length, 2);
  t.Source.opened[1].say("version", "3");
  assert.equal(t.polls(), false);
});

test("a stream silent for three beats is lost: the sheet asked, the polls back, a new stream", async () => {
  const t = setUp();
  const first = t.Source.opened[0];
  first.say("beat", "20");
  first.say("version", "3");
  assert.equal(t.live.state.beatMs, 20_000);
  t.clock.tick(59_000);
  assert.equal(first.closed, false);
  t.clock.tick(1_000);
  assert.equal(first.closed, true);
  assert.equal(t.live.state.lost, 1);
  assert.equal(t.polls(), true);
  await settle();
  assert.equal(t.asked.length, 1, "what it shows is asked again");
  t.clock.tick(1_000); // a new stream at once (within 2 s)
  assert.equal(t.Source.opened.length, 2);
});

test("a stream with no first event (a proxy that buffers) is closed and the page polls", () => {
  const t = setUp();
  t.clock.tick(4_000);
  assert.equal(t.Source.opened[0].closed, true);
  assert.equal(t.live.state.open, false);
  assert.equal(t.polls(), true);
});

test("without EventSource the page polls as before", () => {
  const window = page();
  window.document.getElementById("table-bar").dataset.live = "/live/games/abc";
  const live = Live.createPage({ document: window.document, window: {}, EventSource: undefined, clock: fakeClock() });
  live.start();
  assert.equal(live.state.open, false);
});
