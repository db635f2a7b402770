#!/usr/bin/env python3
"""Checks the rendered Kubernetes manifests against what the server needs.

`check.sh` renders the base and each overlay with `kubectl kustomize`, validates the objects
against the Kubernetes schemas, then runs this on the rendered files:

    check_manifests.py base=BASE.yaml dev=DEV.yaml production=PRODUCTION.yaml

The schemas say that a field is well formed; this says that the values fit Deckmate
(deploy/k8s/README.md): the probes ask the right health services, the grace period covers the
drain, the pods are locked down, every configured variable is one the server reads, the secrets
that the pods refer to exist and hold a usable store URL and keys file, and each overlay keeps
its promises (dev: its own durable Redis; production: three pods or more on a Redis Cluster).

Needs PyYAML. Exits 1 listing every problem.
"""

from __future__ import annotations

import base64
import math
import pathlib
import re
import sys
from collections.abc import Iterable
from typing import Any

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVER_SRC = ROOT / "service" / "server" / "src"
# Where the server's clap flags are defined.
FLAG_SOURCES = ("config*.rs", "config/**/*.rs", "cli.rs")
COMPOSE_REDIS_CONF = ROOT / "deploy" / "redis" / "redis.conf"

APP = "deckmate"
GRPC_PORT = 50051
METRICS_PORT = 9090
READINESS_SERVICE = "deckmate.v1.GameService"
LIVENESS_SERVICE = "liveness"
SERVER_UID = 10001
# terminationGracePeriodSeconds is the drain timeout plus this; the preStop sleep must be
# shorter, so that the drain still ends before SIGKILL.
GRACE_MARGIN_SECONDS = 10
DEFAULT_DRAIN = "30s"
# Variables the server reads besides its DECKMATE_* flags (docs/OPERATIONS.md).
OTHER_VARIABLES = re.compile(r"^(RUST_LOG|OTEL_[A-Z_]+)$")
# The Redis settings that keep games durable and never evicted (deploy/redis/redis.conf).
REDIS_SETTINGS = ("appendonly", "appendfsync", "maxmemory-policy")
QUANTITY = re.compile(r"^(\d+(?:\.\d+)?)(m|k|Ki|M|Mi|G|Gi|T|Ti|)$")
QUANTITY_SUFFIXES = {
    "m": 1e-3,
    "": 1,
    "k": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "Ti": 2**40,
}
# The store URLs the server takes (docs/OPERATIONS.md, "Flags", --store); no newline may end one.
STORE_URL = re.compile(r"^(memory|(redis|rediss|redis-cluster)://\S+)\Z")
KEY_LINE = re.compile(r"^([A-Za-z0-9_.-]{1,64}):([0-9a-fA-F]{64})$")

Obj = dict[str, Any]


class Render:
    """One rendered kustomization: its objects by kind and name, and the problems found."""

    def __init__(self, name: str, path: pathlib.Path) -> None:
        """Load every object of the multi-document YAML file at `path`."""
        self.name = name
        self.objects: list[Obj] = [
            doc for doc in yaml.safe_load_all(path.read_text()) if isinstance(doc, dict)
        ]
        self.problems: list[str] = []

    def problem(self, text: str) -> None:
        """Record a problem, prefixed with the rendering's name."""
        self.problems.append(f"{self.name}: {text}")

    def find(self, kind: str, name: str | None = None) -> list[Obj]:
        """Return the objects of `kind` (named `name`, when given)."""
        return [
            obj
            for obj in self.objects
            if obj.get("kind") == kind and (name is None or obj["metadata"]["name"] == name)
        ]

    def one(self, kind: str, name: str) -> Obj | None:
        """Return the one object of `kind` named `name`, or None after recording a problem."""
        found = self.find(kind, name)
        if len(found) != 1:
            self.problem(f"expected one {kind} {name!r}, found {len(found)}")
            return None
        return found[0]


def flag_variables() -> set[str]:
    """Return the DECKMATE_* variables of the server's flags, from their clap definitions."""
    names: set[str] = set()
    for pattern in FLAG_SOURCES:
        for path in SERVER_SRC.glob(pattern):
            names.update(re.findall(r'env = "(DECKMATE_[A-Z0-9_]+)"', path.read_text()))
    if "DECKMATE_STORE" not in names:
        raise SystemExit(f"check_manifests: no flag variables found in {SERVER_SRC}")
    return names


