/* A result to share (templates/scorepad/_share_result.html): its SVG picture drawn onto a
   canvas as a PNG, handed to the phone's share sheet with the text where the browser can share
   files (HTTPS or localhost), else downloaded; the text copied with the Clipboard API, or
   selected in its field where there is none (plain http on a LAN). Without this script the
   picture downloads as SVG and the text is selected by hand. Nothing here holds a link. */
(function () {
  "use strict";
  var doc = document;

  function png(url) {
    return new Promise(function (resolve, reject) {
      var picture = new Image();
      picture.onload = function () {
        var canvas = doc.createElement("canvas");
        canvas.width = picture.naturalWidth;
        canvas.height = picture.naturalHeight;
        canvas.getContext("2d").drawImage(picture, 0, 0, canvas.width, canvas.height);
        canvas.toBlob(function (blob) { if (blob) resolve(blob); else reject(new Error("no picture")); }, "image/png");
      };
      picture.onerror = function () { reject(new Error("no picture")); };
      picture.src = url;
    });
  }

  function bind(box) {
    if (box.dataset.ready) return; // once, also when htmx brings the sheet in again
    box.dataset.ready = "1";
    var field = box.querySelector("[data-result-text]");
    var copy = box.querySelector("[data-result-copy]");
    var share = box.querySelector("[data-result-share]");
    var download = box.querySelector("[data-result-download]");
    var said = box.querySelector(".copy-done");

    function selectText() {
      field.focus();
      field.select();
      var done;
      try { done = doc.execCommand && doc.execCommand("copy"); } catch (e) { done = false; }
      said.textContent = done ? copy.dataset.done : copy.dataset.selected;
    }
    copy.hidden = false;
    copy.addEventListener("click", function () {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(function () { said.textContent = copy.dataset.done; }, selectText);
      } else {
        selectText();
      }
    });

    png(download.getAttribute("href")).then(function (blob) {
      download.href = URL.createObjectURL(blob);
      download.download = download.dataset.png;
      var file = new File([blob], download.dataset.png, { type: "image/png" });
      if (navigator.share && navigator.canShare && navigator.canShare({ files: [file] })) {
        share.hidden = false;
        share.addEventListener("click", function () {
          navigator.share({ files: [file], title: box.dataset.title, text: field.value }).catch(function () {});
        });
      }
    }, function () {}); // no PNG: the SVG downloads as it is
  }

  function bindAll(root) {
    var scope = root && root.querySelectorAll ? root : doc;
    if (scope.matches && scope.matches("[data-share-result]")) bind(scope);
    Array.prototype.forEach.call(scope.querySelectorAll("[data-share-result]"), bind);
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", function () { bindAll(); });
  else bindAll();
  // The sheet comes in again with htmx (the live update): bind the box that comes with it.
  doc.addEventListener("htmx:load", function (event) { bindAll(event.target); });
})();
