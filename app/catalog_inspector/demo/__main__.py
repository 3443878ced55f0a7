"""Run the demo server: `python -m catalog_inspector.demo --mode MODE [--http | --sse]` (`--mode asks` first: the
server whose tools ask for input, `catalog_inspector.demo.asks`; `--mode apps` first: MCP Apps, icons and rich
results, `catalog_inspector.demo.apps`)."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

import anyio

from catalog_inspector.core.catalog import LIST_NAMES
from catalog_inspector.demo.catalog import MODES, Options
from catalog_inspector.demo.server import CALL_FAILURES, DemoServer, serve_http, serve_stdio


def main(argv: list[str] | None = None) -> None:
    given = sys.argv[1:] if argv is None else argv
    if given[:2] == ["--mode", "asks"]:  # the server whose tools ask for input (its own module, its own options)
        from catalog_inspector.demo.asks import main as asks_main

        asks_main(given[2:])
        return
    if given[:2] == ["--mode", "apps"]:  # MCP Apps, icons, rich results (its own module)
        from catalog_inspector.demo.apps import main as apps_main

        apps_main(given[2:])
        return
    parser = argparse.ArgumentParser(prog="python -m catalog_inspector.demo", description=__doc__)
    parser.add_argument("--mode", choices=MODES, default="normal")
    parser.add_argument("--target", choices=LIST_NAMES, default="tools", help="the list the mode applies to")
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP on 127.0.0.1")
    parser.add_argument("--sse", action="store_true", help="serve legacy SSE on 127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument(
        "--legacy", action="store_true", help="stdio: answer server/discover with -32601, like a pre-2026 server"
    )
    parser.add_argument("--state", type=Path, help="file that keeps walk counts across processes")
    parser.add_argument("--delay", type=float, default=0.5, help="seconds per page in slow mode")
    parser.add_argument("--call-delay", type=float, default=0.0, help="seconds every tools/call takes")
    parser.add_argument(
        "--call-gate", type=Path, help="every tools/call waits until this file exists (tests open the gate)"
    )
    parser.add_argument(
        "--call-fail",
        choices=CALL_FAILURES,
        help="every tools/call fails: a JSON-RPC error (code 1001, the server's own), or the process exits mid-call (exit code 5)",
    )
    parser.add_argument("--notify-count", type=int, default=3)
    parser.add_argument(
        "--notify-walks", type=int, default=None, help="notify mode: announce changes only in the first N walks"
    )
    parser.add_argument("--error-text", default="", help="the message of the JSON-RPC error a flaky walk answers with")
    parser.add_argument("--tools", type=int, default=10_000, help="tool count in many mode")
    parser.add_argument("--page-size", type=int, default=100, help="page size in many mode")
    parser.add_argument(
        "--many-drift",
        action="store_true",
        help="many mode: odd walks reverse the order and edit every 10th description",
    )
    parser.add_argument("--huge-mb", type=float, default=6.0)
    parser.add_argument("--pidfile", type=Path, help="append this process's pid (and its helpers') here")
    parser.add_argument(
        "--busy-file", type=Path, help="create this file when a request is kept waiting on purpose (hang, --call-delay)"
    )
    parser.add_argument("--spawn-child", action="store_true", help="start a long-lived grandchild process")
    parser.add_argument(
        "--setsid", action="store_true", help="with --spawn-child: the grandchild leaves for a session of its own"
    )
    parser.add_argument(
        "--daemonize",
        action="store_true",
        help="start a grandchild the way a daemon does: a double fork into a new session, its parent exits "
        "(it keeps this server's stdio, as `nohup` or a detached child with inherited stdio does)",
    )
    parser.add_argument(
        "--detach",
        action="store_true",
        help="with --daemonize: the grandchild lets go of this server's stdio (/dev/null instead), as a classic "
        "daemon does, so nothing it holds ties it to the server",
    )
    parser.add_argument("--stubborn", action="store_true", help="ignore SIGTERM and keep running after stdin closes")
    parser.add_argument("--stderr-flood", type=int, default=0, metavar="N", help="write N log lines at start")
    args = parser.parse_args(argv)
    if args.setsid and not args.spawn_child:
        parser.error("--setsid applies to --spawn-child")
    if args.detach and not args.daemonize:
        parser.error("--detach applies to --daemonize")
    for n in range(args.stderr_flood):
        print(f"[demo] flood line {n}", file=sys.stderr)
    if args.stubborn:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    pids = [os.getpid()]
    if args.spawn_child:
        # A helper that outlives a polite shutdown unless its process group is killed,
        # or, with --setsid, unless it is found outside the group.
        child = subprocess.Popen([sys.executable, "-c", "import signal; signal.pause()"], start_new_session=args.setsid)
        pids.append(child.pid)
    if args.daemonize:
        pids += _daemonize(detach=args.detach)
    if args.pidfile is not None:
        with args.pidfile.open("a") as handle:
            handle.write("".join(f"{pid}\n" for pid in pids))
    demo = DemoServer(
        mode=args.mode,
        target=args.target,
        opts=Options(tools=args.tools, page_size=args.page_size, huge_mb=args.huge_mb, many_drift=args.many_drift),
        delay=args.delay,
        call_delay=args.call_delay,
        call_gate=args.call_gate,
        error_text=args.error_text,
        call_fail=args.call_fail or "",
        notify_count=args.notify_count,
        notify_walks=args.notify_walks,
        state_file=args.state,
        busy_file=args.busy_file,
    )
    legacy = args.legacy
    if legacy and (args.http or args.sse):
        parser.error("--legacy applies to stdio only")
    if args.http or args.sse:
        anyio.run(serve_http, demo, args.port, args.sse)
    else:
        anyio.run(serve_stdio, demo, legacy)
    if args.stubborn:
        while True:  # a server that will not leave on its own: only SIGKILL ends it
            signal.pause()


def _daemonize(detach: bool = False) -> list[int]:
    """Double-fork a grandchild into a session of its own and let its parent exit; returns both pids.

    When this returns the grandchild is an orphan: outside this server's group and
    session, and no longer its descendant; only a subreaper above us can still adopt it.
    The middle process lives for a moment only, so no walk of the server's tree sees it;
    with `detach` the grandchild also holds none of the server's stdio.
    """
    read_end, write_end = os.pipe()
    middle = os.fork()
    if middle == 0:
        try:
            os.close(read_end)
            os.setsid()
            daemon = os.fork()
            if daemon == 0:
                os.close(write_end)
                if detach:
                    null = os.open(os.devnull, os.O_RDWR)
                    for fd in (0, 1, 2):
                        os.dup2(null, fd)
                    os.close(null)
                while True:  # runs until killed
                    signal.pause()
            os.write(write_end, b"%d" % daemon)
        finally:
            os._exit(0)  # never back into the caller's code, nor its atexit handlers
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        daemon = int(pipe.read())  # EOF comes when the middle exits: the daemon closed its copy first
    os.waitpid(middle, 0)
    return [middle, daemon]


if __name__ == "__main__":
    main()
