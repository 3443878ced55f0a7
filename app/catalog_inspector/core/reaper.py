"""A stdio server's reaper: the process between the inspector and one server, the subreaper of its tree (Linux).

    python -I -S reaper.py STATUS_FD -- COMMAND [ARG...]

It marks itself a child subreaper, starts the server as its child (same stdio, same
environment, same working directory) and stays until the server exits. Any descendant
of the server that is orphaned, however short-lived its parent was (fork, setsid, fork,
the middle exiting at once), becomes this process's child: it cannot leave the tree, so a
walk from here finds it, and nothing outside this server's tree is ever in it. When the
server exits, everything left below is killed (SIGKILL, generation by generation, each
reaped here) and this process exits with the server's status: an exit code as its own,
a signal by dying of the same signal.

It ignores SIGTERM, SIGINT, SIGHUP and SIGQUIT (the server gets them; this process has to
outlive it) and lets go of the server's stdout and stderr, so the pipes still end when the
server's side does. Orphans are reaped as they die, so none piles up as a zombie.

STATUS_FD gets one line: `+PID` once the server runs, `-ERRNO` when it could not be
executed (then this process exits 127). Nothing at all means this program itself could
not run: the caller starts the server without it.

Standard library only, imported by nothing: it runs without site-packages (`-S`).
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
from contextlib import suppress

PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>
OUTLIVED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)
# Ignored dispositions survive exec: the server gets the defaults back (`subprocess` restores these too).
RESTORED = (*OUTLIVED, signal.SIGPIPE, signal.SIGXFSZ)


def _subreaper() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _start(argv: list[str]) -> tuple[int, int]:
    """Fork and exec the server; returns (pid, 0), or (pid, errno) when the exec failed."""
    verdict_read, verdict_write = os.pipe2(os.O_CLOEXEC)  # closed by a successful exec: EOF says it ran
    pid = os.fork()
    if pid == 0:
        try:
            os.close(verdict_read)
            for sig in RESTORED:
                signal.signal(sig, signal.SIG_DFL)
            os.execvp(argv[0], argv)
        except OSError as exc:
            os.write(verdict_write, str(exc.errno or 0).encode())
        finally:
            os._exit(127)
    os.close(verdict_write)
    with os.fdopen(verdict_read, "rb") as verdict:
        failed = verdict.read()
    return pid, int(failed) if failed else 0


def _children() -> list[int]:
    # `children` needs CONFIG_PROC_CHILDREN; without it every process's parent is read instead.
    me = os.getpid()
    with suppress(OSError, ValueError):
        with open(f"/proc/{me}/task/{me}/children") as handle:
            return [int(pid) for pid in handle.read().split()]
    found: list[int] = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            with suppress(OSError, ValueError, IndexError), open(f"/proc/{name}/stat", "rb") as handle:
                if int(handle.read().rsplit(b")", 1)[1].split()[1]) == me:
                    found.append(int(name))
    return found


def _kill_the_rest() -> None:
    """SIGKILL every process left below this one until none is: the orphans of a killed one come here next."""
    while kids := _children():
        for pid in kids:
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with suppress(ChildProcessError):
            os.waitpid(-1, 0)
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass


def _exit_as(status: int) -> None:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        with suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the server may have dumped core; we do not
            signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
            os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def main(argv: list[str]) -> None:
    if len(argv) < 3 or argv[1] != "--" or not _subreaper():
        os._exit(127)  # nothing written: the caller starts the server without a reaper
    status_fd = int(argv[0])
    os.set_inheritable(status_fd, False)  # the caller's pipe, not the server's
    for sig in OUTLIVED:
        signal.signal(sig, signal.SIG_IGN)
    server, failed = _start(argv[2:])
    if failed:
        os.write(status_fd, b"-%d\n" % failed)
        os.waitpid(server, 0)
        os._exit(127)
    null = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):  # the server's stdout and stderr end when its side closes, not when this process exits
        os.dup2(null, fd)
    os.close(null)
    os.write(status_fd, b"+%d\n" % server)
    os.close(status_fd)
    while True:
        pid, status = os.waitpid(-1, 0)  # an orphan that died, reaped; or the server
        if pid == server:
            break
    _kill_the_rest()
    _exit_as(status)


if __name__ == "__main__":
    main(sys.argv[1:])
