#!/usr/bin/env bash
# ArmLab quick start.
#
#   ./run.sh course   # set up .venv, make or update your working copy my-course/ and open it in JupyterLab
#   ./run.sh test     # set up .venv (with test extras), run the test suite with the static checks beside it
#   ./run.sh test --quick                  # the unit tests only (no process, network or browser; ~2 min)
#   ./run.sh test hw03_inverse_kinematics  # everything that grades one homework
#   ./run.sh bench [--check] [NAME ...]    # the benchmarks; --check: the limits on time, exit 1 if one is missed
#   ./run.sh classroom  # a demo class on 127.0.0.1: JupyterHub, nbgrader's exchange, the formgrader
#   ./run.sh student-edition DIR [--git]  # what students get: the course, the exercises, armlab as a wheel
#
# Both commands create or refresh a local virtualenv in .venv; re-runs skip the
# pip install step while .venv is newer than pyproject.toml.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"

VENV="$ROOT/.venv"
# the student's working copy of the course (deploy/working_copy.py; git ignores it) and the page it opens at
COURSE_COPY="${ARMLAB_COURSE_DIR:-$ROOT/my-course}"
START_PAGE="course/00_start_here.ipynb"
TEST_EXTRAS="course,lab,test,hub,scale"
TEST_EXTRAS_STAMP="${TEST_EXTRAS//,/-}"
HUB_DIR="$ROOT/deploy/hub"

export PIP_DEFAULT_TIMEOUT="${PIP_DEFAULT_TIMEOUT:-60}"
export PIP_DISABLE_PIP_VERSION_CHECK=1

say() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

usage() {
    cat >&2 <<'EOF'
Usage: ./run.sh COMMAND [ARGS...]

Commands:
  course [ARGS...]   Create/refresh .venv, install ArmLab with the course and lab extras, make
                     (first start) or update your working copy my-course/ of the course and the
                     homework (deploy/working_copy.py: your runs and edits stay yours, and git
                     ignores them) and open its course/00_start_here.ipynb in JupyterLab.
                     ARGS are passed to `jupyter lab` (e.g. --no-browser).
  test [ARGS...]     Create/refresh .venv, install the course, lab, test, hub and scale extras,
                     make sure Chromium is available for the browser tests and
                     configurable-http-proxy (npm ci in deploy/hub) for the hub test and
                     axe-core (npm ci in tests/browser) for the accessibility test,
                     then run `python -m pytest ARGS...`.
                     Without ARGS (the full run, and what CI runs through .ci/run) the
                     static checks below run beside pytest (their output comes when they
                     end, seconds in), and a failing check fails the run. pytest runs on
                     three processes (pytest-xdist: on two cores a third keeps the CPU busy
                     while the others wait for kernels, servers and the browser).
                     With ARGS (e.g. `./run.sh test tests/ik -q`) only pytest runs: a
                     developer iterating on some tests gets those tests.
  test --quick [ARGS...]
                     The unit tests only (-m unit: no process, network or browser), on two
                     processes.
  test hwNN_NAME [ARGS...]
                     Everything that grades homework hwNN_NAME (its release, its checkers, its
                     simulated students; --homework in tests/conftest.py), e.g.
                     `./run.sh test hw03_inverse_kinematics`.
  bench [--check] [NAME...]
                     Create/refresh .venv and run the benchmarks (bench/run.py): all, or
                     bench_NAME.py for each NAME. --check runs those that have limits, each
                     with --check, and exits 1 if a limit is missed.
  check              Create/refresh .venv and run only the static checks:
                       ruff check          lint (rules in pyproject.toml [tool.ruff])
                       ruff format --check formatting, without changing any file
                       mypy                types of lib/armlab (pyproject.toml [tool.mypy])
                     All three run and every failure is reported.
  classroom [ARGS...]
                     A demo class on 127.0.0.1: JupyterHub with an instructor, a TA and
                     three students, nbgrader's exchange and the formgrader service
                     (deploy/hub/classroom.py; --help for its options). As root every
                     person is a real OS user; otherwise see --shared-user.
  student-edition DIR [--git]
                     Build the student edition in DIR (deploy/student_edition.py): the course,
                     the released exercises, the errata and armlab as a wheel; no solutions,
                     hidden tests or gradebook (checked). --git commits it for nbgitpuller.

Environment:
  ARMLAB_PYTHON      Python interpreter used to create .venv (must be >= 3.11).
  ARMLAB_REINSTALL=1 Force the pip install step even if .venv looks up to date.
  ARMLAB_CHECKS=1|0  Run the static checks beside pytest even with ARGS (1), or skip
                     them on the full run (0). Default: run them only without ARGS.
  ARMLAB_COURSE_DIR  Where `course` keeps the working copy (default: my-course/ here).
EOF
}

