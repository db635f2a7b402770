#!/usr/bin/env python3
"""Checks grafana-dashboard.json: valid JSON, an importable dashboard with a ${DS_PROMETHEUS}
datasource input, and every query naming only metrics that docs/OPERATIONS.md lists.

Usage: check_dashboard.py [DASHBOARD] [OPERATIONS_MD]  (defaults: the repository's files).
Exits 1 with one line per problem. Standard library only.
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# PromQL words that are not metric names.
KEYWORDS = {
    "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless",
    "bool", "offset", "inf", "nan", "atan2",
}
# Suffixes Prometheus adds to a histogram's series.
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")


def documented_metrics(operations_md):
    """{name: type} from the rows of the Metrics table: | `name` | type | ..."""
    metrics = {}
    for line in operations_md.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\|\s*`([a-z_:][a-z0-9_:]*)`\s*\|\s*(\w+)\s*\|", line)
        if match and match.group(1).startswith("deckmate_"):
            metrics[match.group(1)] = match.group(2)
    return metrics


def metric_names(expr):
    """The metric names an expression reads."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # string literals
    text = re.sub(r"\$\{[^}]*\}|\$\w+", "", text)  # Grafana variables
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # ranges and subqueries
    # Label lists after grouping modifiers.
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", text)
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", text):
        word = match.group(0)
        rest = text[match.end():]
        if word.lower() in KEYWORDS or re.match(r"\s*\(", rest):
            continue  # a keyword or a function / aggregation call
        if re.match(r"[0-9.]", text[match.start() - 1:match.start()] or " "):
            continue  # part of a number such as 1e3
        names.add(word)
    return names


def check_metric(name, metrics):
    """None if `name` is a documented metric (or a histogram's series of one), else why not."""
    if name in metrics:
        return None
    for suffix in HISTOGRAM_SUFFIXES:
        base = name[: -len(suffix)] if name.endswith(suffix) else None
        if base and metrics.get(base) == "histogram":
            return None
    return f"{name} is not a metric listed in docs/OPERATIONS.md"


def panels_of(dashboard):
    """Every panel, rows' nested panels included."""
    for panel in dashboard.get("panels", []):
        yield panel
        yield from panel.get("panels", [])


def check(dashboard_path, operations_md):
    problems = []
    try:
        dashboard = json.loads(dashboard_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return [f"{dashboard_path}: not valid JSON: {error}"]
    metrics = documented_metrics(operations_md)
    if not metrics:
        return [f"{operations_md}: no metrics table found"]

    inputs = [i.get("name") for i in dashboard.get("__inputs", [])]
    if "DS_PROMETHEUS" not in inputs:
        problems.append("no DS_PROMETHEUS datasource input in __inputs")
    for key in ("title", "uid", "panels", "schemaVersion"):
        if key not in dashboard:
            problems.append(f"the dashboard has no {key}")

    ids = set()
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
        targets = panel.get("targets") or []
        if not targets:
            problems.append(f"{where}: no queries")
        if panel.get("datasource", {}).get("uid") != "${DS_PROMETHEUS}":
            problems.append(f"{where}: datasource is not ${{DS_PROMETHEUS}}")
        for target in targets:
            expr = target.get("expr", "")
            names = metric_names(expr)
            if not names:
                problems.append(f"{where}: query {target.get('refId')} reads no metric: {expr}")
            for name in sorted(names):
                problem = check_metric(name, metrics)
                if problem:
                    problems.append(f"{where}: {problem}")
            queries += 1

    for variable in dashboard.get("templating", {}).get("list", []):
        query = variable.get("query")
        query = query.get("query", "") if isinstance(query, dict) else query or ""
        match = re.match(r"\s*label_values\(\s*([^,)]+)", query)
        if match:
            for name in sorted(metric_names(match.group(1))):
                problem = check_metric(name, metrics)
                if problem:
                    problems.append(f"variable {variable.get('name')}: {problem}")

    if queries == 0:
        problems.append("the dashboard has no queries")
    return problems


def main(argv):
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
