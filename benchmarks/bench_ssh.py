"""Shared tables over SSH: memory per connection and keystroke-to-screen latency.

``pipeline-tui serve --open`` runs in a subprocess on a temporary tables folder that holds one
table of ``--seats`` human seats (made beforehand with the server's own TableService, as the
lobby's new-table form would). ``--clients`` SSH sessions (asyncssh, a 160 x 50 pty each, so the move log is on screen)
connect and wait in the lobby; then the first ``--seats`` of them sit down, one after another,
and the others watch. The issue's figure is ``--seats 4 --clients 8`` (4 seats, 4 spectators).

Memory: the server process's RSS (``/proc/PID/status`` VmRSS) before any connection and with
every session in the lobby (the growth divided by ``--clients`` is the server's share per
connection), and each session child's RSS and PSS (``/proc/PID/smaps_rollup``: shared pages
counted in part) in the lobby and at the table.

Latency: for ``--moves`` moves, typed at the mover's prompt first, the time from the enter key
being written to the SSH channel until the move's log line is on the screen of every other session (SSH both ways, the
child's Textual app, the Hub checking and writing the table with fsync, the Updates, and each
watcher's redraw).

Moves go back to back by default: the next is typed as soon as the last is on every screen,
while sessions may still be finishing their redraws, the worst case. ``--pace S`` waits S
seconds first, as people at a table do (they take seconds per move).

Crowd (``--crowd N``, issue 38): one session connects and waits for the lobby's text, five
times one after another (time to the lobby, median); then N connect at once (each 80 x 24, a
fresh key) and the time from its connect call to the lobby's text is taken for each (median,
max), with each process's CPU meanwhile (``/proc/PID/stat``: the server, the zygote, this
benchmark's clients, and each session process since it started); then the PSS of the idle
lobby sessions (``/proc/PID/smaps_rollup``). No table is played.

``--spawn`` runs the server with ``serve --spawn`` (each session a new Python process, as
before the session zygote) for figures before and after on the same machine;
``--no-shared-screens`` without stands (every watcher a session process of their own, as
before issue 38's stands: serve/stand.py).

Run: ``python benchmarks/bench_ssh.py [--seats 4] [--clients 8] [--moves 40] [--pace 0]
[--crowd N] [--spawn] [--no-shared-screens]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline_tui.engine.moves import format_move  # noqa: E402
from pipeline_tui.engine.rules import why_idle  # noqa: E402
from pipeline_tui.engine.setup import GameSetup, PlayerSetup  # noqa: E402
from pipeline_tui.net.tables import TableService  # noqa: E402
from pipeline_tui.storage import load_game  # noqa: E402
from tests.server.sshterm import Terminal, session_processes, zygotes  # noqa: E402
from tests.server.sshterm import until as wait_until  # noqa: E402

TIMEOUT = 120.0
POLL = 0.005  # seconds between looks at the screens: the latency figures' resolution


def playable(game, count: int):
    """The legal move at ``count`` (round robin), skipping runs that would refine nothing: the
    table asks for those twice (its "Nothing to gain" warning), and one enter is timed."""
    moves = [m for m in game.legal_moves() if why_idle(game.state, m) is None] or game.legal_moves()
    return moves[count % len(moves)]


async def until(condition, what: str) -> None:
    await wait_until(condition, what, TIMEOUT, POLL)


async def settled(terminal: Terminal, quiet: float = 0.05) -> None:
    """Until ``terminal``'s screen has had no new output for ``quiet`` seconds (the keys typed
    so far are on it)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        length = len(terminal.raw)
        await asyncio.sleep(quiet)
        if len(terminal.raw) == length:
            return
    raise AssertionError("the screen never settled")


def proc_kb(pid: int, name: str, file: str = "status") -> int:
    for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {name} for {pid}")


def children(pid: int) -> list[int]:
    """The session processes of the server ``pid`` (spawned by it, or forked by its zygote)."""
    return session_processes(pid)


