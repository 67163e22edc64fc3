"""Weigh the first load of a game page: the page and every static file it makes a browser fetch.

    .venv/bin/python bench/page_weight.py

Production settings, as bench/load.py sets them up: collectstatic into a temporary
STATIC_ROOT (manifest names, gzip copies made by whitenoise), a temporary SQLite database,
a classic game of 6 players and 20 deals, gunicorn on a free loopback port. It fetches the
game page as a new visitor (no cookies) through the viewer link and through the editor link,
and its table mode, then every resource a page references (stylesheets, scripts, icons, images; and what the
stylesheets reference in turn), all with ``Accept-Encoding: gzip``. It prints each resource's
size as sent (and unpacked), the total against the 60 KB of docs/architecture.md#quality-bars, whether anything points to
another host, and whether any web font is loaded. Figures only: nothing is asserted.

The installable app's share of the first load is counted too: the service worker
(``/sw.js``), what it keeps when it installs (the files of its ``shell`` that the page did
not load already), the offline page of the page's language that it keeps after the first
page, and the largest icon the manifest names for any use (a browser fetches one to check that the
app can be installed; the maskable one only when it is installed).
"""

from __future__ import annotations

import gzip
import http.client
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load

BUDGET = 60 * 1024
# <link rel=...> values a browser fetches on load.
LOADED_RELS = {
    "stylesheet",
    "icon",
    "shortcut",
    "apple-touch-icon",
    "preload",
    "modulepreload",
    "manifest",
    "prefetch",
}
CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)|@import\s+(['"])([^'"]+)\3""")
FONT_EXTENSIONS = (".woff", ".woff2", ".ttf", ".otf", ".eot")


class References(HTMLParser):
    """What a page makes the browser fetch, and every absolute URL anywhere in it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.resources: list[tuple[str, str]] = []  # (what, url)
        self.links: list[str] = []  # every URL-valued attribute (links, forms, ...)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "link" and a.get("href"):
            rels = set(a.get("rel", "").lower().split())
            if rels & LOADED_RELS:
                self.resources.append((f"link {' '.join(sorted(rels))}", a["href"]))
        elif tag in ("script", "img", "iframe", "audio", "video", "source", "embed") and a.get(
            "src"
        ):
            self.resources.append((tag, a["src"]))
        elif tag == "input" and a.get("type") == "image" and a.get("src"):
            self.resources.append(("input image", a["src"]))
        for key in ("srcset", "imagesrcset"):
            for part in a.get(key, "").split(","):
                if part.strip():
                    self.resources.append((f"{tag} {key}", part.split()[0]))
        for key in ("href", "src", "action", "formaction", "poster", "data", "hx-get", "hx-post"):
            if a.get(key):
                self.links.append(a[key])


@dataclass
class Fetched:
    what: str
    url: str
    status: int
    sent: int  # bytes of the body as sent
    size: int  # bytes unpacked
    encoding: str
    content_type: str
    cache: str


def fetch(port: int, path: str) -> tuple[http.client.HTTPResponse, bytes]:
    conn = http.client.HTTPConnection(load.HOST, port, timeout=15)
    try:
        conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = conn.getresponse()
        return response, response.read()
    finally:
        conn.close()


def unpack(body: bytes, encoding: str) -> bytes:
    return gzip.decompress(body) if encoding == "gzip" else body


def weigh(port: int, label: str, page: str) -> None:
    origin = f"http://{load.HOST}:{port}"
    base = origin + page
    response, body = fetch(port, page)
    encoding = response.getheader("Content-Encoding", "") or ""
    html = unpack(body, encoding)
    parser = References()
    parser.feed(html.decode("utf-8", errors="replace"))
    fetched = [
        Fetched(
            "page",
            page,
            response.status,
            len(body),
            len(html),
            encoding,
            response.getheader("Content-Type", ""),
            response.getheader("Cache-Control", "") or "",
        )
    ]
    html_gzipped = len(gzip.compress(html, 9)) if not encoding else len(body)

    external: list[str] = []
    fonts: list[str] = []
    queue = [(what, urljoin(base, ref)) for what, ref in parser.resources]
    seen: set[str] = set()
    while queue and len(seen) < 100:  # bounded: a page of this app references a handful
        what, url = queue.pop(0)
        if url.startswith("data:") or url in seen:
            continue
        seen.add(url)
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or parts.netloc != urlsplit(origin).netloc:
            external.append(f"{what}: {url}")
            continue
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        response, body = fetch(port, path)
        encoding = response.getheader("Content-Encoding", "") or ""
        content = unpack(body, encoding)
        content_type = response.getheader("Content-Type", "") or ""
        item = Fetched(
            what,
            path,
            response.status,
            len(body),
            len(content),
            encoding,
            content_type,
            response.getheader("Cache-Control", "") or "",
        )
        fetched.append(item)
        if "font" in content_type or parts.path.lower().endswith(FONT_EXTENSIONS):
            fonts.append(path)
        if "css" in content_type:
            text = content.decode("utf-8", errors="replace")
            if "@font-face" in text:
                fonts.append(f"@font-face in {path}")
            for match in CSS_URL.finditer(text):
                ref = match.group(2) or match.group(4)
                queue.append((f"url() in {parts.path.rsplit('/', 1)[-1]}", urljoin(url, ref)))

    # The installable app: the worker, what it keeps on install and after the first page.
    worker_response, worker_body = fetch(port, "/sw.js")
    worker = unpack(worker_body, worker_response.getheader("Content-Encoding", "") or "")
    config = json.loads(re.match(rb"self\.SCOREPAD = (\{.*?\});\n", worker).group(1))
    lang = page.split("/")[1]
    extra = [("service worker", "/sw.js")]
    extra += [("worker keeps", url) for url in config["shell"]]
    extra += [("worker keeps", config["offline"][lang])]
    manifest_item = next((item for item in fetched if item.what == "link manifest"), None)
    if manifest_item is not None:
        response, manifest_body = fetch(port, manifest_item.url)
        manifest = unpack(manifest_body, response.getheader("Content-Encoding", "") or "")
        icons = [
            icon
            for icon in json.loads(manifest).get("icons", [])
            if icon.get("purpose", "any") == "any" and icon["sizes"] != "any"
        ]
        largest = max(icons, key=lambda icon: int(icon["sizes"].split("x")[0]))
        extra.append(("manifest icon", largest["src"]))
    loaded = {item.url for item in fetched}
    for what, path in extra:
        if path in loaded:
            continue
        loaded.add(path)
        response, body = fetch(port, path)
        encoding = response.getheader("Content-Encoding", "") or ""
        fetched.append(
            Fetched(
                what,
                path,
                response.status,
                len(body),
                len(unpack(body, encoding)),
                encoding,
                response.getheader("Content-Type", "") or "",
                response.getheader("Cache-Control", "") or "",
            )
        )

    other_links = sorted(
        {
            link
            for link in parser.links
            if urlsplit(urljoin(base, link)).netloc not in ("", urlsplit(origin).netloc)
        }
    )

    print(f"\n== game page, first load as a new visitor through the {label} ==")
    print(f"  {'resource':63} {'status':>6} {'sent B':>8} {'unpacked B':>11}  encoding  cache")
    for item in fetched:
        name = item.url if len(item.url) <= 46 else "..." + item.url[-43:]
        print(
            f"  {item.what[:16]:16} {name:46} {item.status:6d} {item.sent:8,d} {item.size:11,d}"
            f"  {item.encoding or 'none':8}  {item.cache or '-'}"
        )
    sent = sum(item.sent for item in fetched)
    unpacked = sum(item.size for item in fetched)
    with_html_gzip = sent - fetched[0].sent + html_gzipped
    print(
        f"  total as sent: {sent:,d} B ({sent / 1024:.1f} KiB) in {len(fetched)} requests;"
        f" unpacked {unpacked:,d} B; budget {BUDGET:,d} B (60 KiB):"
        f" {'within' if sent <= BUDGET else 'OVER'}"
    )
    if not fetched[0].encoding:
        print(
            f"  the HTML is sent uncompressed ({fetched[0].sent:,d} B; gzip -9 would make it"
            f" {html_gzipped:,d} B): total with a compressing proxy {with_html_gzip:,d} B"
            f" ({with_html_gzip / 1024:.1f} KiB)"
        )
    print(f"  resources on another host: {', '.join(external) if external else 'none'}")
    print(f"  other attributes pointing to another host: {', '.join(other_links) or 'none'}")
    print(f"  web fonts: {', '.join(fonts) if fonts else 'none'}")
    print(f"  Content-Security-Policy: {response_csp(port, page)}")


def response_csp(port: int, page: str) -> str:
    response, _ = fetch(port, page)
    return response.getheader("Content-Security-Policy", "(none)") or "(none)"


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="scorepad-weight-"))
    try:
        env = load.bench_env(tmp / "data", tmp / "static")
        load.prepare(env)  # collectstatic (manifest + gzip copies), migrate, cache table
        game = load.make_game(env, players=6, deals=20)
        print(
            f"game of {game['players']} players and {game['deals']} deals;"
            f" static files collected into {tmp / 'static'}"
        )
        with load.Gunicorn(env, 1, tmp / "gunicorn.log") as server:
            weigh(server.port, "viewer link", game["page"])
            weigh(server.port, "editor link", game["editor_page"])
            weigh(server.port, "table mode", game["page"] + "table/")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
