/* Table mode (templates/scorepad/tablemode.html): full screen on a tap, and the screen kept
   awake while the page is shown (the Screen Wake Lock API, asked again each time the page
   comes back into view). Where a browser has neither, the button stays hidden and nothing
   is said; the live update is htmx's (the board's .poll), not this script's.

   Loaded as a classic script (window.ScorepadTableMode) and by node for its unit tests
   (tests/js/tablemode.test.js), with the document and the navigator (its wakeLock) passed
   in. It touches the [data-fullscreen] button and the [data-awake] line only. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ScorepadTableMode = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  function create(options) {
    var doc = options.document;
    var navigator = options.navigator || {};
    var lock = null;

    function fullscreen() {
      var button = doc.querySelector("[data-fullscreen]");
      var root = doc.documentElement;
      if (!button || !doc.fullscreenEnabled || !root.requestFullscreen) return;
      function label() {
        button.textContent = doc.fullscreenElement ? button.dataset.leave : button.dataset.enter;
        button.setAttribute("aria-pressed", doc.fullscreenElement ? "true" : "false");
      }
      button.hidden = false;
      label();
      button.addEventListener("click", function () {
        var asked = doc.fullscreenElement ? doc.exitFullscreen() : root.requestFullscreen();
        if (asked && asked.catch) asked.catch(function () {});
        awake(); // a tap is a user's gesture: the moment some browsers grant the lock
      });
      doc.addEventListener("fullscreenchange", label);
    }

    // A promise of whether the screen is kept on now.
    function awake() {
      var said = doc.querySelector("[data-awake]");
      var wakeLock = navigator.wakeLock;
      if (lock || !wakeLock || !wakeLock.request) return Promise.resolve(!!lock);
      if (doc.visibilityState !== "visible") return Promise.resolve(false);
      return wakeLock.request("screen").then(function (sentinel) {
        lock = sentinel;
        if (said) said.textContent = said.dataset.on;
        sentinel.addEventListener("release", function () {
          lock = null;
          if (said) said.textContent = "";
        });
        return true;
      }, function () { return false; }); // refused (battery saver, no permission): the screen sleeps as usual
    }

    function start() {
      fullscreen();
      doc.addEventListener("visibilitychange", awake);
      return awake();
    }

    return { start: start, awake: awake };
  }

  return { create: create };
});

(function () {
  "use strict";
  if (typeof document === "undefined") return;
  var mode = window.ScorepadTableMode.create({ document: document, navigator: navigator });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mode.start);
  else mode.start();
})();
