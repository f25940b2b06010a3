"""The batch grader's forked kernels (armlab.autograde.forked_kernels): each is a new process that sees what a
kernel started by jupyter_client sees, and dies, is interrupted and shuts down as one does."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest

fk = pytest.importorskip("armlab.autograde.forked_kernels")
pytestmark = [
    pytest.mark.integration,  # starts kernels
    pytest.mark.skipif(not fk.available(), reason="forked kernels need os.fork and os.pidfd_open (Linux)"),
]

PROBE = (  # matplotlib's backend: the template imports pyplot before ipykernel would have chosen it
    "import json, os, sys, threading, numpy, matplotlib.pyplot\n"
    "print(json.dumps({'cwd': os.getcwd(), 'argv': sys.argv[:-1], 'path': sys.path, 'env': dict(os.environ),"
    " 'backend': matplotlib.get_backend(),"
    " 'executable': sys.executable, 'stdin': type(sys.stdin).__name__, 'rand': numpy.random.rand(),"
    " 'pid': os.getpid()}))"
)


async def _started(cls, cwd, timeout=30):
    """A kernel started with manager class ``cls`` in ``cwd``, ready: (manager, client with channels open)."""
    km = cls(kernel_name="python3")
    await km.start_kernel(cwd=str(cwd))
    kc = km.client()
    kc.start_channels()
    await kc.wait_for_ready(timeout=timeout)
    return km, kc


async def _run(cls, code, cwd, timeout=30):
    """Start a kernel with ``cls``, run ``code``, return (stdout, reply status, manager) with the kernel still up."""
    km, kc = await _started(cls, cwd, timeout)
    out: list[str] = []

    def hook(msg):
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])

    reply = await kc.execute_interactive(code, output_hook=hook, timeout=timeout)
    kc.stop_channels()
    return "".join(out), reply["content"]["status"], km


async def _dead_within(km, seconds):
    """Wait until the manager's kernel is dead, or ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while await km.is_alive() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


def _probe(cls, cwd):
    async def go():
        text, status, km = await _run(cls, PROBE, cwd)
        await km.shutdown_kernel(now=True)
        return json.loads(text)

    return asyncio.run(go())


def test_a_forked_kernel_sees_what_a_started_kernel_sees(tmp_path):
    from jupyter_client.manager import AsyncKernelManager

    started = _probe(AsyncKernelManager, tmp_path)
    forked = [_probe(fk.ForkedKernelManager, tmp_path) for _ in range(2)]
    same = ("cwd", "argv", "path", "env", "executable", "stdin", "backend")
    for view in forked:
        assert {k: view[k] for k in same} == {k: started[k] for k in same}
    assert forked[0]["pid"] != forked[1]["pid"] != started["pid"]  # a process of its own, every time
    assert forked[0]["rand"] != forked[1]["rand"]  # fresh entropy, not the template's random state


def test_a_forked_kernel_that_exits_is_seen_dead(tmp_path):
    async def go():
        km, kc = await _started(fk.ForkedKernelManager, tmp_path)
        kc.execute("import os; os._exit(3)")
        await _dead_within(km, 10)
        kc.stop_channels()
        dead = not await km.is_alive()
        await km.shutdown_kernel(now=True)
        return dead

    assert asyncio.run(go())


def test_a_forked_kernel_is_interrupted_and_shut_down(tmp_path):
    async def go():
        km, kc = await _started(fk.ForkedKernelManager, tmp_path)
        msg_id = kc.execute("while True: pass")
        await asyncio.sleep(0.5)
        await km.interrupt_kernel()  # SIGINT to its process group, as for a started kernel
        reply = await kc.get_shell_msg(timeout=10)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = await kc.get_shell_msg(timeout=10)
        pid = km.provisioner.pid
        kc.stop_channels()
        await km.shutdown_kernel()
        return reply["content"], pid

    content, pid = asyncio.run(go())
    assert content["status"] == "error" and content["ename"] == "KeyboardInterrupt"
    status = Path(f"/proc/{pid}/status")
    assert not status.exists() or "zombie" in status.read_text()  # gone (the template reaps it at its next fork)


def test_a_kernel_that_kills_its_parent_takes_only_the_template_down(tmp_path):
    async def go():
        with fk.watch_template() as died:
            km, kc = await _started(fk.ForkedKernelManager, tmp_path)
            status = Path(f"/proc/{km.provisioner.pid}/status").read_text()
            parent = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))
            # no reply is awaited: whether the kernel gets one out before it dies with its parent is a race
            kc.execute("import os, signal; os.kill(os.getppid(), signal.SIGKILL)")
            await _dead_within(km, 10)
            kc.stop_channels()
            alive = await km.is_alive()
            await km.shutdown_kernel(now=True)
        return parent, alive, died

    parent, alive, died = asyncio.run(go())
    assert parent != os.getpid()  # the template, not this (grading worker) process, which lives on
    assert not alive and died == [True]  # the kernel died with its parent, and the batch can tell
    _, status, km = asyncio.run(_run(fk.ForkedKernelManager, "x = 1", tmp_path))  # a new template serves the next
    asyncio.run(km.shutdown_kernel(now=True))
    assert status == "ok"
