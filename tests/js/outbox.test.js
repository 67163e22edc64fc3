// The outbox (static/js/outbox.js) with IndexedDB from fake-indexeddb and a fake server
// that answers as scorepad/views/deals.py does for an outbox's post: run with
// `node --test tests/js/` (python3 manage.py runtests runs it).
"use strict";

const { test } = require("node:test");
const assert = require("node:assert/strict");
const { IDBFactory } = require("fake-indexeddb");
const Outbox = require("../../static/js/outbox.js");

const GAME = "g1";

// localStorage as a browser keeps it: shared by the tabs of one phone.
function memoryStorage() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
  };
}

// Web Locks as a browser grants them: one holder of a name at a time, the others in turn.
function lockManager() {
  const queues = new Map();
  return {
    request(name, work) {
      const last = queues.get(name) || Promise.resolve();
      const run = last.then(() => work());
      queues.set(name, run.catch(() => {}));
      return run;
    },
  };
}

// The server's side of the protocol: a version per game, a one-time token recorded once
// (a replay answers "already"), a write on an older version a conflict. ``fail`` holds the
// answers to give before that (a status, or "down" for no connection at all).
function fakeServer() {
  const server = { versions: {}, tokens: new Set(), saved: [], posts: [], fail: [], inFlight: 0, most: 0 };
  server.fetch = async (url, init) => {
    const form = new URLSearchParams(init.body);
    const game = url.split("/")[2];
    const once = form.get("once");
    server.posts.push({ url, once, version: Number(form.get("version")), headers: init.headers });
    server.inFlight += 1;
    server.most = Math.max(server.most, server.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5)); // the network takes its time
    server.inFlight -= 1;
    const failure = server.fail.shift();
    if (failure === "down") throw new TypeError("Failed to fetch");
    const version = server.versions[game] || 0;
    let status = 200;
    let body;
    if (failure) {
      status = failure;
      body = { outcome: "retry", message: "The server could not reach its database." };
    } else if (server.tokens.has(once)) {
      body = { outcome: "already", version, message: "" };
    } else if (Number(form.get("version")) !== version) {
      status = 409;
      body = { outcome: "conflict", version, message: "Another phone changed this game first." };
    } else {
      server.tokens.add(once);
      server.versions[game] = version + 1;
      server.saved.push(form.get("what"));
      body = { outcome: "saved", version: version + 1, message: "" };
    }
    return { status, json: async () => body };
  };
  return server;
}

// One tab of a phone: its own outbox on the phone's shared IndexedDB, storage and locks.
function tab(phone, server, extra = {}) {
  const timers = [];
  let count = 0;
  const box = Outbox.create({
    token: GAME,
    indexedDB: phone.idb,
    storage: phone.storage,
    locks: phone.locks,
    fetch: server.fetch,
    clock: { now: () => 1700000000000, setTimeout: (fn, ms) => timers.push({ fn, ms }) },
    random: (bytes) => bytes.fill(++count),
    csrf: () => "csrf-now",
    ...extra,
  });
  box.timers = timers;
  return box;
}

function phone() {
  return { idb: new IDBFactory(), storage: memoryStorage(), locks: lockManager() };
}

// A deal form as htmx would have posted it.
function request(what, once, version = "0") {
  return {
    path: `/g/${GAME}/deals/new/`,
    fields: [["what", what], ["once", once], ["version", version], ["csrfmiddlewaretoken", "old"]],
    csrf: "csrf-then",
  };
}

test("writes are sent in the order they were kept, each on the version before it", async () => {
  const server = fakeServer();
  const box = tab(phone(), server);
  for (const what of ["deal 1", "deal 2", "deal 3"]) await box.keep(request(what, "t-" + what));
  const round = await box.send();
  assert.deepEqual(server.saved, ["deal 1", "deal 2", "deal 3"]);
  assert.deepEqual(server.posts.map((p) => p.version), [0, 1, 2]);
  assert.equal(server.posts[0].headers["X-Scorepad-Outbox"], "1");
  assert.equal(server.posts[0].headers["X-CSRFToken"], "csrf-now");
  assert.equal(round.sent, 3);
  assert.deepEqual(await box.all(), []);
  assert.equal(box.knownVersion(), 3);
});

test("a replay answered \"already\" counts once and leaves the outbox", async () => {
  const server = fakeServer();
  const box = tab(phone(), server);
  await box.keep(request("deal 1", "t1"));
  server.tokens.add("t1"); // the server had saved it; its answer never reached the phone
  server.versions[GAME] = 1;
  const round = await box.send();
  assert.equal(round.sent, 1);
  assert.deepEqual(server.saved, []);
  assert.deepEqual(await box.all(), []);
  assert.ok(box.usedTokens().includes("t1"));
  // The same form kept again gets a token of its own: the used one would change nothing.
  await box.keep(request("deal 2", "t1", "1"));
  const [entry] = await box.all();
  assert.notEqual(entry.once, "t1");
  assert.match(entry.once, /^p[0-9a-f]{32}$/);
});