def seconds(duration: str) -> float:
    """Convert a duration in the server's notation (30s, 1m30s, 500ms, 2h) to seconds."""
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    parts = re.findall(r"(\d+)\s*(ms|s|m|h)", duration)
    if not parts or re.sub(r"\d+\s*(ms|s|m|h)|\s", "", duration):
        raise ValueError(f"not a duration: {duration!r}")
    return sum(int(number) * units[unit] for number, unit in parts)


def secret_value(secret: Obj, key: str) -> str | None:
    """Return the text of `key` in a Secret (data is base64, stringData plain), or None."""
    if key in (secret.get("stringData") or {}):
        return str(secret["stringData"][key])
    encoded = (secret.get("data") or {}).get(key)
    return None if encoded is None else base64.b64decode(encoded).decode()


def labels_match(selector: dict[str, str], labels: dict[str, str]) -> bool:
    """Return whether every selector label is on the object."""
    return all(labels.get(key) == value for key, value in selector.items())


def port_of(address: str) -> int | None:
    """Return the port of a `host:port` address."""
    _, _, port = address.rpartition(":")
    return int(port) if port.isdigit() else None


def check_security(render: Render, pod: Obj, container: Obj) -> None:
    """Check non-root as the image's user, read-only, no capabilities, default seccomp."""
    pod_sc = pod.get("securityContext") or {}
    sc = container.get("securityContext") or {}

    def either(key: str) -> Any:
        return sc.get(key, pod_sc.get(key))

    if either("runAsNonRoot") is not True:
        render.problem("the server must run with runAsNonRoot: true")
    if either("runAsUser") != SERVER_UID:
        render.problem(f"the server must run as uid {SERVER_UID} (the image's user)")
    if sc.get("readOnlyRootFilesystem") is not True:
        render.problem("the server's root filesystem must be read-only")
    if sc.get("allowPrivilegeEscalation") is not False:
        render.problem("the server must set allowPrivilegeEscalation: false")
    if (sc.get("capabilities") or {}).get("drop") != ["ALL"]:
        render.problem("the server must drop ALL capabilities")
    if (either("seccompProfile") or {}).get("type") != "RuntimeDefault":
        render.problem("the server must run under the RuntimeDefault seccomp profile")


def quantity(value: object) -> float | None:
    """Convert a resource quantity (250m, 1, 512Mi, 1G) to a number, or None when malformed."""
    match = QUANTITY.match(str(value))
    if match is None:
        return None
    return float(match.group(1)) * QUANTITY_SUFFIXES[match.group(2)]


def check_resources(render: Render, container: Obj) -> None:
    """Check that CPU and memory have well-formed requests and limits, requests within limits."""
    resources = container.get("resources") or {}
    for resource in ("cpu", "memory"):
        request = quantity((resources.get("requests") or {}).get(resource))
        limit = quantity((resources.get("limits") or {}).get(resource))
        if request is None or limit is None:
            render.problem(f"the server needs a well-formed {resource} request and limit")
        elif request > limit:
            render.problem(f"the server's {resource} request is above its limit")


def check_probes(render: Render, container: Obj) -> None:
    """Check that readiness follows the store and liveness and start-up do not."""
    expected = {
        "readinessProbe": READINESS_SERVICE,
        "livenessProbe": LIVENESS_SERVICE,
    }
    for probe_name, service in expected.items():
        grpc = (container.get(probe_name) or {}).get("grpc")
        if grpc is None:
            render.problem(f"{probe_name} must be a gRPC probe")
            continue
        if grpc.get("port") != GRPC_PORT or grpc.get("service") != service:
            render.problem(f"{probe_name} must ask port {GRPC_PORT} about {service!r}")
    startup = container.get("startupProbe")
    if startup is not None and (startup.get("grpc") or {}).get("service") != LIVENESS_SERVICE:
        render.problem(
            "startupProbe must ask about 'liveness': a store outage must not hold pods in start-up"
        )


