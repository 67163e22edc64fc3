/* The card grid (templates/cards/grid.html): its buttons type card tokens into a text input.
   Without this script the grid stays hidden and the text input alone works. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function tokens(input) {
    var text = input.value.trim();
    return text ? text.split(/[\s,;]+/) : [];
  }

  function count(grid, input) {
    var out = grid.querySelector("[data-card-count]");
    if (out) out.textContent = String(tokens(input).length);
  }

  document.addEventListener("click", function (event) {
    var key = event.target.closest("[data-card], [data-card-action]");
    var grid = key && key.closest(".card-grid");
    var input = grid && document.getElementById(grid.dataset.target);
    if (!input) return;
    var list = tokens(input);
    if (key.dataset.card) list.push(key.dataset.card);
    else if (key.dataset.cardAction === "back") list.pop();
    else if (key.dataset.cardAction === "clear") list = [];
    input.value = list.join(" ");
    count(grid, input);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.id) return;
    document.querySelectorAll('.card-grid[data-target="' + input.id + '"]').forEach(function (grid) {
      count(grid, input);
    });
  });

  function refresh(root) {
    root.querySelectorAll(".card-grid").forEach(function (grid) {
      var input = document.getElementById(grid.dataset.target);
      if (input) count(grid, input);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { refresh(document); });
  document.addEventListener("htmx:load", function (event) { refresh(event.target); });
})();
