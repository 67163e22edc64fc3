/* The outbox: the writes to a shared thing (a game, an evening, a circle) that a phone could
   not send, kept and sent in order.

   Its design (the page's UI, static/js/outbox-page.js, only shows what it holds):

   - Kept: a write to a game (record, correct, delete, undo a deal; end or resume), an evening
     (add or take out a game, carry the balances) or a circle (rename, merge, separate) that
     cannot reach the server goes into IndexedDB (database "scorepad", store "outbox", one
     entry per write, numbered as kept: that number is the order). An entry holds the thing's
     link (`token`; `game` in the entries kept before evenings and circles had an outbox), the
     address, the form's fields as a browser posts them, its one-time token (`once`), the
     version it was made on, a label for the list and its state ("waiting", or "attention" once
     the server refused it). It stays there until the server took it, or the player discards
     it: closing the tab loses nothing, the next page of the site sends it.
   - The version: the one the phone knew for the thing (the page shown, or the highest a
     server answer named, kept in localStorage "scorepad-version:<token>") plus the writes
     of that thing queued before it; the server refuses a version another phone moved on from.
   - The one-time token: the form's own, unless it was used already (a token this phone
     sent, kept in localStorage "scorepad-used-once", or one another entry holds); then a
     fresh one ("p" and 32 hexadecimal digits). The server records a token once, so a replay
     changes nothing: it answers "already", which counts as sent.
   - Sending (`send`): every entry of every thing, oldest first, one after the other, posted
     with `X-Scorepad-Outbox: 1` (scorepad/views/writes.py answers in JSON: `outcome`,
     `version`, `message`). "saved" or "already": removed. 429 or 5xx (a 503 "retry": the
     server could not reach its database): the round stops and everything waits for the
     next one, the same token sent again. No connection at all: the same, and the round says
     `offline`. Anything else (a conflict, a refused form, a link gone: 404) marks the entry
     "attention" and blocks the rest of that thing's queue (other things go on) until the
     player opens it (`drop` and the page posts its form, saved only by their tap) or
     discards it (`drop`); the writes queued after it then lose one version each.
   - Rounds: one at a time per page (a second call while one runs does nothing), none while
     the browser says it is offline, and one a while later (RETRY_MS) while this thing keeps
     entries. After each round `onRound({sent, offline, left})` tells the page.
   - Two tabs: a round holds the Web Lock "scorepad-outbox", so two tabs of the same phone
     never send at once (without Web Locks, the one-time token makes a double send harmless).

   Loaded by the browser as a classic script (window.ScorepadOutbox) and by node for the
   unit tests (tests/js/), with what it needs from the browser passed in: indexedDB, fetch,
   locks, storage, the clock, random bytes. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ScorepadOutbox = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var DB = "scorepad";
  var STORE = "outbox";
  var USED = "scorepad-used-once"; // one-time tokens of forms this phone sent
  var VERSION = "scorepad-version:";
  var LOCK = "scorepad-outbox";
  var RETRY_MS = 20000;
  var KEEP_USED = 300;

  // A field of a form as a list of [name, value] pairs: read (no value) or set.
  function field(fields, name, value) {
    for (var i = 0; i < fields.length; i++) {
      if (fields[i][0] === name) {
        if (value === undefined) return fields[i][1];
        fields[i][1] = value;
        return value;
      }
    }
    if (value !== undefined) fields.push([name, value]);
    return value === undefined ? null : value;
  }

  // The thing an entry was kept for: its link (`game` in an entry kept before evenings and
  // circles had an outbox).
  function owner(entry) { return entry.token || entry.game; }

  function create(options) {
    var token = options.token; // the page's thing's link
    var idb = options.indexedDB;
    var storage = options.storage || null;
    var locks = options.locks || null;
    var clock = options.clock || { now: Date.now, setTimeout: setTimeout.bind(null) };
    var online = options.online || function () { return true; };
    var csrf = options.csrf || function () { return ""; };
    var shownVersion = options.shownVersion || function () { return NaN; };
    var random = options.random || function (bytes) { return crypto.getRandomValues(bytes); };
    var onSending = options.onSending || function () {};
    var onRound = options.onRound || function () {};
    var retryMs = options.retryMs || RETRY_MS;
    var sending = false;
    var retryTimer = null;

    function local(key, value) {
      try {
        if (value === undefined) return storage.getItem(key);
        storage.setItem(key, value);
      } catch (e) { /* no storage, or private mode: nothing kept */ }
      return null;
    }

    var dbPromise = null;
    function db() {
      if (!dbPromise) {
        dbPromise = new Promise(function (resolve, reject) {
          if (!idb) { reject(new Error("no IndexedDB")); return; }
          var open = idb.open(options.dbName || DB, 1);
          open.onupgradeneeded = function () {
            open.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
          };
          open.onsuccess = function () { resolve(open.result); };
          open.onerror = function () { reject(open.error); };
        });
      }
      return dbPromise;
    }

    function store(mode, work) {
      return db().then(function (database) {
        return new Promise(function (resolve, reject) {
          var tx = database.transaction(STORE, mode);
          var result = work(tx.objectStore(STORE));
          tx.oncomplete = function () { resolve(result && "result" in result ? result.result : result); };
          tx.onerror = function () { reject(tx.error); };
        });
      });
    }

    // Every thing's entries, oldest first.
    function all() {
      return store("readonly", function (s) { return s.getAll(); }).then(function (list) {
        return (list || []).sort(function (a, b) { return a.id - b.id; });
      });
    }
    function put(entry) { return store("readwrite", function (s) { return s.put(entry); }); }
    function remove(id) { return store("readwrite", function (s) { return s.delete(id); }); }

    function mine(entries) { return entries.filter(function (e) { return owner(e) === token; }); }

    function usedTokens() {
      try { return JSON.parse(local(USED) || "[]"); } catch (e) { return []; }
    }
    function markUsed(once) {
      if (!once) return;
      var list = usedTokens().filter(function (t) { return t !== once; });
      list.push(once);
      local(USED, JSON.stringify(list.slice(-KEEP_USED)));
    }
    function newToken() {
      var bytes = new Uint8Array(16);
      random(bytes);
      return "p" + Array.prototype.map.call(bytes, function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
    }

    // The version this phone knows for the page's thing: the page shown or a later answer.
    function knownVersion() {
      var kept = parseInt(local(VERSION + token), 10);
      var shown = shownVersion();
      return Math.max(isNaN(kept) ? 0 : kept, isNaN(shown) ? 0 : shown);
    }
    function learn(version, of) {
      if (typeof version !== "number" || isNaN(version)) return;
      if (of === undefined || of === token) {
        if (version > knownVersion()) local(VERSION + token, String(version));
      } else if (!(parseInt(local(VERSION + of), 10) >= version)) {
        local(VERSION + of, String(version));
      }
    }

    // Keep a write that could not be sent: ``request`` {path, fields, csrf} as htmx would
    // have posted it; ``describe(entries)`` gives its {number, who, label} (a new deal's
    // number is set in its fields too).
    function keep(request, describe) {
      var fields = request.fields.filter(function (pair) { return pair[0] !== "csrfmiddlewaretoken"; });
      return all().then(function (entries) {
        var once = field(fields, "once");
        var taken = entries.some(function (e) { return e.once === once; });
        if (!once || taken || usedTokens().indexOf(once) >= 0) once = field(fields, "once", newToken());
        learn(parseInt(field(fields, "version"), 10));
        var version = knownVersion() + mine(entries).length;
        field(fields, "version", String(version));
        var about = (describe && describe(entries)) || {};
        if (about.number) field(fields, "number", String(about.number));
        return store("readwrite", function (s) {
          return s.add({
            number: about.number || null,
            who: about.who || "",
            token: token,
            url: request.path,
            fields: fields,
            csrf: request.csrf,
            once: once,
            version: version,
            label: about.label || "",
            queuedAt: clock.now(),
            state: "waiting",
          });
        });
      }).then(function (id) {
        retrySoon();
        return id;
      });
    }

    // The player opened or discarded an entry that waited for them: the writes queued
    // after it were made on top of it, one version less each.
    function drop(entry) {
      return remove(entry.id).then(all).then(function (entries) {
        return Promise.all(mine(entries).filter(function (e) { return e.id > entry.id; }).map(function (e) {
          e.version -= 1;
          field(e.fields, "version", String(e.version));
          return put(e);
        }));
      });
    }

    function post(entry) {
      var body = new URLSearchParams();
      entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
      var token = csrf() || entry.csrf;
      body.set("csrfmiddlewaretoken", token);
      return options.fetch(entry.url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { "X-Scorepad-Outbox": "1", "X-CSRFToken": token },
      }).then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (answer) {
          return { status: response.status, answer: answer || {} };
        });
      });
    }

    // One tab at a time sends the outbox.
    function exclusively(work) {
      if (locks && locks.request) return locks.request(LOCK, work);
      return work();
    }

    // One entry sent: true stops the round (everything waits for the next one).
    function sendOne(entry, round, blocked) {
      if (owner(entry) === token) onSending(entry);
      return post(entry).then(function (result) {
        var outcome = result.answer.outcome;
        learn(result.answer.version, owner(entry));
        if (result.status === 200 && (outcome === "saved" || outcome === "already")) {
          markUsed(entry.once);
          round.sent += 1;
          return remove(entry.id).then(function () { return false; });
        }
        if (result.status === 429 || result.status >= 500) return true; // later, the same token
        entry.state = "attention";
        entry.outcome = outcome || (result.status === 404 ? "gone" : "refused");
        entry.problem = result.answer.message || "";
        blocked[owner(entry)] = true;
        return put(entry).then(function () { return false; });
      }, function () {
        round.offline = true;
        return true; // no connection after all
      });
    }

    function send() {
      if (sending || !online()) return Promise.resolve(null);
      sending = true;
      var round = { sent: 0, offline: false, left: [] };
      return exclusively(function () {
        return all().then(function (entries) {
          var blocked = {};
          return entries.reduce(function (chain, entry) {
            return chain.then(function (stop) {
              if (stop || blocked[owner(entry)] || entry.state === "attention") {
                blocked[owner(entry)] = true;
                return stop;
              }
              return sendOne(entry, round, blocked);
            });
          }, Promise.resolve(false));
        });
      }).then(all).then(function (entries) {
        round.left = mine(entries);
        return onRound(round);
      }).then(function () {
        if (round.left.length) retrySoon();
      }).catch(function () {}).then(function () {
        sending = false;
        return round;
      });
    }

    function retrySoon() {
      if (retryTimer) return;
      retryTimer = clock.setTimeout(function () { retryTimer = null; return send(); }, retryMs);
    }

    return {
      all: all,
      mine: mine,
      keep: keep,
      drop: drop,
      send: send,
      markUsed: markUsed,
      usedTokens: usedTokens,
      newToken: newToken,
      knownVersion: knownVersion,
      learn: learn,
    };
  }

  return { create: create, field: field };
});