def check_shutdown(render: Render, pod: Obj, container: Obj, config: dict[str, str]) -> None:
    """Check that the grace period is the drain plus the margin and preStop fits in it."""
    try:
        drain = seconds(config.get("DECKMATE_DRAIN_TIMEOUT", DEFAULT_DRAIN))
    except ValueError as error:
        render.problem(f"DECKMATE_DRAIN_TIMEOUT: {error}")
        return
    grace = pod.get("terminationGracePeriodSeconds")
    if grace != drain + GRACE_MARGIN_SECONDS:
        render.problem(
            f"terminationGracePeriodSeconds is {grace}: it must be the drain timeout ({drain:g} s)"
            f" plus {GRACE_MARGIN_SECONDS}"
        )
    pre_stop = (container.get("lifecycle") or {}).get("preStop") or {}
    if "exec" in pre_stop:
        render.problem(
            "preStop must use the sleep action, not exec: the image needs no shell for it"
        )
    sleep = (pre_stop.get("sleep") or {}).get("seconds")
    if not isinstance(sleep, int) or not 0 < sleep < GRACE_MARGIN_SECONDS:
        render.problem(f"preStop must sleep 1 to {GRACE_MARGIN_SECONDS - 1} seconds, not {sleep}")


def check_config(render: Render, container: Obj, config: dict[str, str]) -> None:
    """Check that the server reads every variable and the addresses match the ports."""
    known = flag_variables()
    names = list(config) + [env["name"] for env in container.get("env") or []]
    for name in names:
        if name not in known and not OTHER_VARIABLES.match(name):
            render.problem(f"{name} is not a variable the server reads (a typo?)")
    ports = {port["containerPort"] for port in container.get("ports") or []}
    if {GRPC_PORT, METRICS_PORT} - ports:
        render.problem(f"the server container must expose {GRPC_PORT} and {METRICS_PORT}")
    if port_of(config.get("DECKMATE_LISTEN", f"0.0.0.0:{GRPC_PORT}")) != GRPC_PORT:
        render.problem(f"DECKMATE_LISTEN must be on port {GRPC_PORT}")
    if port_of(config.get("DECKMATE_METRICS_LISTEN", "")) != METRICS_PORT:
        render.problem(f"DECKMATE_METRICS_LISTEN must be set, on port {METRICS_PORT}")
    if config.get("DECKMATE_LOG_FORMAT") != "json":
        render.problem("DECKMATE_LOG_FORMAT must be json, for the cluster's log collector")


def store_url(render: Render, container: Obj) -> str | None:
    """Return DECKMATE_STORE, which must come from a Secret that exists and has it."""
    for env in container.get("env") or []:
        if env["name"] != "DECKMATE_STORE":
            continue
        ref = (env.get("valueFrom") or {}).get("secretKeyRef")
        if ref is None:
            render.problem("DECKMATE_STORE must come from a Secret (it may hold a password)")
            return None
        secret = render.one("Secret", ref["name"])
        value = None if secret is None else secret_value(secret, ref["key"])
        if value is None:
            render.problem(f"Secret {ref['name']!r} has no key {ref['key']!r}")
        return value
    render.problem("DECKMATE_STORE is not set from a Secret")
    return None


def check_api_keys(render: Render, pod: Obj, container: Obj, config: dict[str, str]) -> None:
    """Check that the keys file is mounted from a Secret and every line of it parses."""
    path = config.get("DECKMATE_API_KEYS_FILE")
    if path is None:
        render.problem("DECKMATE_API_KEYS_FILE is not set: CreateGame would be open to anyone")
        return
    directory, _, file_name = path.rpartition("/")
    mounts = [m for m in container.get("volumeMounts") or [] if m["mountPath"] == directory]
    volumes = {volume["name"]: volume for volume in pod.get("volumes") or []}
    secret_name = None
    if len(mounts) == 1 and "subPath" not in mounts[0]:
        secret_name = (volumes.get(mounts[0]["name"], {}).get("secret") or {}).get("secretName")
    if secret_name is None:
        render.problem(f"{directory} must be a whole Secret volume (no subPath: it must update)")
        return
    secret = render.one("Secret", secret_name)
    text = None if secret is None else secret_value(secret, file_name)
    if text is None:
        render.problem(f"Secret {secret_name!r} has no key {file_name!r}")
        return
    names: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = KEY_LINE.match(line)
        if match is None:
            render.problem(f"the API keys file, line {number}: expected `name:sha256-hex`")
        elif match.group(1) in names:
            render.problem(f"the API keys file, line {number}: the name is used twice")
        else:
            names.add(match.group(1))


