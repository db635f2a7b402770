#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (docs/RELIABILITY.md, "Fuzzing").

Usage: scripts/fuzz-seeds.py CORPUS_DIR

Creates CORPUS_DIR/<target>/ for every target and writes a few seeds into each (files named by
their content's hash, so running it again adds nothing). The seeds of `apply_actions` are the
golden playthroughs (service/engine/tests/golden/), every recorded action in the game's
notation, in the input layout that fuzz_targets/apply_actions.rs describes; the server targets
get one small valid input per request kind, game and record format. The corpora are made at run
time and never committed.
"""

import base64
import hashlib
import json
import re
import struct
import sys
from pathlib import Path
from typing import TypedDict

ROOT = Path(__file__).resolve().parent.parent
META = ["resign", "offer draw", "accept draw", "decline draw"]
RPCS = 7
FORMATS = 2


class Step(TypedDict, total=False):
    """The fields the seeds read of a playthrough's step; a step lacking either is skipped."""

    action: str
    seat: int


class Playthrough(TypedDict):
    """The fields the seeds read of a golden playthrough (tests/golden/<game>/playthroughs.json)."""

    config: dict[str, object]
    seats: int
    seed: int
    steps: list[Step]


def game_ids() -> list[str]:
    """Return the game ids in the order of GameKind::ALL (the registry in games/mod.rs)."""
    registry = (ROOT / "service/engine/src/games/mod.rs").read_text()
    return [module for module in re.findall(r"=>\s*(\w+)::\w+", registry)]


def write(directory: Path, data: bytes) -> None:
    """Write `data` into `directory` as a file named by its hash."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def playthrough_seed(kind: int, playthrough: Playthrough) -> bytes:
    """Return a golden playthrough as an apply_actions input."""
    config = json.dumps(playthrough["config"], separators=(",", ":")).encode()
    data = bytearray([kind, playthrough["seats"], 0])
    data += struct.pack("<Q", playthrough["seed"])
    data += struct.pack("<H", len(config)) + config
    for step in playthrough["steps"]:
        action, seat = step.get("action"), step.get("seat")
        if action is None or seat is None:
            continue
        if action in META:
            data += bytes([1, seat, META.index(action)])
        else:
            text = action.encode()
            if len(text) > 255:
                continue
            data += bytes([2, seat, len(text)]) + text
    return bytes(data)


def grpc_frame(message: bytes) -> bytes:
    """Return `message` in a gRPC length-prefixed frame, uncompressed."""
    return b"\x00" + struct.pack(">I", len(message)) + message


def main() -> None:
    """Write the seeds into the corpus directory named on the command line."""
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    corpus = Path(sys.argv[1])
    games = game_ids()
    for kind, game in enumerate(games):
        path = ROOT / "service/engine/tests/golden" / game / "playthroughs.json"
        playthroughs: list[Playthrough] = json.loads(path.read_text())["playthroughs"]
        for playthrough in playthroughs:
            write(corpus / "apply_actions", playthrough_seed(kind, playthrough))
        for rpc in range(RPCS):
            # Both flags set: the request names the dealt game and presents seat 0's token.
            write(corpus / "decode_request", bytes([rpc, 3, kind]))
            write(corpus / "decode_request", bytes([rpc, 0, kind]) + b"\x0a\x04fuzz")
        for record_format in range(FORMATS):
            picks = bytes(range(7, 7 + 40))
            write(corpus / "decode_record", bytes([1, record_format, kind, kind]) + picks)
    write(corpus / "decode_record", bytes([0, 1, 0, 4]) + b"\x00\x00\x00\x00")
    write(corpus / "decode_record", bytes([0, 2, 0, 1, 0, 2, 1, 2]))
    for rpc in range(RPCS):
        for binary in range(2):
            write(corpus / "grpc_web_frame", bytes([rpc, binary]) + grpc_frame(b""))
        for text in range(2, 4):
            write(corpus / "grpc_web_frame", bytes([rpc, text]) + base64.b64encode(grpc_frame(b"")))


if __name__ == "__main__":
    main()