# Print the first interpreter >= 3.11 that actually runs.
find_python() {
    local cand
    for cand in "${ARMLAB_PYTHON:-}" python3.13 python3.12 python3.11 python3; do
        [[ -n "$cand" ]] || continue
        command -v "$cand" >/dev/null 2>&1 || continue
        # pyenv shims exist for versions that are not active; actually run it.
        if "$cand" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
            >/dev/null 2>&1; then
            command -v "$cand"
            return 0
        fi
    done
    return 1
}

venv_ok() {
    [[ -x "$VENV/bin/python" ]] &&
        "$VENV/bin/python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
            >/dev/null 2>&1
}

ensure_venv() {
    if venv_ok; then
        return 0
    fi
    local py
    py="$(find_python)" ||
        die "no Python >= 3.11 found (tried python3.13, python3.12, python3.11, python3). Install one, or set ARMLAB_PYTHON=/path/to/python3.11."
    if [[ -e "$VENV" ]]; then
        say "existing .venv is broken or too old; recreating it"
        rm -rf "$VENV"
    fi
    say "creating .venv with $py ($("$py" -c 'import platform; print(platform.python_version())'))"
    "$py" -m venv "$VENV" || die "python -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)"
    "$VENV/bin/python" -m pip install -q --upgrade pip ||
        warn "could not upgrade pip in .venv; continuing with the bundled one"
}

# ensure_installed EXTRAS: pip install -e ".[EXTRAS]" unless a stamp says it is done.
ensure_installed() {
    local extras="$1"
    install_lab_settings
    local stamp="$VENV/.armlab-installed-${extras//,/-}"
    # The test stamp implies every other extra is installed as well.
    local s
    if [[ "${ARMLAB_REINSTALL:-0}" != 1 ]]; then
        for s in "$stamp" "$VENV/.armlab-installed-$TEST_EXTRAS_STAMP"; do
            if [[ -f "$s" && "$s" -nt pyproject.toml ]]; then
                say ".venv is up to date (delete $(basename "$s") or set ARMLAB_REINSTALL=1 to force)"
                return 0
            fi
        done
    fi
    say "installing armlab[$extras] into .venv (first run takes a few minutes)"
    local t0=$SECONDS
    "$VENV/bin/python" -m pip install -q -e ".[$extras]" ||
        die "pip install -e \".[$extras]\" failed (see above)"
    touch "$stamp"
    say "install done in $((SECONDS - t0)) s"
}

# The course's JupyterLab settings, where every JupyterLab of .venv reads them. A wheel installs them itself
# (pyproject.toml's data-files); an editable install does not, so they are copied at every run.
install_lab_settings() {
    local dir="$VENV/share/jupyter/lab/settings/overrides.d"
    mkdir -p "$dir" && cp "$ROOT/deploy/jupyterlab/armlab.json" "$dir/armlab.json" ||
        die "could not install the course's JupyterLab settings into $dir"
}

ensure_chromium() {
    local c
    for c in chromium chromium-browser; do
        if command -v "$c" >/dev/null 2>&1; then
            return 0
        fi
    done
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing Chromium for the browser tests (apt-get)"
        if DEBIAN_FRONTEND=noninteractive apt-get update -q &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; then
            return 0
        fi
        warn "apt-get install chromium failed"
    fi
    warn "no 'chromium' on PATH: the browser tests will be skipped locally (they fail under CI=true)."
    warn "install it with your package manager (e.g. 'sudo apt-get install chromium') to run them."
}

# A CJK font, so that the glossary's Chinese terms render (the browser test checks it); Debian's Noto CJK.
ensure_cjk_font() {
    if ! command -v fc-list >/dev/null 2>&1 || [[ -n "$(fc-list :lang=zh family 2>/dev/null | head -n 1)" ]]; then
        return 0
    fi
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing a CJK font for the glossary's Chinese terms (apt-get install fonts-noto-cjk)"
        if DEBIAN_FRONTEND=noninteractive apt-get update -q &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q fonts-noto-cjk; then
            return 0
        fi
        warn "apt-get install fonts-noto-cjk failed"
    fi
    warn "no CJK font: Chinese terms show as empty boxes and the glossary's browser test fails"
    warn "install one with your package manager (e.g. 'sudo apt-get install fonts-noto-cjk')."
}

