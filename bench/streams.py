"""What an idle live stream costs: open N streams to one stream process and print how fast
they opened, its memory per stream and its CPU while they sit idle.

    .venv/bin/python bench/streams.py --streams 2000 --idle 20

A fresh SQLite database in a temporary DATA_DIR, one game, ``python -m continental.liveserver``
as ``manage.py serve`` runs it. The clients (asyncio, one connection per stream) open the
streams as fast as the process takes them (at most 200 at a time, as a reconnect storm
would come), then hold them for ``--idle`` seconds. Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
MAKE_GAME = """
from tests.factories import GameFactory
print("GAME", GameFactory().viewer_token)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def hold(path: str, port: int, opened: list, gate: asyncio.Semaphore, stop: asyncio.Event):
    async with gate:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
        await writer.drain()
        status = await reader.readline()
        while b"data:" not in await reader.readline():
            pass
        opened.append(b" 200 " in status)
    await stop.wait()
    writer.close()


async def run(args, port: int, token: str, pid: int) -> None:
    stop = asyncio.Event()
    opened: list[bool] = []
    gate = asyncio.Semaphore(200)
    base_rss = rss_mb(pid)
    t0 = time.monotonic()
    tasks = [
        asyncio.ensure_future(hold(f"/live/games/{token}", port, opened, gate, stop))
        for _ in range(args.streams)
    ]
    while len(opened) < args.streams and time.monotonic() - t0 < 120:
        await asyncio.sleep(0.05)
    took = time.monotonic() - t0
    held_rss = rss_mb(pid)
    cpu0, w0 = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(args.idle)
    idle_cpu = (cpu_seconds(pid) - cpu0) / (time.monotonic() - w0)
    ok = sum(opened)
    print(
        f"  {ok} of {args.streams} streams opened in {took:.2f} s ({ok / took:.0f} a second);"
        f" memory {base_rss:.0f} MB -> {held_rss:.0f} MB"
        f" ({(held_rss - base_rss) * 1024 / max(ok, 1):.1f} KB a stream);"
        f" idle for {args.idle:.0f} s: {idle_cpu * 100:.1f} % of a core"
    )
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--idle", type=float, default=20.0)
    args = parser.parse_args(argv)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="streams-") as folder:
        env = {
            **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
            "DATA_DIR": folder,
            "SECRET_KEY": "bench-only",
            "LIVE_STREAMS": "true",
            "LIVE_PER_ADDRESS": str(args.streams + 10),
        }
        python = str(ROOT / ".venv/bin/python")
        subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        out = subprocess.run(
            [python, "manage.py", "shell", "-c", MAKE_GAME],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        token = next(line for line in out.splitlines() if line.startswith("GAME")).split()[1]
        port = free_port()
        process = subprocess.Popen(
            [
                python,
                "-m",
                "continental.liveserver",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        try:
            for _ in range(150):
                try:
                    socket.create_connection((HOST, port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.2)
            print(
                f"bench/streams.py: continental.liveserver (uvicorn's h11), {os.cpu_count()} CPUs,"
                f" load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
            )
            asyncio.run(run(args, port, token, process.pid))
        finally:
            process.terminate()
            process.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
