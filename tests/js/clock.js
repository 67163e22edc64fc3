// A clock that runs only when told, for the unit tests of the phone's scripts (not a test
// itself: node --test runs only *.test.js): timers in order, the promises' callbacks between
// them (`run`), or the timers due within a while, at once (`tick`).
"use strict";

function fakeClock() {
  let now = 0;
  let seq = 0;
  const timers = new Map();
  // The timer due first, if it is due by ``limit``.
  function due(limit) {
    let next = null;
    for (const t of timers.values()) {
      if (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq)) next = t;
    }
    return next && next.at <= limit ? next : null;
  }
  function fire(t) {
    timers.delete(t.seq);
    now = t.at;
    t.fn();
  }
  return {
    now: () => now,
    setTimeout(fn, ms) {
      seq += 1;
      timers.set(seq, { at: now + Math.max(0, ms || 0), seq, fn });
      return seq;
    },
    clearTimeout(id) {
      timers.delete(id);
    },
    pending: () => timers.size,
    // Runs every timer (and what they start) until none is left, or until ``limit``.
    async run(limit = 3_600_000) {
      await settle();
      for (let next = due(limit); next; next = due(limit)) {
        fire(next);
        await settle();
      }
    },
    // Moves time on by ``ms``, running the timers due on the way (no promise between them).
    tick(ms) {
      const until = now + ms;
      for (let next = due(until); next; next = due(until)) fire(next);
      now = until;
    },
  };
}

function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

module.exports = { fakeClock, settle };