def check_service_account(render: Render, pod: Obj) -> None:
    """Check that the pods get no Kubernetes API token."""
    if pod.get("automountServiceAccountToken") is not False:
        render.problem("the pods must set automountServiceAccountToken: false")
    account = render.one("ServiceAccount", pod.get("serviceAccountName", "default"))
    if account is not None and account.get("automountServiceAccountToken") is not False:
        render.problem("the ServiceAccount must set automountServiceAccountToken: false")


def check_network(render: Render, pod_labels: dict[str, str]) -> None:
    """Check that the Service speaks h2c and the NetworkPolicy admits only the two ports."""
    service = render.one("Service", APP)
    if service is not None:
        if not labels_match(service["spec"].get("selector") or {}, pod_labels):
            render.problem("Service 'deckmate' does not select the server pods")
        ports = {port["port"]: port for port in service["spec"]["ports"]}
        grpc = ports.get(GRPC_PORT) or {}
        if grpc.get("appProtocol") != "kubernetes.io/h2c":
            render.problem(f"Service port {GRPC_PORT} must have appProtocol kubernetes.io/h2c")
        if METRICS_PORT not in ports:
            render.problem(f"Service 'deckmate' must expose the metrics port {METRICS_PORT}")
    policies = [
        policy
        for policy in render.find("NetworkPolicy")
        if labels_match(policy["spec"]["podSelector"].get("matchLabels") or {}, pod_labels)
    ]
    if len(policies) != 1:
        render.problem(f"expected one NetworkPolicy for the server pods, found {len(policies)}")
        return
    spec = policies[0]["spec"]
    if set(spec.get("policyTypes") or []) != {"Ingress", "Egress"}:
        render.problem("the server's NetworkPolicy must restrict both Ingress and Egress")
    admitted = {port.get("port") for rule in spec.get("ingress") or [] for port in rule["ports"]}
    if admitted != {GRPC_PORT, METRICS_PORT} or any(
        "ports" not in rule for rule in spec.get("ingress") or []
    ):
        render.problem(f"the NetworkPolicy must admit only {GRPC_PORT} and {METRICS_PORT}")


def check_availability(render: Render, deployment: Obj) -> int:
    """Check the autoscaler and the disruption budget; return the minimum number of pods."""
    hpas = render.find("HorizontalPodAutoscaler", APP)
    if hpas:
        hpa = hpas[0]
        if hpa["apiVersion"] != "autoscaling/v2":
            render.problem("the HorizontalPodAutoscaler must be autoscaling/v2")
        target = hpa["spec"]["scaleTargetRef"]
        if (target["kind"], target["name"]) != ("Deployment", APP):
            render.problem("the HorizontalPodAutoscaler must scale Deployment 'deckmate'")
        metrics = [m.get("resource", {}).get("name") for m in hpa["spec"].get("metrics") or []]
        if "cpu" not in metrics:
            render.problem("the HorizontalPodAutoscaler must scale on CPU")
        if "replicas" in deployment["spec"]:
            render.problem("with an autoscaler the Deployment must not set replicas")
        minimum = int(hpa["spec"].get("minReplicas", 1))
    else:
        minimum = int(deployment["spec"].get("replicas", 1))
    budget = render.one("PodDisruptionBudget", APP)
    if budget is not None:
        min_available = budget["spec"].get("minAvailable")
        if isinstance(min_available, str) and min_available.endswith("%"):
            min_available = math.ceil(minimum * int(min_available[:-1]) / 100)
        if min_available is not None and min_available >= minimum:
            render.problem(
                f"the PodDisruptionBudget keeps {min_available} of {minimum} pods: "
                "no node could ever be drained"
            )
    return minimum


def redis_settings(text: str) -> dict[str, str]:
    """Return the settings of REDIS_SETTINGS in a redis.conf."""
    found = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in REDIS_SETTINGS:
            found[words[0]] = words[1]
    return found


