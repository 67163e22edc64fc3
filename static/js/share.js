/* The Share page and the hand checker: copy a link, or hand it to the phone's share sheet. Without this
   script the buttons stay hidden and the links and QR codes do the job. */
(function () {
  "use strict";
  var doc = document;

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var field = doc.createElement("textarea"); // plain http on a LAN: the older way
    field.value = text;
    field.setAttribute("readonly", "");
    field.className = "visually-hidden";
    doc.body.appendChild(field);
    field.select();
    var done = doc.execCommand && doc.execCommand("copy");
    field.remove();
    return done ? Promise.resolve() : Promise.reject(new Error("no copy"));
  }

  function shareButtons(root) {
    var boxes = root && root.matches ? (root.matches(".share-actions") ? [root] : root.querySelectorAll(".share-actions"))
      : doc.querySelectorAll(".share-actions");
    Array.prototype.forEach.call(boxes, function (box) {
      if (box.dataset.ready) return; // bound once, also when htmx brings it in again
      box.dataset.ready = "1";
      var copy = box.querySelector("[data-copy]");
      var share = box.querySelector("[data-share]");
      var said = box.querySelector(".copy-done");
      box.hidden = false;
      copy.addEventListener("click", function () {
        copyText(copy.dataset.copy).then(function () { said.textContent = copy.dataset.done; }, function () {});
      });
      if (navigator.share) {
        share.hidden = false;
        share.addEventListener("click", function () {
          navigator.share({ title: share.dataset.title, url: share.dataset.share }).catch(function () {});
        });
      }
    });
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", function () { shareButtons(); });
  else shareButtons();
  // The hand checker swaps its answer in with htmx: bind the buttons that come with it.
  doc.addEventListener("htmx:load", function (event) { shareButtons(event.target); });
})();
