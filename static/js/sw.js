/* The service worker, served at /sw.js with self.SCOREPAD set above: continental/app.py. */
"use strict";

var CONFIG = self.SCOREPAD;
var STATIC = "scorepad-static";
var PAGES = "scorepad-pages";
var MAX_PAGES = 80;
var MAX_STATIC = 120;
var PATIENCE = 6000; // ms before a silent server counts as no connection

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC).then(function (cache) { return cache.addAll(CONFIG.shell); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(trim(STATIC, MAX_STATIC).then(function () { return self.clients.claim(); }));
});

function trim(name, max) {
  return caches.open(name).then(function (cache) {
    return cache.keys().then(function (keys) {
      var extra = keys.length - max;
      return Promise.all(keys.slice(0, Math.max(0, extra)).map(function (key) {
        return cache.delete(key);
      }));
    });
  });
}

function pageKey(request) {
  var url = new URL(request.url);
  url.hash = "";
  if (request.headers.get("HX-Request") === "true") url.searchParams.set("_partial", "1");
  return url.toString();
}

function isPage(request, url) {
  if (request.method !== "GET" || url.origin !== self.location.origin) return false;
  if (url.pathname.indexOf(CONFIG.static) === 0) return false;
  if (/^\/(api|sw\.js|manifest\.webmanifest)/.test(url.pathname)) return false;
  if (/\/(version|export\.json|export\.csv)$/.test(url.pathname)) return false;
  // The parts htmx asks for: a game's sheet and its forms; an evening's and a circle's part.
  if (request.headers.get("HX-Request") === "true") {
    return (/\/games\/[A-Za-z0-9_-]{20,64}\/(deals\/(new|\d+\/edit|\d+\/delete)\/)?$/.test(url.pathname) ||
      /\/(evenings|circles)\/[A-Za-z0-9_-]{20,64}\/$/.test(url.pathname)) && !url.search;
  }
  return request.mode === "navigate";
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method === "GET" && url.origin === self.location.origin && url.pathname.indexOf(CONFIG.static) === 0) {
    event.respondWith(fromCacheFirst(request));
  } else if (isPage(request, url)) {
    event.respondWith(fromNetworkFirst(event, request));
  }
});

function fromCacheFirst(request) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(request).then(function (found) {
      return found || fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
    });
  });
}

function keepOfflinePage(request) {
  var lang = (new URL(request.url).pathname.match(/^\/([a-z]{2})\//) || [])[1];
  var page = CONFIG.offline[lang];
  if (!page) return Promise.resolve();
  var url = new URL(page, self.location.origin).toString();
  return caches.open(PAGES).then(function (cache) {
    return cache.match(url).then(function (found) {
      return found || cache.add(url).catch(function () {});
    });
  });
}

function fromNetworkFirst(event, request) {
  var key = pageKey(request);
  var network = fetch(request).then(function (response) {
    // Only plain answers: not a form with errors, a conflict or a redirect.
    if (response.status === 200 && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      event.waitUntil(keep(key, copy).then(function () {
        return request.mode === "navigate" ? keepOfflinePage(request) : null;
      }));
    }
    return response;
  });
  var patience = new Promise(function (resolve) { setTimeout(resolve, PATIENCE); });
  return Promise.race([network, patience.then(function () { return null; })])
    .catch(function () { return null; })
    .then(function (response) {
      if (response) return response;
      return copyOf(request, key).then(function (copy) {
        return copy || network.catch(function () { return offlinePage(request); });
      });
    });
}

function keep(key, response) {
  return response.text().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set("X-Kept-At", new Date().toISOString());
    return caches.open(PAGES).then(function (cache) {
      return cache.put(key, new Response(body, { status: 200, headers: headers }))
        .then(function () { return trim(PAGES, MAX_PAGES); });
    });
  });
}

/* The kept copy, marked: data-offline-copy on a page, X-Offline-Copy on a partial. */
function copyOf(request, key) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(key).then(function (found) {
      if (found || request.mode !== "navigate") return found;
      var game = new URL(request.url).pathname.match(/^\/[a-z]{2}\/games\/[A-Za-z0-9_-]{20,64}\//);
      return game ? cache.match(new URL(game[0], request.url).toString()) : null;
    });
  }).then(function (found) {
    if (!found) return null;
    var keptAt = found.headers.get("X-Kept-At") || "";
    return found.text().then(function (body) {
      var headers = new Headers(found.headers);
      headers.set("X-Offline-Copy", keptAt || "1");
      if (request.mode === "navigate") {
        body = body.replace(/<html\b/i, '<html data-offline-copy="' + keptAt.replace(/[^0-9TZ:.-]/g, "") + '"');
      }
      return new Response(body, { status: 200, headers: headers });
    });
  });
}

function offlinePage(request) {
  var lang = (new URL(request.url).pathname.match(/^\/([a-z]{2})\//) || [])[1];
  var page = CONFIG.offline[lang] || CONFIG.offline.en;
  return caches.open(PAGES).then(function (cache) {
    return cache.match(new URL(page, self.location.origin).toString());
  }).then(function (found) {
    if (!found || request.mode !== "navigate") return Response.error();
    return found.text().then(function (body) {
      return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
  });
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "keep-page" && typeof data.url === "string" && typeof data.html === "string") {
    var url = new URL(data.url, self.location.origin);
    if (url.origin !== self.location.origin) return;
    var response = new Response(data.html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    event.waitUntil(keep(url.toString(), response));
  } else if (data.type === "kept-games") {
    event.waitUntil(keptGames().then(function (games) {
      event.source.postMessage({ type: "kept-games", games: games });
    }));
  }
});

function keptGames() {
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return /^\/[a-z]{2}\/games\/[A-Za-z0-9_-]{20,64}\/$/.test(new URL(key.url).pathname);
      }).map(function (key) {
        return cache.match(key).then(function (found) {
          return found.text().then(function (body) {
            var title = (body.match(/<title>([^<]*)<\/title>/) || [])[1] || key.url;
            return { url: new URL(key.url).pathname, title: title, keptAt: found.headers.get("X-Kept-At") };
          });
        });
      }));
    });
  });
}
