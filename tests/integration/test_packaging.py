"""Packaging and setup checks.

(a) environment.yml (conda) and pyproject.toml (pip) list the same packages;
(b) `import armlab` does not drag in sympy, matplotlib, widgets, websockets or dask (how fast it is:
    bench/bench_kinematics.py --check);
(c) CI runs the README's test command;
(d) the course's JupyterLab settings are settings JupyterLab knows, and this environment's JupyterLab reads them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]

# PyPI name -> conda-forge name, where they differ.
PYPI_TO_CONDA = {
    "pin": "pinocchio",
    "playwright": "playwright-python",
}
CONDA_TO_PYPI = {v: k for k, v in PYPI_TO_CONDA.items()}
EXTRAS = ("course", "lab", "hub", "scale", "test")
CONDA_ONLY = {"python", "pip"}


# ----------------------------------------------------------------------------
# A minimal parser for environment.yml: top-level keys holding a scalar or a
# list of scalars, plus one nested `- pip:` list. That is all the file uses.
# ----------------------------------------------------------------------------
def _strip_comment(line: str) -> str:
    if line.lstrip().startswith("#"):
        return ""
    return re.split(r"\s+#", line, maxsplit=1)[0].rstrip()


def parse_environment_yml(text: str) -> dict:
    data: dict = {}
    key = None
    pip_list = None
    pip_indent = -1
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw)
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        body = line.strip()
        if indent == 0:
            pip_list = None
            m = re.fullmatch(r"([A-Za-z_][\w-]*):\s*(.*)", body)
            assert m, f"environment.yml:{lineno}: cannot parse {raw!r}"
            key, value = m.group(1), m.group(2)
            data[key] = value if value else []
            continue
        assert body.startswith("- "), f"environment.yml:{lineno}: expected a list item: {raw!r}"
        item = body[2:].strip()
        if pip_list is not None and indent > pip_indent:
            pip_list.append(item)
            continue
        pip_list = None
        assert isinstance(data.get(key), list), f"environment.yml:{lineno}: item outside a list"
        if item == "pip:":
            pip_list = []
            pip_indent = indent
            data[key].append({"pip": pip_list})
        else:
            data[key].append(item)
    return data


def _conda_spec(spec: str) -> tuple[str, SpecifierSet]:
    m = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.*)", spec.strip())
    assert m, f"cannot parse conda spec {spec!r}"
    name, version = m.group(1), m.group(2).replace(" ", "")
    return canonicalize_name(name), SpecifierSet(version)


def _bounds(spec: SpecifierSet) -> tuple[Version | None, Version | None]:
    lower = upper = None
    for s in spec:
        if s.operator in (">=", ">", "~=", "=="):
            lower = Version(s.version.rstrip(".*"))
        if s.operator in ("<", "<="):
            upper = Version(s.version)
    return lower, upper


def _pyproject_requirements() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in EXTRAS:
        reqs += project["optional-dependencies"][extra]
    out = {}
    for r in map(Requirement, reqs):
        out[canonicalize_name(r.name)] = r
    return out


def _environment() -> tuple[dict, dict[str, SpecifierSet], list[str]]:
    """(parsed yml, {PyPI name: specifier}, pip lines that are not requirements)."""
    env = parse_environment_yml((ROOT / "environment.yml").read_text())
    listed: dict[str, SpecifierSet] = {}
    pip_other: list[str] = []
    for dep in env.get("dependencies", []):
        if isinstance(dep, dict):
            for line in dep["pip"]:
                if line.startswith("-"):
                    pip_other.append(line)
                    continue
                r = Requirement(line)
                listed[canonicalize_name(r.name)] = r.specifier
            continue
        name, spec = _conda_spec(dep)
        listed[CONDA_TO_PYPI.get(name, name)] = spec
    return env, listed, pip_other


def test_minimal_yaml_parser_agrees_with_pyyaml():
    yaml = pytest.importorskip("yaml")
    text = (ROOT / "environment.yml").read_text()
    assert parse_environment_yml(text) == yaml.safe_load(text)


def test_environment_yml_header():
    env, listed, pip_other = _environment()
    assert env.get("name") == "armlab"
    assert "conda-forge" in env.get("channels", [])
    assert "python" in listed and _bounds(listed["python"])[0] >= Version("3.11"), "need python>=3.11"
    assert "pip" in listed, "environment.yml should list pip (for the `pip:` section)"
    assert pip_other == ["-e ."], "the pip section should install armlab itself with `-e .`"


def test_environment_yml_lists_every_requirement():
    _, listed, _ = _environment()
    missing = []
    for name in _pyproject_requirements():
        if name not in listed:
            missing.append(f"{name} (conda: {PYPI_TO_CONDA.get(name, name)})")
    assert not missing, f"in pyproject.toml but not in environment.yml: {missing}"


def test_environment_yml_has_nothing_extra():
    _, listed, _ = _environment()
    known = set(_pyproject_requirements()) | CONDA_ONLY
    extra = sorted(set(listed) - known)
    assert not extra, f"in environment.yml but not in pyproject.toml: {extra}"


def test_version_bounds_agree():
    _, listed, _ = _environment()
    mismatches = []
    for name, req in _pyproject_requirements().items():
        if name not in listed:
            continue  # reported by test_environment_yml_lists_every_requirement
        (plo, pup), (elo, eup) = _bounds(req.specifier), _bounds(listed[name])
        if plo is not None and elo is not None and plo != elo:
            mismatches.append(f"{name}: lower bound {plo} (pyproject) vs {elo} (environment.yml)")
        if pup is not None and eup is not None and pup != eup:
            mismatches.append(f"{name}: upper bound {pup} (pyproject) vs {eup} (environment.yml)")
    assert not mismatches, "\n".join(mismatches)


# ----------------------------------------------------------------------------
# import armlab: fast and light
# ----------------------------------------------------------------------------
def _subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "lib"), env.get("PYTHONPATH")]))
    return env


def test_import_armlab_does_not_load_heavy_modules(tmp_path):
    heavy = ("sympy", "matplotlib", "ipywidgets", "anywidget", "websockets", "dask", "distributed", "casadi", "numba")
    code = f"import sys, armlab; print(','.join(sorted(m for m in {heavy!r} if m in sys.modules)))"
    out = subprocess.run(
        [os.path.abspath(sys.executable), "-c", code],
        env=_subprocess_env(),
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.strip()
    assert out == "", f"`import armlab` imported: {out}"


# ----------------------------------------------------------------------------
# CI and README use the same two commands
# ----------------------------------------------------------------------------
def test_ci_runs_the_readme_test_command():
    ci = ROOT / ".ci" / "run"
    assert os.access(ci, os.X_OK), ".ci/run must be executable"
    lines = [ln.strip() for ln in ci.read_text().splitlines()]
    assert lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in lines
    assert "./run.sh test" in lines


def test_run_sh_is_executable_and_prints_usage():
    run = ROOT / "run.sh"
    assert os.access(run, os.X_OK), "run.sh must be executable"
    proc = subprocess.run(["bash", str(run)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "./run.sh" in proc.stderr and "course" in proc.stderr and "test" in proc.stderr


def test_readme_documents_both_commands():
    text = (ROOT / "README.md").read_text()
    for cmd in ("./run.sh course", "./run.sh test"):
        assert cmd in text, f"README.md should show `{cmd}`"


# ----------------------------------------------------------------------------
# the course's JupyterLab settings (deploy/jupyterlab/armlab.json)
# ----------------------------------------------------------------------------
LAB_SETTINGS = ROOT / "deploy" / "jupyterlab" / "armlab.json"


def test_course_jupyterlab_settings_are_valid_settings_of_the_installed_jupyterlab():
    """Each plugin's settings validate against that plugin's schema: a misspelt key or value would be ignored."""
    jsonschema = pytest.importorskip("jsonschema")
    lab = pytest.importorskip("jupyterlab.commands")
    schemas = Path(lab.get_app_dir()) / "schemas"
    for plugin, settings in json.loads(LAB_SETTINGS.read_text()).items():
        package, _, name = plugin.partition(":")
        schema = json.loads((schemas / package / f"{name}.json").read_text())
        unknown = set(settings) - set(schema["properties"])
        assert not unknown, f"{plugin}: no such settings {sorted(unknown)}"
        jsonschema.validate(settings, schema)


def test_this_environments_jupyterlab_reads_the_course_settings():
    """JupyterLab takes default settings from overrides.d in its application directory: a wheel installs the file
    there (pyproject.toml's data-files), ./run.sh copies it for the editable install."""
    lab = pytest.importorskip("jupyterlab.commands")
    installed = Path(lab.get_app_dir()) / "settings" / "overrides.d" / "armlab.json"
    assert installed.is_file(), f"{installed} is missing: run ./run.sh test (it installs the course's settings)"
    assert json.loads(installed.read_text()) == json.loads(LAB_SETTINGS.read_text()), f"{installed} is out of date"
