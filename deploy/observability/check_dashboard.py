#!/usr/bin/env python3
"""Checks grafana-dashboard.json: valid JSON, importable, and querying documented metrics only.

That is: an importable dashboard with a ${DS_PROMETHEUS} datasource input, and every query
naming only metrics that docs/OPERATIONS.md lists.

Usage: check_dashboard.py [DASHBOARD] [OPERATIONS_MD]  (defaults: the repository's files).
Exits 1 with one line per problem. Standard library only.
"""

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A JSON object of the dashboard, whose values are checked where they are read.
JSON = dict[str, object]

# PromQL words that are not metric names.
KEYWORDS = {
    "by",
    "without",
    "on",
    "ignoring",
    "group_left",
    "group_right",
    "and",
    "or",
    "unless",
    "bool",
    "offset",
    "inf",
    "nan",
    "atan2",
}
# Suffixes Prometheus adds to a histogram's series.
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")


def documented_metrics(operations_md: Path) -> dict[str, str]:
    """Return {name: type} from the rows of the Metrics table: | `name` | type | ..."""
    metrics = {}
    for line in operations_md.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\|\s*`([a-z_:][a-z0-9_:]*)`\s*\|\s*(\w+)\s*\|", line)
        if match and match.group(1).startswith("deckmate_"):
            metrics[match.group(1)] = match.group(2)
    return metrics


def metric_names(expr: str) -> set[str]:
    """Return the metric names an expression reads."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # string literals
    text = re.sub(r"\$\{[^}]*\}|\$\w+", "", text)  # Grafana variables
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # ranges and subqueries
    # Label lists after grouping modifiers.
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", text)
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", text):
        word = match.group(0)
        rest = text[match.end() :]
        if word.lower() in KEYWORDS or re.match(r"\s*\(", rest):
            continue  # a keyword or a function / aggregation call
        if re.match(r"[0-9.]", text[match.start() - 1 : match.start()] or " "):
            continue  # part of a number such as 1e3
        names.add(word)
    return names


def check_metric(name: str, metrics: dict[str, str]) -> str | None:
    """Return None when `name` is a documented metric (or a histogram's series of one), else why."""
    if name in metrics:
        return None
    for suffix in HISTOGRAM_SUFFIXES:
        base = name[: -len(suffix)] if name.endswith(suffix) else None
        if base and metrics.get(base) == "histogram":
            return None
    return f"{name} is not a metric listed in docs/OPERATIONS.md"


def objects(value: object) -> list[JSON]:
    """Return `value`, a JSON array of objects; fail on anything else, as using it would."""
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise TypeError(f"not an array of objects: {value!r}")
    return value


def text_of(value: object) -> str:
    """Return `value`, a JSON string; fail on anything else, as matching it would."""
    if not isinstance(value, str):
        raise TypeError(f"not a string: {value!r}")
    return value


def panels_of(dashboard: JSON) -> Iterator[JSON]:
    """Yield every panel, rows' nested panels included."""
    for panel in objects(dashboard.get("panels", [])):
        yield panel
        yield from objects(panel.get("panels", []))


def check(dashboard_path: Path, operations_md: Path) -> list[str]:
    """Return the problems of the dashboard at `dashboard_path`."""
    problems: list[str] = []
    try:
        dashboard: object = json.loads(dashboard_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return [f"{dashboard_path}: not valid JSON: {error}"]
    metrics = documented_metrics(operations_md)
    if not metrics:
        return [f"{operations_md}: no metrics table found"]
    if not isinstance(dashboard, dict):
        raise TypeError(f"{dashboard_path}: not a JSON object")

    inputs = [i.get("name") for i in objects(dashboard.get("__inputs", []))]
    if "DS_PROMETHEUS" not in inputs:
        problems.append("no DS_PROMETHEUS datasource input in __inputs")
    for key in ("title", "uid", "panels", "schemaVersion"):
        if key not in dashboard:
            problems.append(f"the dashboard has no {key}")

    ids: set[object] = set()
    queries = 0
    for panel in panels_of(dashboard):
        where = f"panel {panel.get('id')} ({panel.get('title')!r})"
        if panel.get("id") in ids:
            problems.append(f"{where}: duplicate id")
        ids.add(panel.get("id"))
        if "gridPos" not in panel:
            problems.append(f"{where}: no gridPos")
        if panel.get("type") == "row":
            continue
        targets = objects(panel.get("targets") or [])
        if not targets:
            problems.append(f"{where}: no queries")
        datasource = panel.get("datasource", {})
        if not isinstance(datasource, dict):
            raise TypeError(f"{where}: the datasource is not an object")
        if datasource.get("uid") != "${DS_PROMETHEUS}":
            problems.append(f"{where}: datasource is not ${{DS_PROMETHEUS}}")
        for target in targets:
            expr = text_of(target.get("expr", ""))
            names = metric_names(expr)
            if not names:
                problems.append(f"{where}: query {target.get('refId')} reads no metric: {expr}")
            for name in sorted(names):
                problem = check_metric(name, metrics)
                if problem:
                    problems.append(f"{where}: {problem}")
            queries += 1

    templating = dashboard.get("templating", {})
    if not isinstance(templating, dict):
        raise TypeError(f"{dashboard_path}: templating is not an object")
    for variable in objects(templating.get("list", [])):
        query = variable.get("query")
        query = query.get("query", "") if isinstance(query, dict) else query or ""
        match = re.match(r"\s*label_values\(\s*([^,)]+)", text_of(query))
        if match:
            for name in sorted(metric_names(match.group(1))):
                problem = check_metric(name, metrics)
                if problem:
                    problems.append(f"variable {variable.get('name')}: {problem}")

    if queries == 0:
        problems.append("the dashboard has no queries")
    return problems


def main(argv: list[str]) -> int:
    """Check the dashboard named in `argv` (else the repository's); return the exit status."""
    here = Path(__file__).resolve().parent
    dashboard = Path(argv[1]) if len(argv) > 1 else here / "grafana-dashboard.json"
    operations = Path(argv[2]) if len(argv) > 2 else ROOT / "docs" / "OPERATIONS.md"
    problems = check(dashboard, operations)
    for problem in problems:
        print(f"{dashboard}: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"{dashboard}: valid; every query names only documented metrics")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