# configurable-http-proxy, JupyterHub's proxy, from npm: `npm ci` in deploy/hub (package-lock.json pins it).
# ensure_proxy strict: die when it cannot be installed (classroom); otherwise warn (the hub test then skips
# locally and fails under CI=true).
ensure_proxy() {
    local strict="${1:-}"
    local chp="$HUB_DIR/node_modules/.bin/configurable-http-proxy"
    if [[ -x "$chp" && "$HUB_DIR/node_modules/.package-lock.json" -nt "$HUB_DIR/package-lock.json" ]]; then
        return 0
    fi
    if ! command -v npm >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing Node.js and npm for configurable-http-proxy (apt-get)"
        DEBIAN_FRONTEND=noninteractive apt-get update -q &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm || warn "apt-get install nodejs npm failed"
    fi
    if ! command -v npm >/dev/null 2>&1; then
        local msg="no 'npm' on PATH: configurable-http-proxy (JupyterHub's proxy) cannot be installed; install Node.js >= 18 and npm"
        [[ -n "$strict" ]] && die "$msg"
        warn "$msg (the hub test is skipped locally and fails under CI=true)"
        return 0
    fi
    say "installing configurable-http-proxy into deploy/hub/node_modules (npm ci)"
    if ! (cd "$HUB_DIR" && npm ci --no-audit --no-fund --loglevel=error); then
        [[ -n "$strict" ]] && die "npm ci in deploy/hub failed (see above)"
        warn "npm ci in deploy/hub failed: the hub test is skipped locally and fails under CI=true"
    fi
}

