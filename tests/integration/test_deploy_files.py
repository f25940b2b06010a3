"""deploy/k8s (Zero to JupyterHub) cannot be deployed from here, so its files are checked against the
project's own: the same versions, the same extras, the same nbgrader layout. What this proves and what is
verified on paper only is listed in docs/instructor.md, "Beyond one machine"."""

from __future__ import annotations

import importlib
import re
import sys
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]
K8S = REPO / "deploy" / "k8s"
sys.path.insert(0, str(REPO / "deploy"))
import student_edition as se  # noqa: E402


def _extras():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return {k: [Requirement(r) for r in v] for k, v in project["optional-dependencies"].items()}


def _pins(dockerfile: str) -> dict[str, str]:
    return dict(re.findall(r'"([A-Za-z0-9_-]+)==([0-9][^"]*)"', dockerfile))


def test_single_user_image_pins_satisfy_the_hub_extra():
    pins = _pins((K8S / "Dockerfile").read_text())
    hub = {r.name: r for r in _extras()["hub"]}
    assert set(pins) == {"jupyterhub", "nbgitpuller"}
    for name, version in pins.items():
        assert hub[name].specifier.contains(version), (name, version, str(hub[name].specifier))


def test_single_user_image_installs_the_student_edition_with_the_notebooks_extras():
    docker = (K8S / "Dockerfile").read_text()
    assert "COPY build/student /opt/armlab-course" in docker
    assert "pip install --no-cache-dir -r /opt/armlab-course/requirements.txt" in docker
    extras = set(se.EXTRAS.split(","))
    assert extras == {"course", "lab"} and extras <= set(_extras())
    # the lab notebooks need websockets (lab), the chapters widgets and nbgrader's Assignments tab (course)
    names = {r.name for e in extras for r in _extras()[e]}
    assert {"websockets", "anywidget", "nbgrader", "jupyterlab", "mujoco"} <= names  # mujoco: chapters 06 and 08


def test_single_user_image_runs_the_editions_python_and_checks_its_notebooks_against_its_kernel():
    """The notebooks students pull carry the kernel metadata of the Python that built the edition: the image is
    built on that version (a build argument) and its build fails when the edition's notebooks name another."""
    docker = (K8S / "Dockerfile").read_text()
    assert "FROM python:${PYTHON_VERSION}-slim-bookworm" in docker
    assert re.search(r"^ARG PYTHON_VERSION=", docker, re.M).start() < docker.index("FROM ")
    check = "RUN python -m armlab.notebooks --check /opt/armlab-course"
    assert docker.index("COPY build/student /opt/armlab-course") < docker.index(check)


def test_single_user_server_config_sets_the_kernel_websocket_class_that_exists():
    text = (K8S / "jupyter_server_config.py").read_text()
    (path,) = re.findall(r'kernel_websocket_connection_class = "([\w.]+)"', text)
    module, name = path.rsplit(".", 1)
    assert getattr(importlib.import_module(module), name).__name__ == name
    assert path in importlib.import_module("armlab.viz.server").SERVER_OPTION


def test_helm_values_share_the_exchange_course_id_and_grader_service():
    values = yaml.safe_load((K8S / "config.yaml").read_text())
    grader = list(yaml.safe_load_all((K8S / "grader.yaml").read_text()))
    nbconfig = values["singleuser"]["extraFiles"]["nbgrader_config"]["stringData"]
    (course_id,) = re.findall(r'course_id = "(\w+)"', nbconfig)
    (exchange,) = re.findall(r'Exchange.root = "([^"]+)"', nbconfig)
    # the grader service's name is the course id; only the grader group reaches it
    assert list(values["hub"]["services"]) == [course_id]
    role = values["hub"]["loadRoles"]["formgrade-armlab"]
    assert f"access:services!service={course_id}" in role["scopes"] and role["groups"] == ["formgrade-armlab"]
    assert "formgrade-armlab" in values["hub"]["extraConfig"]["graders"]
    # every student's server and the grader mount the same ReadWriteMany exchange at Exchange.root
    mounts = values["singleuser"]["storage"]["extraVolumeMounts"]
    assert [m["mountPath"] for m in mounts] == [exchange]
    claim = values["singleuser"]["storage"]["extraVolumes"][0]["persistentVolumeClaim"]["claimName"]
    pvc = next(d for d in grader if d["kind"] == "PersistentVolumeClaim" and d["metadata"]["name"] == claim)
    assert pvc["spec"]["accessModes"] == ["ReadWriteMany"]
    deployment = next(d for d in grader if d["kind"] == "Deployment")
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert exchange in [m["mountPath"] for m in container["volumeMounts"]]
    service = next(d for d in grader if d["kind"] == "Service")
    assert values["hub"]["services"][course_id]["url"] == f"http://{service['metadata']['name']}:9999"
    assert {"name": "JUPYTERHUB_SERVICE_NAME", "value": course_id} in container["env"]


def test_helm_values_limit_each_student_and_cull_idle_servers():
    values = yaml.safe_load((K8S / "config.yaml").read_text())
    single = values["singleuser"]
    assert 0 < single["cpu"]["guarantee"] <= single["cpu"]["limit"]
    assert single["memory"]["guarantee"] and single["memory"]["limit"]
    assert values["cull"]["enabled"] is True and values["cull"]["timeout"] > 0
    assert values["hub"]["config"]["JupyterHub"]["authenticator_class"] not in ("dummy", "null")