test("a conflict stops the game's queue and waits for the player", async () => {
  const server = fakeServer();
  const box = tab(phone(), server);
  await box.keep(request("deal 1", "t1"));
  await box.keep(request("deal 2", "t2"));
  server.versions[GAME] = 5; // another phone moved on
  await box.send();
  assert.equal(server.posts.length, 1, "nothing after the conflict is sent");
  let [first, second] = await box.all();
  assert.equal(first.state, "attention");
  assert.equal(first.outcome, "conflict");
  assert.equal(first.problem, "Another phone changed this game first.");
  assert.equal(second.state, "waiting");
  // It stays stopped, round after round, until the player acts.
  await box.send();
  assert.equal(server.posts.length, 1);
  // Discarded (or opened): the next write is made one version lower and goes.
  await box.drop(first);
  [second] = await box.all();
  assert.equal(second.version, 0);
  assert.equal(Outbox.field(second.fields, "version"), "0");
  server.versions[GAME] = 0;
  const round = await box.send();
  assert.equal(round.sent, 1);
  assert.deepEqual(server.saved, ["deal 2"]);
});

test("a conflict in one game does not stop another game's writes", async () => {
  const server = fakeServer();
  const one = phone();
  const box = tab(one, server);
  const other = tab(one, server, { token: "g2" });
  await box.keep(request("deal 1", "t1"));
  await other.keep({ path: "/g/g2/deals/new/", fields: [["what", "g2 deal"], ["once", "u1"], ["version", "0"]], csrf: "" });
  server.versions[GAME] = 3;
  await box.send();
  assert.deepEqual(server.saved, ["g2 deal"]);
  assert.equal((await box.all()).length, 1);
});

test("a 503 \"retry\" is sent again later with the same token", async () => {
  const server = fakeServer();
  const box = tab(phone(), server);
  await box.keep(request("deal 1", "t1"));
  await box.keep(request("deal 2", "t2"));
  server.fail.push(503);
  const first = await box.send();
  assert.equal(first.sent, 0);
  assert.equal(server.posts.length, 1, "the round stops at the 503");
  assert.equal((await box.all()).length, 2);
  assert.ok(box.timers.length >= 1, "a round is due later");
  const retry = box.timers.at(-1);
  assert.equal(retry.ms, 20000);
  box.timers.length = 0;
  await retry.fn();
  assert.deepEqual(server.posts.map((p) => p.once), ["t1", "t1", "t2"]);
  assert.deepEqual(server.saved, ["deal 1", "deal 2"]);
  assert.deepEqual(await box.all(), []);
});

test("no connection: everything waits and the round says so", async () => {
  const server = fakeServer();
  const box = tab(phone(), server);
  await box.keep(request("deal 1", "t1"));
  server.fail.push("down");
  const round = await box.send();
  assert.equal(round.offline, true);
  assert.equal((await box.all())[0].state, "waiting");
  const offline = tab(phone(), server, { online: () => false });
  assert.equal(await offline.send(), null, "a browser that says it is offline sends nothing");
});

test("a closed tab's writes are sent by the next page", async () => {
  const server = fakeServer();
  const one = phone();
  const closed = tab(one, server);
  await closed.keep(request("deal 1", "t1"));
  await closed.keep(request("deal 2", "t2"));
  // The tab is closed before it sent anything; later another page of the site opens.
  const next = tab(one, server);
  assert.equal((await next.all()).length, 2);
  const round = await next.send();
  assert.equal(round.sent, 2);
  assert.deepEqual(server.saved, ["deal 1", "deal 2"]);
});

test("two tabs never send the same write twice at once", async () => {
  const server = fakeServer();
  const one = phone();
  const left = tab(one, server);
  const right = tab(one, server);
  for (const what of ["deal 1", "deal 2", "deal 3"]) await left.keep(request(what, "t-" + what));
  const [a, b] = await Promise.all([left.send(), right.send()]);
  assert.equal(server.most, 1, "one post at a time");
  assert.equal(server.posts.length, 3, "each write posted once");
  assert.deepEqual(server.saved, ["deal 1", "deal 2", "deal 3"]);
  assert.equal(a.sent + b.sent, 3);
  assert.deepEqual(await right.all(), []);
});

test("one round at a time in a tab", async () => {
  const server = fakeServer();
  const box = tab(phone(), server);
  await box.keep(request("deal 1", "t1"));
  const [first, second] = await Promise.all([box.send(), box.send()]);
  assert.equal(first.sent, 1);
  assert.equal(second, null);
  assert.equal(server.posts.length, 1);
});

test("the page hears of every round, the retries' too", async () => {
  const server = fakeServer();
  const rounds = [];
  const box = tab(phone(), server, { onRound: (round) => { rounds.push(round.sent + "/" + round.left.length); } });
  await box.keep(request("deal 1", "t1"));
  server.fail.push(503);
  await box.send();
  await box.timers.at(-1).fn();
  assert.deepEqual(rounds, ["0/1", "1/0"]);
});