def check_dev(render: Render, minimum: int, store: str | None) -> None:
    """Check dev: one Redis of its own, durable like compose's, reached as redis:6379."""
    if store != "redis://redis:6379":
        render.problem(f"the dev store must be redis://redis:6379, not {store!r}")
    redis = render.one("StatefulSet", "redis")
    service = render.one("Service", "redis")
    if redis is None or service is None:
        return
    if [port["port"] for port in service["spec"]["ports"]] != [6379]:
        render.problem("Service 'redis' must expose 6379")
    pod = redis["spec"]["template"]["spec"]
    container = pod["containers"][0]
    if not container["image"].startswith("redis:7"):
        render.problem("the dev Redis must be a redis:7 image")
    if (pod.get("securityContext") or {}).get("runAsNonRoot") is not True:
        render.problem("the dev Redis must run with runAsNonRoot: true")
    config_maps = [
        volume["configMap"]["name"] for volume in pod.get("volumes") or [] if "configMap" in volume
    ]
    texts = [
        cm["data"]["redis.conf"]
        for name in config_maps
        for cm in render.find("ConfigMap", name)
        if "redis.conf" in (cm.get("data") or {})
    ]
    if len(texts) != 1:
        render.problem("the dev Redis must mount one redis.conf from a ConfigMap")
        return
    expected = redis_settings(COMPOSE_REDIS_CONF.read_text())
    if redis_settings(texts[0]) != expected:
        render.problem(f"the dev redis.conf must have {expected} as deploy/redis/redis.conf")
    if minimum < 1:
        render.problem("dev must run at least one server pod")


def check_production(render: Render, minimum: int, store: str | None, image: str) -> None:
    """Check production: three pods or more, a Redis Cluster, a pinned image."""
    if minimum < 3:
        render.problem(f"production must keep at least 3 pods, not {minimum}")
    if not render.find("HorizontalPodAutoscaler", APP):
        render.problem("production must have the HorizontalPodAutoscaler")
    if store is None or not store.startswith("redis-cluster://"):
        render.problem("the production store must be a redis-cluster:// URL")
    name, _, tag = image.rpartition(":")
    if not name or "/" in tag or tag == "latest":
        render.problem(f"the production image must name a release tag, not {image!r}")


def check(render: Render) -> None:
    """Run every check on one rendering."""
    deployment = render.one("Deployment", APP)
    if deployment is None:
        return
    pod = deployment["spec"]["template"]["spec"]
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    containers = [c for c in pod["containers"] if c["name"] == APP]
    if len(containers) != 1:
        render.problem("the Deployment must have one container named 'deckmate'")
        return
    container = containers[0]
    config: dict[str, str] = {}
    for source in container.get("envFrom") or []:
        ref = source.get("configMapRef")
        config_map = None if ref is None else render.one("ConfigMap", ref["name"])
        if config_map is not None:
            config.update(config_map.get("data") or {})
    check_security(render, pod, container)
    check_probes(render, container)
    check_resources(render, container)
    check_shutdown(render, pod, container, config)
    check_config(render, container, config)
    check_api_keys(render, pod, container, config)
    check_service_account(render, pod)
    check_network(render, pod_labels)
    store = store_url(render, container)
    if store is not None and not STORE_URL.match(store):
        render.problem(
            "DECKMATE_STORE must be memory or a redis://, rediss:// or redis-cluster:// URL"
        )
    minimum = check_availability(render, deployment)
    if render.name == "dev":
        check_dev(render, minimum, store)
    elif render.name == "production":
        check_production(render, minimum, store, container["image"])


def main(arguments: Iterable[str]) -> int:
    """Check each NAME=FILE rendering and print every problem."""
    renders = []
    for argument in arguments:
        name, separator, path = argument.partition("=")
        if not separator:
            print(f"usage: {sys.argv[0]} NAME=RENDERED.yaml ...", file=sys.stderr)
            return 2
        renders.append(Render(name, pathlib.Path(path)))
    if not renders:
        print(f"usage: {sys.argv[0]} NAME=RENDERED.yaml ...", file=sys.stderr)
        return 2
    problems = []
    for render in renders:
        check(render)
        problems.extend(render.problems)
    for problem in problems:
        print(f"check_manifests: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check_manifests: {', '.join(r.name for r in renders)} fit the server")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
