#!/usr/bin/env python3
"""The soak drill (docs/RELIABILITY.md, "Soak").

Starts a release `deckmate-server` on the memory store with short-lived games, measures the
peak of a closed-loop `deckmate-load play` run, then plays open loop at half of that peak for
DURATION while sampling the server's resident memory. It passes when the load generator saw no
unexpected error and the resident memory's slope over the last half of the run, fitted by least
squares, is at most --max-slope percent of its mean per 10 minutes.

    scripts/soak.py 1h                         # the documented hour (games live 2 minutes)
    scripts/soak.py 150s --game-ttl 30s --peak-time 10s --max-slope 200   # the CI version

The binaries come from target/release (or --bin-dir); build them with
`cargo build --release -p deckmate-server -p deckmate-load`. The last line printed is the
result, for example:
    soak=1h rate=2400/s calls=8640000 unexpected_errors=0 rss_mb=41.2 slope=+0.31%/10min heap_mb=12.5 heap_slope=+0.02%/10min PASS

Beside the resident memory it samples the server's heap gauges (`deckmate_heap_allocated_bytes`
from its metrics listener): memory the program holds, apart from what the allocator keeps free.
A resident slope with a flat heap is the allocator's, not a leak; only the resident slope is
judged.
"""  # noqa: E501 (the example is the result line as printed, on one line)

from __future__ import annotations

import argparse
import json
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DURATION = re.compile(r"^(\d+)(s|m|h)$")
UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600}
HEAP_ALLOCATED = "deckmate_heap_allocated_bytes"
GAMES_LIVE = "deckmate_games_live"


def seconds(text: str) -> int:
    """`90s`, `3m` or `1h` in seconds."""
    match = DURATION.match(text)
    if match is None:
        raise argparse.ArgumentTypeError(f"not a duration like 90s, 3m or 1h: {text!r}")
    return int(match.group(1)) * UNIT_SECONDS[match.group(2)]


def free_port() -> int:
    """Return a TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def rss_kib(pid: int) -> int | None:
    """Return the resident memory of `pid` in KiB, or None once it has exited."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


def gauges(metrics_port: int, names: tuple[str, ...]) -> dict[str, float]:
    """Return the values of the unlabelled gauges `names` on the server's metrics page.

    Only those it has; empty when the metrics listener does not answer.
    """
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as page:
            text = page.read().decode()
    except OSError:
        return {}
    found: dict[str, float] = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in names:
            found[name] = float(value)
    return found


