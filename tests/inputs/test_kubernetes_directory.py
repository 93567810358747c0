"""A directory of Kubernetes manifests read as kubectl applies it: one broken or duplicated
object is that object's error, YAML as kubectl's library reads it, CRDs never change
built-in kinds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CONFIG_MAP = (
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata: {{mode: {mode}}}\n"
)

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
    - name: app
      image: nginx
      securityContext: &shared
        privileged: y
        runAsNonRoot: true
    - name: sidecar
      image: envoy
      securityContext:
        privileged: false
        <<: *shared
"""

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: deployments.apps
spec:
  group: apps
  scope: Cluster
  names: {kind: Deployment, plural: deployments}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: prod}
spec: {template: {spec: {containers: [{name: c, image: i}]}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: staging}
spec: {template: {spec: {containers: [{name: c, image: i}]}}}
"""

BROKEN = "apiVersion: v1\nkind: Secret\nmetadata:\n  labels: {a: b}\n"


def test_one_broken_or_duplicated_object_loses_only_itself(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(CONFIG_MAP.format(mode="a"))
    (tmp_path / "b.yaml").write_text(CONFIG_MAP.format(mode="b"))
    (tmp_path / "broken.yaml").write_text(BROKEN)
    (tmp_path / "pod.yaml").write_text(POD)
    (tmp_path / "crd.yaml").write_text(CRD)
    run = subprocess.run(
        [sys.executable, "-m", "engine", "state", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2  # the errors tell CI
    assert f"{tmp_path / 'b.yaml'}:1: ConfigMap 'default.settings' is defined twice" in run.stderr
    assert f"{tmp_path / 'broken.yaml'}:1: Secret has no metadata.name" in run.stderr
    [state] = json.loads(run.stdout)
    resources = state["resources"]
    assert resources["ConfigMap"]["default.settings"]["attributes"]["data"] == {"mode": "b"}
    containers = resources["Pod"]["default.web"]["attributes"]["spec"]["containers"]
    # `y` is true, and the later merge beats the explicit false, as kubectl reads them
    assert [c["securityContext"]["privileged"] for c in containers] == [True, True]
    # a CRD in the tree does not make apps/v1 Deployments cluster-scoped
    assert sorted(resources["Deployment"]) == ["prod.api", "staging.api"]
