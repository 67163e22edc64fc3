/* Table mode (templates/scorepad/tablemode.html): full screen on a tap, and the screen kept
   awake while the page is shown (the Screen Wake Lock API, asked again each time the page
   comes back into view). Where a browser has neither, the button stays hidden and nothing
   is said; the live update is htmx's (the board's .poll), not this script's. */
(function () {
  "use strict";
  var doc = document;

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

  var lock = null;
  function awake() {
    var said = doc.querySelector("[data-awake]");
    if (lock || !navigator.wakeLock || !navigator.wakeLock.request) return;
    if (doc.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      if (said) said.textContent = said.dataset.on;
      sentinel.addEventListener("release", function () {
        lock = null;
        if (said) said.textContent = "";
      });
    }, function () {}); // refused (battery saver, no permission): the screen sleeps as usual
  }

  function start() {
    fullscreen();
    awake();
    doc.addEventListener("visibilitychange", awake);
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", start);
  else start();
})();
