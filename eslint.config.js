// The JavaScript's lint (python3 manage.py runtests runs it): eslint's recommended rules,
// with the browser's globals for static/js and node's for the unit tests and this file.
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  { ignores: ["**/node_modules/", "staticfiles/", ".venv/"] },
  js.configs.recommended,
  // `catch (e) {}` without using e is how these scripts say "nothing to do".
  { rules: { "no-unused-vars": ["error", { caughtErrors: "none" }] } },
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: "script",
      globals: { ...globals.browser },
    },
  },
  {
    files: ["static/js/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Loaded by the browser and, for its tests, by node (module.exports).
    files: [
      "static/js/outbox.js", "static/js/live.js", "static/js/cards.js", "static/js/messages.js",
      "static/js/offline-form.js", "static/js/outbox-page.js", "static/js/scroll.js", "static/js/wake.js",
      "static/js/tablemode.js",
    ],
    languageOptions: { globals: { module: "readonly" } },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "commonjs", globals: { ...globals.node } },
  },
];
