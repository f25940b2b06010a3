"""Kernels forked from a warm template process: the batch grader's cut of the per-notebook overhead.

Every notebook nbgrader autogrades gets a new kernel process; starting one costs about 0.7 s (Python,
IPython, ipykernel) and the notebook's first cell another 0.6 s (numpy, sympy, armlab, pyplot), on every one of
hundreds of submissions. Here a template process imports all of that once, then **forks** one child per
kernel: the child is a new process that no other submission has touched (its own memory, copy-on-write
from a template that never ran student code), so no kernel is shared between students. The child then
becomes exactly the kernel that the kernelspec's ``python -m ipykernel_launcher -f CONNECTION_FILE`` would
start: the same argv, environment, working directory, ``sys.path`` and a freshly seeded numpy.

``ForkedKernelManager`` is an ``AsyncKernelManager`` whose ``_async_launch_kernel`` (the hook jupyter_client
provides for launching differently) asks this process's template for the child; everything else
(connection files, CurveZMQ keys, interrupts, shutdown, a kernel that dies) is jupyter_client's own. Kernels
that are not ipykernel, and systems without ``os.fork`` and ``os.pidfd_open`` (Linux only), start normally.
The batch grader turns it on for its workers (``Execute.kernel_manager_class``); ``nbgrader autograde``
itself is unchanged.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

from jupyter_client.manager import AsyncKernelManager


__all__ = [
    "PRELOAD",
    "ForkedKernelManager",
    "available",
    "close_template",
    "fork_kernels",
    "template",
    "watch_template",
]

#: What the template imports before forking: the kernel itself and what every homework's first cell imports.
PRELOAD = ("ipykernel.kernelapp", "numpy", "sympy", "armlab", "matplotlib.pyplot", "matplotlib_inline.backend_inline")

# The template's program (run with ``python -c``, so that neither the template nor a child carries
# anything of this package but what PRELOAD imports). One JSON request per line on stdin; for each, fork,
# and answer the child's pid on stdout. The child never returns into the loop.
_TEMPLATE = r"""
import ctypes, json, os, signal, sys
if sys.path and sys.path[0] == "":  # as ipykernel_launcher does before it imports anything
    del sys.path[0]
if not os.environ.get("MPLBACKEND"):  # as ipykernel sets it: matplotlib reads it when it is imported
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
for name in sys.argv[1:]:
    __import__(name)
import threading
assert threading.active_count() == 1, "the template must not fork with threads running"
replies, template = sys.stdout.buffer, os.getpid()
for line in sys.stdin.buffer:
    request = json.loads(line)
    while True:  # reap the kernels that have exited
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    sys.stdout.flush(); sys.stderr.flush()
    pid = os.fork()
    if pid:
        replies.write(b"%d\n" % pid); replies.flush()
        continue
    code = 1
    try:
        os.setsid()  # its own process group, as jupyter_client's launcher gives a kernel
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: it dies with the template
        if os.getppid() != template:
            os._exit(1)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0); os.close(null)
        os.dup2(2, 1)  # the template's stdout is its reply pipe
        sys.stdin = open(os.devnull)
        os.chdir(request["cwd"])
        sys.argv = request["argv"]
        if "numpy" in sys.modules:  # a new process draws fresh entropy; a forked one would repeat the template's
            sys.modules["numpy"].random.seed()
        from ipykernel import kernelapp
        kernelapp.launch_new_instance(argv=sys.argv[1:])
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 0
    finally:
        import atexit
        atexit._run_exitfuncs()
        os._exit(code)
