#!/usr/bin/env python3
"""Measures the unit costs of docs/SCALING.md: server CPU, Redis CPU and Redis bytes per Act,
and Redis memory per live game, on one Redis server and on a Redis Cluster (with and without
replica acknowledgement), each behind two server replicas that the load generator's players
and watchers cross.

Everything runs on this machine, on private ports: a Redis server on 6390, a cluster on
7401-7406 (scripts/redis-cluster.sh), server replicas on 50161 and 50162. Needs the release
binaries (`cargo build --release -p deckmate-server -p deckmate-load`), redis-server and
redis-cli.

    scripts/measure-scaling.py [--duration 20s] [--json-file target/scaling.json]

Prints one table row per configuration and writes every figure as JSON.
"""  # noqa: D205 (its first paragraph is the --help description)

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SINGLE_PORT = 6390
CLUSTER_PORT = 7401
SERVER_PORTS = (50161, 50162)
# Games whose keys are weighed for the memory figure.
MEMORY_SAMPLE = 300


@dataclass
class Measured:
    """The figures of one configuration."""

    name: str
    actions: int
    actions_per_s: float
    act_p50_us: float
    act_p99_us: float
    server_cpu_us_per_act: float
    redis_command_cpu_us_per_act: float
    redis_process_cpu_us_per_act: float
    redis_master_cpu_us_per_act: float
    redis_bytes_per_act: float
    games_weighed: int
    mean_game_version: float
    redis_bytes_per_game: float
    watch_deliveries: int
    watch_delay_p50_us: float
    watch_delay_p99_us: float


def run(*args: str, env: dict[str, str] | None = None) -> str:
    """Run a command and return its standard output; fail loudly."""
    done = subprocess.run(args, check=True, capture_output=True, text=True, env=env)
    return done.stdout


def cli(port: int, *args: str) -> str:
    """Run one redis-cli command against the node on `port`; return its output, stripped."""
    return run("redis-cli", "-p", str(port), *args).strip()


def process_cpu_s(pid: int) -> float:
    """Return utime + stime of a process, in seconds (100 ticks per second)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / 100.0


def redis_pid(port: int) -> int:
    """Return the process id of the Redis node on `port`."""
    for line in cli(port, "INFO", "server").splitlines():
        if line.startswith("process_id:"):
            return int(line.split(":", 1)[1])
    raise RuntimeError(f"no process id from the Redis node on {port}")


def masters(ports: list[int]) -> list[int]:
    """Return the ports among `ports` whose node is a master."""
    return [port for port in ports if cli(port, "ROLE").splitlines()[0] == "master"]


def weigh_games(ports: list[int]) -> tuple[int, float, float]:
    """Sample games from the masters on `ports`.

    Return how many were weighed, their mean version, and the mean bytes (`MEMORY USAGE`) of one
    game's keys (record, events, request window).
    """
    weighed = 0
    versions = 0
    total_bytes = 0
    for port in masters(ports):
        keys = run("redis-cli", "-p", str(port), "--scan", "--pattern", "deckmate:{*}:game").split()
        for key in keys[: MEMORY_SAMPLE // len(ports) + 1]:
            prefix = key[: -len(":game")]
            version = cli(port, "HGET", key, "version")
            sizes = [
                cli(port, "MEMORY", "USAGE", f"{prefix}:{part}", "SAMPLES", "0")
                for part in ("game", "events", "requests")
            ]
            total_bytes += sum(int(size) for size in sizes if size.isdigit())
            versions += int(version) if version.isdigit() else 0
            weighed += 1
    if weighed == 0:
        return 0, 0.0, 0.0
    return weighed, versions / weighed, total_bytes / weighed


def start_servers(server_bin: Path, store: str, extra: list[str]) -> list[subprocess.Popen[bytes]]:
    """Start two server replicas on `store`; return them once their health says they serve."""
    servers = []
    for port in SERVER_PORTS:
        servers.append(
            subprocess.Popen(
                [
                    str(server_bin),
                    "--listen",
                    f"127.0.0.1:{port}",
                    "--store",
                    store,
                    "--create-rate",
                    "off",
                    "--max-games-per-client",
                    "1000000",
                    "--game-ttl",
                    "30m",
                    *extra,
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    for port in SERVER_PORTS:
        for _ in range(100):
            health = subprocess.run(
                [str(server_bin), "health", "--addr", f"127.0.0.1:{port}"],
                check=False,
                capture_output=True,
            )
            if health.returncode == 0:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"the server on {port} did not become healthy")
    return servers


def measure(
    name: str,
    store: str,
    redis_ports: list[int],
    server_bin: Path,
    load_bin: Path,
    duration: str,
    extra: list[str],
) -> Measured:
    """Run the `act` scenario across two replicas on `store` and read every figure."""
    servers = start_servers(server_bin, store, extra)
    try:
        redis_pids = [redis_pid(port) for port in redis_ports]
        master_pids = [redis_pid(port) for port in masters(redis_ports)]
        redis_before = sum(process_cpu_s(pid) for pid in redis_pids)
        masters_before = sum(process_cpu_s(pid) for pid in master_pids)
        with tempfile.NamedTemporaryFile(suffix=".json") as report_file:
            args = [str(load_bin), "act", "--duration", duration]
            # No warm-up and no baseline: the Redis process CPU is read around the whole run,
            # so the measured window must be (nearly) all of it.
            args += ["--warmup", "0s", "--baseline-duration", "0s"]
            args += ["--json-file", report_file.name]
            for port in SERVER_PORTS:
                args += ["--target", f"127.0.0.1:{port}"]
            for server in servers:
                args += ["--server-pid", str(server.pid)]
            for port in redis_ports:
                args += ["--redis-url", f"redis://127.0.0.1:{port}"]
            run(*args)
            report = json.loads(Path(report_file.name).read_text())
        redis_process_s = sum(process_cpu_s(pid) for pid in redis_pids) - redis_before
        masters_s = sum(process_cpu_s(pid) for pid in master_pids) - masters_before
        # Watchers on the replica neither seat plays through: every delivery crosses replicas.
        watch_args = [str(load_bin), "watch", "--duration", "10s", "--watchers", "2"]
        watch_args += ["--baseline-duration", "0s", "--json"]
        for port in SERVER_PORTS:
            watch_args += ["--target", f"127.0.0.1:{port}"]
        watched = json.loads(run(*watch_args))["result"]
        result = report["result"]
        actions = int(result["actions"])
        act = next(method for method in result["methods"] if method["method"] == "Act")
        weighed, mean_version, bytes_per_game = weigh_games(redis_ports)
        return Measured(
            name=name,
            actions=actions,
            actions_per_s=result["actions_per_s"],
            act_p50_us=act["latency"]["p50_us"],
            act_p99_us=act["latency"]["p99_us"],
            server_cpu_us_per_act=result["server_cpu_s"] * 1e6 / actions,
            redis_command_cpu_us_per_act=result["redis_cpu_s"] * 1e6 / actions,
            redis_process_cpu_us_per_act=redis_process_s * 1e6 / actions,
            redis_master_cpu_us_per_act=masters_s * 1e6 / actions,
            redis_bytes_per_act=result["redis_bytes"] / actions,
            games_weighed=weighed,
            mean_game_version=mean_version,
            redis_bytes_per_game=bytes_per_game,
            watch_deliveries=int(watched["deliveries"]),
            watch_delay_p50_us=watched["delivery_delay"]["p50_us"],
            watch_delay_p99_us=watched["delivery_delay"]["p99_us"],
        )
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=60)


def cluster_script(action: str) -> str:
    """Start or stop the measuring cluster; return the script's output, stripped."""
    env = dict(os.environ)
    env["DECKMATE_CLUSTER_PORT"] = str(CLUSTER_PORT)
    env["DECKMATE_CLUSTER_DIR"] = "/tmp/deckmate-scaling-cluster"
    return run("bash", str(ROOT / "scripts/redis-cluster.sh"), action, env=env).strip()