async def steady_children(server: int, quiet: float = 7.0) -> list[int]:
    """The server's session processes once the set has not changed for ``quiet`` seconds."""
    deadline = time.monotonic() + TIMEOUT
    kids = children(server)
    steady_since = time.monotonic()
    while time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        now = children(server)
        if now != kids:
            kids, steady_since = now, time.monotonic()
        elif time.monotonic() - steady_since >= quiet:
            return kids
    raise AssertionError("the session processes never settled")


def spread(values: list[float]) -> str:
    values = sorted(values)
    return (
        f"median {statistics.median(values):.0f} ms, "
        f"p95 {values[min(len(values) - 1, int(len(values) * 0.95))]:.0f} ms, max {values[-1]:.0f} ms"
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(pids: list[int]) -> tuple[float, float]:
    """Mean RSS and mean PSS of ``pids``, in MB."""
    rss = [proc_kb(p, "VmRSS") for p in pids]
    pss = [proc_kb(p, "Pss", "smaps_rollup") for p in pids]
    return statistics.mean(rss) / 1024, statistics.mean(pss) / 1024


def start_server(folder: Path, log: Path, spawn: bool, private: bool = False) -> subprocess.Popen[bytes]:
    with open(log, "w") as out:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pipeline_tui",
                "serve",
                "--open",
                "--port",
                "0",
                "--tables",
                str(folder / "tables"),
                "--sessions",
                "200",
                *(["--spawn"] if spawn else []),
                *(["--no-shared-screens"] if private else []),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )


async def to_lobby(port: int, name: str, size: tuple[int, int] = (80, 24)) -> tuple[Terminal, float]:
    """A session as ``name`` and the milliseconds from connecting to the lobby's text."""
    start = time.perf_counter()
    terminal = await Terminal.open(port, name, size=size)
    await until(lambda: terminal.shows("Shared tables"), f"{name} in the lobby")
    return terminal, (time.perf_counter() - start) * 1000


