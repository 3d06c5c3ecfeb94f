"""Child processes for kill -9, forked from one process that has already imported them:
    python -m tests.pit.forks MODULE
imports MODULE (and what its main() imports on the way), then for every line on its stdin
(a JSON list: the child's arguments) forks a child that runs MODULE.main() with them as
sys.argv[1:], says `pid N`, waits for it and says `exit CODE` (as Popen's returncode: minus
the signal's number when a signal ended it). Each child is a whole process of its own, with
its own files, sockets and database connections, opened after the fork; what the kill -9
tests no longer pay for every trial is Python starting and importing the pit and the sync
again (most of a trial's time)."""

from __future__ import annotations

import importlib
import json
import os
import select
import signal
import subprocess
import sys
import traceback
from pathlib import Path

# What the children's main() imports only once it runs, imported here before any fork.
PRELOAD = ("uvicorn", "pit.app", "pit.cli", "pit.db", "psycopg", "httpx")


class Forked:
    """One forked child, with what the tests use of subprocess.Popen: pid, poll(), wait(),
    kill(), returncode."""

    def __init__(self, server: ForkServer, pid: int) -> None:
        self._server = server
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self._server._status(self, block=False)
        return self.returncode

    def wait(self) -> int:
        while self.returncode is None:
            self._server._status(self, block=True)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)


class ForkServer:
    """The process the children are forked from; one child at a time."""

    def __init__(self, module: str, env: dict[str, str], cwd: Path, *,
                 quiet: bool = False) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "tests.pit.forks", module], env=env, cwd=cwd,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,  # poll() selects
            stderr=subprocess.DEVNULL if quiet else None)
        self._child: Forked | None = None

    def _line(self, block: bool) -> str | None:
        assert self._proc.stdout is not None
        if not block and not select.select([self._proc.stdout], [], [], 0)[0]:
            return None
        line = self._proc.stdout.readline().decode()
        if not line:
            raise RuntimeError(f"the fork server ended with {self._proc.wait()}")
        return line

    def spawn(self, args: list[str]) -> Forked:
        assert self._child is None or self._child.returncode is not None, "one at a time"
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(args).encode() + b"\n")
        self._proc.stdin.flush()
        word, pid = (self._line(block=True) or "").split()
        assert word == "pid", word
        self._child = Forked(self, int(pid))
        return self._child

    def _status(self, child: Forked, block: bool) -> None:
        line = self._line(block)
        if line is not None:
            word, code = line.split()
            assert word == "exit", word
            child.returncode = int(code)

    def close(self) -> None:
        if self._child is not None and self._child.returncode is None:
            self._child.kill()
            self._child.wait()
        assert self._proc.stdin is not None
        self._proc.stdin.close()
        try:
            self._proc.wait(30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()

    def __enter__(self) -> ForkServer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def _run_child(module: str, args: list[str]) -> None:
    """In the forked child: run the module's main() and end the process, never returning."""
    code = 0
    try:
        os.dup2(2, 1)  # stdout is the server's line to the test: the child writes to stderr
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # and its stdin is the test's to it
        sys.argv = [module, *args]
        importlib.import_module(module).main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main() -> None:
    module = sys.argv[1]
    importlib.import_module(module)
    for name in PRELOAD:
        importlib.import_module(name)
    out = sys.stdout
    for line in sys.stdin:
        args = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _run_child(module, args)
        out.write(f"pid {pid}\n")
        out.flush()
        _pid, status = os.waitpid(pid, 0)
        out.write(f"exit {os.waitstatus_to_exitcode(status)}\n")
        out.flush()


if __name__ == "__main__":
    main()
