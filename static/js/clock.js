/* A tournament's round clock and a player's own part (templates/scorepad/_round_clock.html,
 * tournament_player.html).
 *
 * The clock: the server gives the series' end ([data-clock] data-ends) and its own time when
 * the page was made (data-now, read once: this phone's clock may be off); the browser counts
 * down each second from there, asking the server nothing. When it is up it says so (data-up:
 * "the deal in play is the last", or the contract games' warning). The live update swaps the
 * clock with the rest of the tournament's part; the next tick finds the new one.
 *
 * A player's page: its own part (#player-block: the table, the confirmation) is the player's
 * alone, so the stream cannot carry it. When the live part shows another series, or another
 * state of the player's table, than the own part was made for (data-watch), the page asks
 * for itself and swaps the own part in (htmx), once per difference.
 */
(function () {
  "use strict";
  var skew = null; // the server's clock minus this phone's, from the first clock seen

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function shown(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = two(seconds % 60);
    return hours ? hours + ":" + two(minutes) + ":" + rest : minutes + ":" + rest;
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var ends = Date.parse(clock.dataset.ends);
      if (isNaN(ends)) continue;
      if (skew === null) {
        var now = Date.parse(clock.dataset.now);
        skew = isNaN(now) ? 0 : now - Date.now();
      }
      var left = ends - (Date.now() + skew);
      var text = clock.querySelector(".clock-text");
      var up = left <= 0;
      var said = up ? clock.dataset.up : clock.dataset.left + " " + shown(left);
      if (text && text.textContent !== said) text.textContent = said;
      clock.classList.toggle("up", up);
      if (up && clock.getAttribute("role") !== "alert") clock.setAttribute("role", "alert");
    }
  }

  var asked = null; // the live state the own part was last asked for at
  function watch() {
    var own = document.getElementById("player-block");
    var part = document.getElementById("tournament-live");
    if (!own || !part || !window.htmx) return;
    var row = own.dataset.table ? part.querySelector('[data-table="' + own.dataset.table + '"]') : null;
    var now = part.dataset.series + ":" + (row ? row.dataset.state : "");
    if (now === own.dataset.watch || now === asked) return;
    asked = now;
    window.htmx.ajax("GET", window.location.pathname, { target: "#player-block", select: "#player-block", swap: "outerHTML" });
  }

  function start() {
    tick();
    window.setInterval(tick, 1000);
    document.body.addEventListener("htmx:afterSettle", function () { tick(); watch(); });
    document.body.addEventListener("scorepad:swapped", function () { tick(); watch(); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