def main() -> int:
    """Measure every configuration, print the table and write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", default="20s")
    parser.add_argument("--json-file", default=str(ROOT / "target/scaling.json"))
    parser.add_argument("--server-bin", default=str(ROOT / "target/release/deckmate-server"))
    parser.add_argument("--load-bin", default=str(ROOT / "target/release/deckmate-load"))
    options = parser.parse_args()
    server_bin, load_bin = Path(options.server_bin), Path(options.load_bin)

    measured = []
    cli_ports = [SINGLE_PORT]
    single = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(SINGLE_PORT),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(50):
            ping = ["redis-cli", "-p", str(SINGLE_PORT), "ping"]
            if subprocess.run(ping, check=False, capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        measured.append(
            measure(
                "one Redis",
                f"redis://127.0.0.1:{SINGLE_PORT}",
                cli_ports,
                server_bin,
                load_bin,
                options.duration,
                [],
            )
        )
    finally:
        single.terminate()
        single.wait()

    cluster_ports = [CLUSTER_PORT + offset for offset in range(6)]
    for name, extra in (
        ("cluster, replica ack", []),
        ("cluster, no replica ack", ["--redis-replica-ack", "off"]),
    ):
        cluster_script("stop")
        url = cluster_script("start")
        try:
            measured.append(
                measure(
                    name,
                    url,
                    cluster_ports,
                    server_bin,
                    load_bin,
                    options.duration,
                    extra,
                )
            )
        finally:
            cluster_script("stop")

    Path(options.json_file).parent.mkdir(parents=True, exist_ok=True)
    Path(options.json_file).write_text(json.dumps([asdict(m) for m in measured], indent=2) + "\n")
    header = (
        "| store | Acts | Acts/s | Act p50 µs | Act p99 µs | server CPU µs/Act | "
        "Redis command CPU µs/Act | Redis process CPU µs/Act | of which masters | "
        "Redis bytes/Act | "
        "games weighed | mean version | Redis bytes/game | watch deliveries | "
        "delivery p50 µs | delivery p99 µs |"
    )
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for m in measured:
        print(
            f"| {m.name} | {m.actions} | {m.actions_per_s:.0f} | {m.act_p50_us:.0f} | "
            f"{m.act_p99_us:.0f} | {m.server_cpu_us_per_act:.0f} | "
            f"{m.redis_command_cpu_us_per_act:.1f} | {m.redis_process_cpu_us_per_act:.0f} | "
            f"{m.redis_master_cpu_us_per_act:.0f} | "
            f"{m.redis_bytes_per_act:.0f} | {m.games_weighed} | {m.mean_game_version:.1f} | "
            f"{m.redis_bytes_per_game:.0f} | {m.watch_deliveries} | "
            f"{m.watch_delay_p50_us:.0f} | {m.watch_delay_p99_us:.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