# axe-core for the accessibility test in the browser (tests/browser/package.json, npm ci); without npm the
# test is skipped locally and fails under CI=true. npm itself comes with ensure_proxy's apt-get step.
ensure_axe() {
    local dir="$ROOT/tests/browser"
    if [[ -f "$dir/node_modules/axe-core/axe.min.js" && "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]]; then
        return 0
    fi
    if ! command -v npm >/dev/null 2>&1; then
        warn "no 'npm' on PATH: axe-core cannot be installed (the accessibility test is skipped locally and fails under CI=true)"
        return 0
    fi
    say "installing axe-core into tests/browser/node_modules (npm ci)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
        warn "npm ci in tests/browser failed: the accessibility test is skipped locally and fails under CI=true"
}

activate_venv() {
    # nbgrader shells out to the venv's `alembic`, so .venv/bin must come first on PATH.
    export VIRTUAL_ENV="$VENV"
    export PATH="$VENV/bin:$PATH"
    unset PYTHONHOME
}

cmd_course() {
    ensure_venv
    ensure_installed course,lab
    activate_venv
    # JupyterLab serves a working copy, never the tracked notebooks: a student's runs and edits then never
    # change a tracked file, so a `git pull` of a course update cannot conflict with them
    "$VENV/bin/python" "$ROOT/deploy/working_copy.py" "$COURSE_COPY" ||
        die "could not make or update the working copy $COURSE_COPY (see above)"
    local lab_args=("--ServerApp.root_dir=$COURSE_COPY")
    if [[ -f "$COURSE_COPY/$START_PAGE" ]]; then
        # the URL printed and opened is the start page, in a file browser showing the course
        lab_args+=("--LabApp.default_url=/lab/tree/$START_PAGE")
    fi
    if [[ "$(id -u)" == 0 ]]; then
        lab_args+=(--allow-root) # containers often run as root; jupyter refuses that by default
    fi
    # kernel messages reach the browser at once, not after a 40 ms delayed ACK (armlab/viz/server.py)
    lab_args+=(--ServerApp.kernel_websocket_connection_class=armlab.viz.server.NoDelayKernelConnection)
    # a student's Lab: nbgrader's student tools, not the formgrader (deploy/jupyterlab/student/README.md)
    export JUPYTER_CONFIG_PATH="$ROOT/deploy/jupyterlab/student${JUPYTER_CONFIG_PATH:+:$JUPYTER_CONFIG_PATH}"
    say "starting JupyterLab on $COURSE_COPY (Ctrl-C to stop)"
    cd "$COURSE_COPY" # nbgrader's Validate button looks for its course directory here
    exec "$VENV/bin/jupyter" lab "${lab_args[@]}" "$@"
}

# run_checks: ruff check, ruff format --check and mypy; all run, any failure fails.
run_checks() {
    local failed=()
    say "static check: ruff check"
    "$VENV/bin/python" -m ruff check || failed+=("ruff check")
    say "static check: ruff format --check"
    "$VENV/bin/python" -m ruff format --check || failed+=("ruff format --check (run 'ruff format' to fix)")
    say "static check: mypy (lib/armlab)"
    "$VENV/bin/python" -m mypy || failed+=("mypy")
    if ((${#failed[@]})); then
        local f
        for f in "${failed[@]}"; do
            printf 'FAILED: %s\n' "$f" >&2
        done
        return 1
    fi
    say "static checks passed"
}

cmd_check() {
    ensure_venv
    ensure_installed "$TEST_EXTRAS"
    activate_venv
    run_checks || die "static checks failed (see above)"
}

# armlab's own modules byte-compiled once: pip compiles what it installs, not an editable project, and with
# PYTHONDONTWRITEBYTECODE set each of a test run's hundreds of kernels and processes would compile them again.
compile_lib() {
    "$VENV/bin/python" -m compileall -q "$ROOT/lib" >/dev/null || warn "could not byte-compile lib/"
}

cmd_test() {
    ensure_venv
    ensure_installed "$TEST_EXTRAS"
    ensure_chromium
    ensure_cjk_font
    ensure_proxy
    ensure_axe
    activate_venv
    compile_lib
    local checks="${ARMLAB_CHECKS:-}"
    if [[ -z "$checks" ]]; then
        checks=$(($# == 0))
    fi
    local args=("$@")
    if (($# == 0)); then
        args=(-n 3 --dist loadgroup) # the browser tests share a worker; each integration module stays on one
    elif [[ "$1" == --quick ]]; then
        args=(-m unit -n 2 "${@:2}")
    elif [[ "$1" =~ ^hw[0-9][0-9]_[a-z_]+$ ]]; then
        [[ -d "$ROOT/solutions/$1" ]] || die "no homework $1 in solutions/ (there are: $(ls "$ROOT/solutions" | tr '\n' ' '))"
        args=(--homework "$1" "${@:2}")
    fi
    if [[ "$checks" == 1 ]]; then
        pytest_beside_checks "${args[@]}"
        return
    fi
    say "running: python -m pytest ${args[*]}"
    exec "$VENV/bin/python" -m pytest "${args[@]}"
}

# pytest_beside_checks ARGS: pytest, with the static checks beside it (some 15 s, mypy's most of it; pytest's start
# leaves a core free). Their output is held until they end, seconds into pytest's; a failing check fails the run
# whatever pytest says, and pytest still runs to its end, so that one run reports both.
pytest_beside_checks() {
    local held rc=0
    held="$(mktemp)" || die "mktemp failed"
    (
        set +e
        run_checks >"$held" 2>&1
        ok=$?
        cat "$held" >&2
        exit "$ok"
    ) &
    local checks=$!
    say "running: python -m pytest $* (the static checks beside it)"
    "$VENV/bin/python" -m pytest "$@" || rc=$?
    if ! wait "$checks"; then
        rm -f "$held"
        die "static checks failed (see above, near pytest's start); pytest exited with $rc. './run.sh check' runs them alone."
    fi
    rm -f "$held"
    return "$rc"
}

cmd_bench() {
    ensure_venv
    ensure_installed "$TEST_EXTRAS"
    activate_venv
    exec "$VENV/bin/python" "$ROOT/bench/run.py" "$@"
}

cmd_student_edition() {
    ensure_venv
    ensure_installed course,lab
    activate_venv
    exec "$VENV/bin/python" "$ROOT/deploy/student_edition.py" "$@"
}

cmd_classroom() {
    ensure_venv
    ensure_installed course,lab,hub
    ensure_proxy strict
    activate_venv
    exec "$VENV/bin/python" "$ROOT/deploy/hub/classroom.py" "$@"
}

main() {
    if [[ $# -eq 0 ]]; then
        usage
        exit 2
    fi
    local cmd="$1"
    shift
    case "$cmd" in
        course) cmd_course "$@" ;;
        test) cmd_test "$@" ;;
        bench) cmd_bench "$@" ;;
        check) cmd_check "$@" ;;
        classroom) cmd_classroom "$@" ;;
        student-edition) cmd_student_edition "$@" ;;
        -h | --help | help) usage ;;
        *)
            printf 'Unknown command: %s\n\n' "$cmd" >&2
            usage
            exit 2
            ;;
    esac
}

# (sourced, e.g. by tests/core/test_run_sh.py, it only defines the functions)
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