"""


def available() -> bool:
    """Whether kernels can be forked here (a POSIX fork and Linux's pidfd, to watch a kernel that is not our child)."""
    return hasattr(os, "fork") and hasattr(os, "pidfd_open")


class _ForkedProcess:
    """The ``Popen`` face of a forked kernel for jupyter_client: pid, poll, wait, signals.

    The kernel is the template's child, not ours, so its exit is watched through a pidfd; its exit status
    stays with the template (reported as -1)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._fd: int | None = None
        try:
            self._fd = os.pidfd_open(pid)
        except ProcessLookupError:  # it died at once, and the template has reaped it
            self.returncode = -1

    def poll(self) -> int | None:
        if self.returncode is None and self._fd is not None and select.select([self._fd], [], [], 0)[0]:
            self.returncode = -1
            os.close(self._fd)
            self._fd = None
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if end is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0.0)
            time.sleep(0.01)
        return -1

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class _Template:
    """A warm template process, started with the environment its kernels get (modules read it on import)."""

    def __init__(self, preload: tuple[str, ...], env: dict[str, str]) -> None:
        self.preload, self.env = preload, env
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _TEMPLATE, *preload], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        )
        self.lock = threading.Lock()

    def fork(self, argv: list[str], cwd: str) -> _ForkedProcess:
        request = json.dumps({"argv": argv, "cwd": cwd}).encode() + b"\n"
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with self.lock:  # held until the pidfd is open: the template reaps only at its next request
            self.proc.stdin.write(request)
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the kernel template exited ({self.proc.wait()})")
            return _ForkedProcess(int(line))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()  # the template's loop ends at EOF
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(5)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


_template: _Template | None = None
_template_lock = threading.Lock()


def template(env: dict[str, str], preload: tuple[str, ...] = PRELOAD) -> _Template:
    """This process's template for kernels with environment ``env``: started on first use, and again if it
    died (a grading deadline kills it with the kernel it was watching) or the environment changed."""
    global _template
    with _template_lock:
        if (
            _template is None
            or _template.proc.poll() is not None
            or (_template.env, _template.preload)
            != (
                env,
                preload,
            )
        ):
            if _template is not None:
                _template.close()
            _template = _Template(preload, env)
        return _template


@atexit.register  # closed when this process exits, not left to the garbage collector
def close_template() -> None:
    """End this process's kernel template, if it has one (the next kernel starts a new one)."""
    global _template
    with _template_lock:
        if _template is not None:
            _template.close()
            _template = None


@contextlib.contextmanager
def watch_template() -> Iterator[list[bool]]:
    """A block that notices whether a template it used died in it (a kernel killed its parent): the list it
    yields holds True afterwards if so."""
    start = _template
    alive = start is not None and start.proc.poll() is None
    died: list[bool] = []
    yield died
    now = _template
    if now is not None and now.proc.poll() is not None and (now is not start or alive):
        died.append(True)


def _ipykernel_argv(cmd: list[str]) -> list[str] | None:
    """``python -m ipykernel_launcher ARGS`` as the argv that process would see, or None for another kernel."""
    if (
        len(cmd) >= 3
        and cmd[1:3] == ["-m", "ipykernel_launcher"]
        and os.path.realpath(cmd[0]) == os.path.realpath(sys.executable)
    ):
        import ipykernel_launcher

        return [str(ipykernel_launcher.__file__), *cmd[3:]]
    return None


class ForkedKernelManager(AsyncKernelManager):
    """An ``AsyncKernelManager`` whose ipykernel kernels are forked from the warm template (module docstring)."""

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        argv = _ipykernel_argv(kernel_cmd)
        provisioner = self.provisioner
        if argv is None or not available() or type(provisioner).__name__ != "LocalProvisioner":
            return await super()._async_launch_kernel(kernel_cmd, **kw)
        assert provisioner is not None
        env = dict(kw.get("env") or os.environ)
        env["JPY_PARENT_PID"] = str(os.getpid())  # as jupyter_client's launcher sets it
        cwd = str(kw.get("cwd") or os.getcwd())
        process = template(env).fork(argv, cwd)
        provisioner.process = process  # type: ignore[attr-defined]
        provisioner.pid = provisioner.pgid = process.pid  # type: ignore[attr-defined]
        provisioner.cwd = cwd  # type: ignore[attr-defined]
        self._reconcile_connection_info(provisioner.connection_info)


@functools.cache
def _forked_execute() -> type:
    from nbgrader.preprocessors import Execute

    class ForkedExecute(Execute):
        """nbgrader's Execute (configured as ``Execute``) with its kernels forked from the template."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("kernel_manager_class", ForkedKernelManager)
            super().__init__(*args, **kwargs)

    return ForkedExecute


def fork_kernels(config: Any) -> None:
    """Make nbgrader's autograde in this process fork its kernels (``config``: the course's traitlets
    Config, changed in place): nbgrader's ``Execute`` in the autograde preprocessors becomes a subclass
    that differs only in its kernel manager. Nothing changes where kernels cannot be forked."""
    if not available():
        return
    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import Execute

    section = config.Autograde
    current = section.autograde_preprocessors if "autograde_preprocessors" in section else None
    pre = list(current or Autograde.class_traits()["autograde_preprocessors"].default())
    forked = _forked_execute()
    section.autograde_preprocessors = [forked if p is Execute else p for p in pre]
