/* The screen kept awake at the table (the Screen Wake Lock API).

   Its design: the toggle [data-wake] (templates/scorepad/game.html) is hidden until this
   browser can hold the screen; then it shows, set from the player's choice kept in
   localStorage ("scorepad-wake": "off" or "on", on when never chosen). While it is on and the
   page is visible the screen is held; the browser releases the lock when the page is hidden,
   and it is asked again when the page is visible. Turned off, the lock is released at once.
   It touches the toggle and its label, nothing else.

   Loaded as a classic script (window.ScorepadWake) and by node for the unit tests (tests/js/),
   with the document, the browser's wakeLock and the storage passed in. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ScorepadWake = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var KEY = "scorepad-wake";

  // Options: document, wakeLock (navigator.wakeLock), storage (localStorage or null).
  // Returns null where there is no toggle or no wake lock; else {held(), hold()}.
  function create(options) {
    var doc = options.document;
    var wakeLock = options.wakeLock;
    var storage = options.storage;
    var toggle = doc.querySelector("[data-wake]");
    if (!toggle || !wakeLock || !wakeLock.request) return null;
    var lock = null;

    function kept(value) {
      try {
        if (value === undefined) return storage ? storage.getItem(KEY) : null;
        if (storage) storage.setItem(KEY, value);
      } catch (e) { /* private mode: nothing kept */ }
      return null;
    }

    function hold() {
      if (!toggle.checked || lock || doc.visibilityState !== "visible") return Promise.resolve(null);
      return wakeLock.request("screen").then(function (sentinel) {
        lock = sentinel;
        sentinel.addEventListener("release", function () { lock = null; });
        return sentinel;
      }).catch(function () { lock = null; return null; });
    }

    toggle.closest("label").hidden = false;
    toggle.checked = kept() !== "off";
    toggle.addEventListener("change", function () {
      kept(toggle.checked ? "on" : "off");
      if (toggle.checked) hold();
      else if (lock) { lock.release().catch(function () {}); lock = null; }
    });
    doc.addEventListener("visibilitychange", hold);
    hold();
    return { held: function () { return lock; }, hold: hold };
  }

  return { create: create };
});