def wait_listening(port: int, server: subprocess.Popen[bytes], timeout_s: float = 30) -> None:
    """Wait until the server accepts connections on `port`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"soak: the server exited at start (status {server.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    sys.exit("soak: the server did not start listening")


def slope_percent_per_10min(samples: list[tuple[float, int]]) -> tuple[float, float]:
    """Return the least-squares slope of `samples` (seconds, KiB) and their mean in KiB.

    The slope is a percentage of their mean per 10 minutes.
    """
    n = len(samples)
    mean_t = sum(t for t, _ in samples) / n
    mean_v = sum(v for _, v in samples) / n
    var_t = sum((t - mean_t) ** 2 for t, _ in samples)
    if var_t == 0 or mean_v == 0:
        return 0.0, mean_v
    slope = sum((t - mean_t) * (v - mean_v) for t, v in samples) / var_t
    return slope * 600 / mean_v * 100, mean_v


def load(bin_dir: Path, port: int, args: list[str]) -> tuple[int, dict[str, object]]:
    """Run `deckmate-load play` with `args`; return its exit status and JSON report."""
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        command = [
            str(bin_dir / "deckmate-load"),
            "play",
            "--target",
            f"http://127.0.0.1:{port}",
            "--quiet",
            "--json-file",
            report.name,
            *args,
        ]
        status = subprocess.run(command, stdout=subprocess.DEVNULL, check=False).returncode
        try:
            parsed: dict[str, object] = json.loads(Path(report.name).read_text())
        except (OSError, ValueError):
            sys.exit(f"soak: deckmate-load wrote no report (status {status})")
        return status, parsed


def main() -> int:
    """Run the soak; return 0 when it passed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("duration", type=seconds, help="soak time at half the peak (90s, 3m, 1h)")
    parser.add_argument("--game-ttl", default="2m", help="the server's --game-ttl (default 2m)")
    parser.add_argument("--peak-time", default="30s", help="closed-loop run measuring the peak")
    parser.add_argument(
        "--sample-every",
        type=float,
        default=None,
        help="seconds between memory samples (default: duration / 120, 1-60)",
    )
    parser.add_argument(
        "--max-slope",
        type=float,
        default=1.0,
        help="largest memory slope, percent per 10 minutes (default 1)",
    )
    parser.add_argument("--bin-dir", type=Path, default=ROOT / "target" / "release")
    parser.add_argument(
        "--rss-log",
        type=Path,
        default=None,
        help="write the samples here (seconds, RSS KiB, heap KiB, live games)",
    )
    parser.add_argument(
        "--server-log",
        type=Path,
        default=None,
        help="write the server's log here (default: discarded)",
    )
    options = parser.parse_args()
    duration: int = options.duration
    every = options.sample_every or min(60.0, max(1.0, duration / 120))

    port = free_port()
    metrics_port = free_port()
    server_log = (
        options.server_log.open("wb") if options.server_log is not None else subprocess.DEVNULL
    )
    server = subprocess.Popen(
        [
            str(options.bin_dir / "deckmate-server"),
            "--listen",
            f"127.0.0.1:{port}",
            "--game-ttl",
            options.game_ttl,
            "--create-rate",
            "off",
            "--max-games-per-client",
            "1000000",
            "--metrics-listen",
            f"127.0.0.1:{metrics_port}",
            # Connections outlive the run: an aged connection's GOAWAY fails the calls racing
            # it with UNAVAILABLE (clients retry them; the load generator counts every failure
            # and never retries), which is not what the soak looks for.
            "--max-connection-age",
            f"{2 * duration + 600}s",
        ],
        stdout=subprocess.DEVNULL,
        stderr=server_log,
    )
    try:
        wait_listening(port, server)
        status, peak_report = load(
            options.bin_dir, port, ["--duration", options.peak_time, "--baseline-duration", "0s"]
        )
        result = peak_report["result"]
        assert isinstance(result, dict)
        peak = float(result["calls_per_s"])
        if status != 0 or peak <= 0:
            print(f"soak: the peak run failed (status {status})", file=sys.stderr)
            return 1
        rate = max(1, int(peak / 2))
        print(f"soak: peak {peak:.0f} calls/s closed loop; {duration}s at {rate}/s", flush=True)

        samples: list[tuple[float, int]] = []
        heap_samples: list[tuple[float, int]] = []
        games_live: dict[float, int] = {}
        started = time.monotonic()
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                at = time.monotonic() - started
                kib = rss_kib(server.pid)
                if kib is not None:
                    samples.append((at, kib))
                read = gauges(metrics_port, (HEAP_ALLOCATED, GAMES_LIVE))
                if HEAP_ALLOCATED in read:
                    heap_samples.append((at, int(read[HEAP_ALLOCATED] / 1024)))
                if GAMES_LIVE in read:
                    games_live[at] = int(read[GAMES_LIVE])
                done.wait(every)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        status, soak_report = load(
            options.bin_dir,
            port,
            [
                "--duration",
                f"{duration}s",
                "--baseline-duration",
                "0s",
                "--rate",
                f"{rate}/s",
                "--in-flight",
                "256",
                "--server-pid",
                str(server.pid),
            ],
        )
        done.set()
        sampler.join()
    finally:
        server.terminate()
        server.wait(timeout=60)

    if options.rss_log is not None:
        heap_at = dict(heap_samples)
        options.rss_log.write_text(
            "".join(
                f"{t:.1f} {kib} {heap_at.get(t, '-')} {games_live.get(t, '-')}\n"
                for t, kib in samples
            )
        )
    result = soak_report["result"]
    assert isinstance(result, dict)
    measured = float(result.get("measured_s", 0))
    if status != 0 or measured < duration * 0.99:
        print(
            f"soak: the open-loop run failed (status {status}, {measured:.0f} s of {duration} s"
            f" measured; server exit status {server.returncode}); errors: "
            f"{json.dumps(result.get('errors', []))}",
            file=sys.stderr,
        )
        return 1
    last_half = [(t, kib) for t, kib in samples if t >= duration / 2]
    if len(last_half) < 3:
        print("soak: too few memory samples", file=sys.stderr)
        return 1
    slope, mean_kib = slope_percent_per_10min(last_half)
    heap_half = [(t, kib) for t, kib in heap_samples if t >= duration / 2]
    heap = "heap_mb=? heap_slope=?"
    if len(heap_half) >= 3:
        heap_slope, heap_mean = slope_percent_per_10min(heap_half)
        heap = f"heap_mb={heap_mean / 1024:.1f} heap_slope={heap_slope:+.2f}%/10min"
    errors = result.get("unexpected_errors", "?")
    passed = status == 0 and slope <= options.max_slope
    label = next(
        t
        for t in (f"{duration // 3600}h", f"{duration // 60}m", f"{duration}s")
        if int(t[:-1]) * UNIT_SECONDS[t[-1]] == duration
    )
    print(
        f"soak={label} rate={rate}/s calls={result.get('calls', '?')} "
        f"unexpected_errors={errors} rss_mb={mean_kib / 1024:.1f} "
        f"slope={slope:+.2f}%/10min {heap} {'PASS' if passed else 'FAIL'}"
    )
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