async def crowd(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-ssh-"))
    log = folder / "serve.log"
    server = start_server(folder, log, args.spawn)
    terminals: list[Terminal] = []
    try:
        await until(lambda: "port " in log.read_text(), "the server")
        port = int(re.search(r"port (\d+)", log.read_text()).group(1))
        mode = "spawned" if args.spawn else "forked from a zygote"
        await asyncio.sleep(3.0)  # the zygote has imported the app
        print(f"sessions {mode}; zygote: {zygotes(server.pid) or 'none'}")
        alone = []
        for i in range(5):
            terminal, ms = await to_lobby(port, f"solo{i}")
            alone.append(ms)
            await terminal.close()
        print(f"one session to the lobby, 5 one after another: {spread(alone)}")
        await asyncio.sleep(2.0)
        before = {pid: cpu_seconds(pid) for pid in [server.pid, os.getpid(), *zygotes(server.pid)]}
        results = await asyncio.gather(*(to_lobby(port, f"crowd{i}") for i in range(args.crowd)))
        spent = {pid: cpu_seconds(pid) - cpu for pid, cpu in before.items()}
        forked = [cpu_seconds(pid) for pid in children(server.pid)]  # each since its start
        terminals.extend(t for t, _ms in results)
        print(
            f"{args.crowd} sessions connecting at once, each to the lobby: {spread([ms for _t, ms in results])}"
            f" (load average {os.getloadavg()[0]:.2f})"
        )
        print(
            f"  CPU meanwhile: server {1000 * spent.pop(server.pid):.0f} ms, this benchmark's "
            f"{args.crowd} clients {1000 * spent.pop(os.getpid()):.0f} ms, zygote "
            f"{1000 * sum(spent.values()):.0f} ms; the {len(forked)} session processes "
            f"{1000 * sum(forked):.0f} ms in all since they started, each median "
            f"{1000 * statistics.median(forked or [0]):.0f} ms, max {1000 * max(forked or [0]):.0f} ms"
        )
        await asyncio.sleep(3.0)  # idle in the lobby
        kids = children(server.pid)
        rss, pss = memory(kids)
        print(f"idle lobby session ({len(kids)} sessions): RSS {rss:.1f} MB, PSS {pss:.1f} MB")
        extra = zygotes(server.pid)
        if extra:
            print(f"the zygote: RSS {memory(extra)[0]:.1f} MB, PSS {memory(extra)[1]:.1f} MB")
    finally:
        for terminal in terminals:
            terminal.conn.close()
        server.send_signal(signal.SIGINT)
        server.wait(60)
        shutil.rmtree(folder, ignore_errors=True)


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-ssh-"))
    log = folder / "serve.log"
    names = ("Ada", "Bo", "Cy", "Di")[: args.seats]
    TableService(folder / "tables").create(
        GameSetup(seed=7, players=tuple(PlayerSetup(n, "human") for n in names)), "Table 1"
    )
    server = start_server(folder, log, args.spawn, args.no_shared_screens)
    terminals: list[Terminal] = []
    try:
        await until(lambda: "port " in log.read_text(), "the server")
        port = int(re.search(r"port (\d+)", log.read_text()).group(1))
        await asyncio.sleep(1.0)
        base = proc_kb(server.pid, "VmRSS")
        for i in range(args.clients):
            terminal = await Terminal.open(port, f"player{i}")
            await terminal.expect("Shared tables")
            terminals.append(terminal)
        await asyncio.sleep(1.0)
        lobby = proc_kb(server.pid, "VmRSS")
        kids = children(server.pid)
        print(
            f"server RSS: {base / 1024:.1f} MB idle, {lobby / 1024:.1f} MB with "
            f"{args.clients} sessions: {(lobby - base) / 1024 / args.clients:.2f} MB per connection"
        )
        rss, pss = memory(kids)
        print(f"session child in the lobby ({len(kids)} children): RSS {rss:.1f} MB, PSS {pss:.1f} MB")

        path = folder / "tables" / "t1.json"
        for i, terminal in enumerate(terminals[: args.seats]):
            await terminal.expect("Table 1")
            if i:  # the lobby has seen the seat before taken (it refreshes on its own)
                await terminal.expect(f"{names[i - 1]}: player{i - 1}")
            mark = len(terminal.raw)
            terminal.keys("\r")
            await terminal.expect("sit here", mark)
            terminal.keys("\r")  # the first open seat is highlighted
            await until(
                lambda: (
                    (json.loads(path.read_text())["meta"]["table"]["seats"][i] or {}).get("holder")
                    == f"player{i}"
                ),
                f"player{i} seated",
            )
        for terminal in terminals[args.seats :]:
            await terminal.expect("Table 1")
            terminal.keys("w")
            await terminal.expect("watching")
        seats = dict(enumerate(terminals[: args.seats]))
        times, saves, each = [], [], []  # each: per move and screen, when it showed the move
        seated: list[float] = []  # per move: when the last of the other seats showed it
        await asyncio.sleep(3.0)  # the last to sit or watch has drawn the table and settled
        kids = await steady_children(server.pid)  # watchers alike gone over to a stand
        print(
            f"session processes at the table: {len(kids)} for {args.clients} sessions "
            f"({log.read_text().count('shares the stand')} watchers share "
            f"{log.read_text().count(' started, pid ')} stand(s))"
        )
        idle = {pid: cpu_seconds(pid) for pid in kids}
        await asyncio.sleep(5.0)
        idle_ms = sorted(200 * (cpu_seconds(pid) - before) for pid, before in idle.items())
        print(f"idle at the table, CPU per second: each session child {idle_ms[0]:.0f}-{idle_ms[-1]:.0f} ms")
        cpu_before = {pid: cpu_seconds(pid) for pid in kids + [server.pid]}
        bytes_before = [len(t.raw) for t in terminals]
        own_before = cpu_seconds(os.getpid())
        for count in range(args.moves):
            game = load_game(path)
            seat = game.current_player
            text = format_move(playable(game, count))
            mover = seats[seat]
            mover.keys(":" + text)  # typed first: a move is made when enter is pressed
            await settled(mover)
            await asyncio.sleep(args.pace)
            others = [t for t in terminals if t is not mover]
            marks = [len(t.raw) for t in others]
            line = f"{count + 1:>4} {game.setup.players[seat].name:<8} {text}"
            stamp = path.stat().st_mtime_ns
            saved: list[float] = []
            mover.keys("\r")
            start = time.perf_counter()

            seen: dict[int, float] = {}

            def landed() -> bool:
                if not saved and path.stat().st_mtime_ns != stamp:
                    saved.append((time.perf_counter() - start) * 1000)
                for t, m in zip(others, marks):
                    index = terminals.index(t)
                    if index not in seen and t.shows(line, m):
                        seen[index] = (time.perf_counter() - start) * 1000
                return bool(saved) and len(seen) == len(others)

            try:
                await until(landed, line)
            except AssertionError:
                for t, m in zip(others, marks):
                    if not t.shows(line, m):
                        screen = t.text(max(0, t.mark() - 3000))
                        print(f"--- {terminals.index(t)} lacks {line!r}; its last output:\n{screen}")
                raise
            saves.append(saved[0])
            times.append((time.perf_counter() - start) * 1000)
            each.extend(seen.values())
            seated.append(max(ms for i, ms in seen.items() if i < args.seats))
            if args.verbose:
                print(
                    f"{line.strip():<28} seat {seat + 1}: saved {saved[0]:.0f} ms, on every "
                    f"screen {times[-1]:.0f} ms; by session: "
                    + " ".join(f"{i}:{seen[i]:.0f}" for i in sorted(seen))
                )
        cpu = {pid: cpu_seconds(pid) - before for pid, before in cpu_before.items()}
        own = cpu_seconds(os.getpid()) - own_before
        server_cpu = cpu.pop(server.pid)
        in_order = [1000 * cpu[pid] / len(times) for pid in sorted(cpu)]  # sessions as opened
        per_child = sorted(in_order)
        sent = sorted((len(t.raw) - b) / len(times) / 1024 for t, b in zip(terminals, bytes_before))
        await asyncio.sleep(1.0)
        rss, pss = memory(children(server.pid))
        print(
            f"session child at the table: RSS {rss:.1f} MB, PSS {pss:.1f} MB; server RSS "
            f"{proc_kb(server.pid, 'VmRSS') / 1024:.1f} MB"
        )
        print(f"{len(times)} moves, each typed as ':move' and then enter; from the enter key being written:")
        print(f"  table file rewritten by the server: {spread(saves)}")
        print(f"  the move's log line on all {len(terminals) - 1} other screens: {spread(times)}")
        print(f"  ... on the other {args.seats - 1} seats' screens (spectators aside): {spread(seated)}")
        print(f"  ... on each other screen, taken one by one: {spread(each)}")
        print(
            f"CPU per move: server {1000 * server_cpu / len(times):.0f} ms; each session child "
            f"{per_child[0]:.0f}-{per_child[-1]:.0f} ms (all {len(per_child)}: "
            f"{sum(per_child):.0f} ms, on {os.cpu_count()} cores); seats "
            f"{' '.join(f'{c:.0f}' for c in in_order[: args.seats])}, spectators "
            f"{' '.join(f'{c:.0f}' for c in in_order[args.seats :])}"
        )
        print(
            f"screen output per move: {sent[0]:.1f}-{sent[-1]:.1f} KB per session; this "
            f"benchmark's own CPU (the 8 SSH clients and screen checks): "
            f"{1000 * own / len(times):.0f} ms per move"
        )
    finally:
        for terminal in terminals:
            terminal.conn.close()
        server.send_signal(signal.SIGINT)
        server.wait(60)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=4, help="human seats at the table (2-4)")
    parser.add_argument("--clients", type=int, default=8, help="SSH sessions (more than --seats)")
    parser.add_argument("--moves", type=int, default=40, help="moves timed")
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="seconds between a move showing on every screen and the next enter "
        "(default 0: back to back, the worst case)",
    )
    parser.add_argument("--verbose", action="store_true", help="a line per move")
    parser.add_argument("--crowd", type=int, default=0, help="N sessions connecting at once, no play")
    parser.add_argument("--spawn", action="store_true", help="serve --spawn: no session zygote")
    parser.add_argument(
        "--no-shared-screens",
        action="store_true",
        help="serve --no-shared-screens: every watcher a session process of their own (no stands)",
    )
    args = parser.parse_args()
    if args.crowd:
        asyncio.run(crowd(args))
        return
    if not 2 <= args.seats <= 4 or args.clients <= args.seats:
        parser.error("--seats is 2 to 4 and --clients more than --seats (the rest watch)")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
