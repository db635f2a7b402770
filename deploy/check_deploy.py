#!/usr/bin/env python3
"""Offline checks of the deploy files, for CI (no Docker engine runs there).

- Every `COPY` source in deploy/docker/Dockerfile exists in the repository (the build context
  is the repository root) and is not excluded by .dockerignore's plain top-level entries;
  `COPY --from=<stage>` copies come from another stage and are skipped.
- deploy/compose.yaml parses (with PyYAML when it is installed) and names the services, the
  Dockerfile and the Redis configuration it relies on, which must exist.

Python 3 standard library only, except the optional PyYAML. Exits 1 listing every problem.
"""

import pathlib
import shlex
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "deploy" / "docker" / "Dockerfile"
COMPOSE = ROOT / "deploy" / "compose.yaml"
SERVICES = ("deckmate-1", "deckmate-2", "redis", "load-1", "load-2")


def instructions(text: str) -> list[str]:
    """Return the Dockerfile's instructions, continuation lines joined and comments dropped."""
    joined: list[str] = []
    current = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        joined.append(current + stripped)
        current = ""
    if current:
        joined.append(current)
    return joined


def ignored_roots() -> set[str]:
    """Return the top-level names .dockerignore leaves out of the build context."""
    path = ROOT / ".dockerignore"
    if not path.exists():
        return set()
    roots = set()
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "!")) and not any(c in line for c in "*?["):
            roots.add(line.strip("/"))
    return roots


def copy_sources(instruction: str) -> list[str]:
    """Return the context paths a COPY instruction reads, or none for a COPY --from."""
    words = shlex.split(instruction)
    args = [w for w in words[1:] if not w.startswith("--")]
    if any(w.startswith("--from=") for w in words[1:]):
        return []
    return args[:-1]


def check_dockerfile(problems: list[str]) -> None:
    """Check the COPY sources: there are some, and each exists in the build context."""
    if not DOCKERFILE.exists():
        problems.append(f"{DOCKERFILE.relative_to(ROOT)} is missing")
        return
    ignored = ignored_roots()
    copies = 0
    for instruction in instructions(DOCKERFILE.read_text()):
        if instruction.split(None, 1)[0].upper() != "COPY":
            continue
        for source in copy_sources(instruction):
            copies += 1
            if not (ROOT / source).exists():
                problems.append(f"Dockerfile: COPY source {source!r} does not exist")
            elif source.strip("/").split("/")[0] in ignored:
                problems.append(f"Dockerfile: COPY source {source!r} is in .dockerignore")
    if copies == 0:
        problems.append("Dockerfile: no COPY from the build context found")


def check_compose(problems: list[str]) -> None:
    """Check that compose.yaml parses and names the services and files it relies on."""
    if not COMPOSE.exists():
        problems.append("deploy/compose.yaml is missing")
        return
    text = COMPOSE.read_text()
    try:
        import yaml  # optional: parsed when available
    except ImportError:
        names = {name for name in SERVICES if f"\n  {name}:" in text}
    else:
        try:
            document: object = yaml.safe_load(text) or {}
        except yaml.YAMLError as error:
            problems.append(f"compose.yaml does not parse: {error}")
            return
        assert isinstance(document, dict), "compose.yaml is not a mapping"
        services = document.get("services") or {}
        names = set(services)
    for name in SERVICES:
        if name not in names:
            problems.append(f"compose.yaml: service {name!r} is missing")
    for referenced in ("deploy/docker/Dockerfile", "./redis/redis.conf"):
        if referenced not in text:
            problems.append(f"compose.yaml does not refer to {referenced}")
    for path in (DOCKERFILE, ROOT / "deploy" / "redis" / "redis.conf"):
        if not path.exists():
            problems.append(f"{path.relative_to(ROOT)} is missing")


def main() -> int:
    """Run every check; return the exit status."""
    problems: list[str] = []
    check_dockerfile(problems)
    check_compose(problems)
    for problem in problems:
        print(f"check_deploy: {problem}", file=sys.stderr)
    if problems:
        return 1
    print("check_deploy: Dockerfile COPY sources and compose.yaml are fine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
