/* The sheet's scroll: the newest deal in view, the player's sideways scroll kept.

   Its design: the sheet scrolls inside .sheet-scroll (many players: sideways; many deals:
   down). When htmx swaps in a new sheet (after a save, the live poll's answer) or the live
   stream swaps in the one it carried ("scorepad:pushed", static/js/live.js), the new sheet
   stays where the player had scrolled it sideways, and shows its newest deal at the bottom;
   on load too. It reads and sets the scroll of .sheet-scroll and nothing else.

   Loaded as a classic script (window.ScorepadScroll) and by node for the unit tests
   (tests/js/), with the document passed in. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ScorepadScroll = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var BOX = ".sheet-scroll";

  // Options: document. Listens on its body; returns {newestInView}.
  function create(options) {
    var doc = options.document;
    var sheetAt = null;

    function newestInView() {
      var box = doc.querySelector(BOX);
      if (box) box.scrollTop = box.scrollHeight;
    }

    function remember() {
      var box = doc.querySelector(BOX);
      sheetAt = box && box.scrollLeft;
    }

    doc.body.addEventListener("htmx:beforeSwap", remember);
    doc.body.addEventListener("scorepad:pushed", remember);
    doc.body.addEventListener("htmx:afterSwap", function () {
      var box = doc.querySelector(BOX);
      if (box && sheetAt !== null) box.scrollLeft = sheetAt;
      newestInView();
      sheetAt = null;
    });
    newestInView();
    return { newestInView: newestInView };
  }

  return { create: create };
});
