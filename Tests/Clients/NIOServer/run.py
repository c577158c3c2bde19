#!/usr/bin/env python3
"""The census and listings of a real swift-nio server, held open by real connections.

Usage: python3 Tests/Clients/NIOServer/run.py [--connections K] [--kills N]

Builds this folder's package (swift-nio 2.101.3's HTTP/1.1 server, Sources/Server/main.swift)
in release, and the repository's `metadata-inspect` in debug if it is not built yet. Then, each
check against an oracle this repository did not write:

1. The server holds K keep-alive connections, each of which has had its response: swift-nio
   then holds exactly K `NIOPosix.SocketChannel` (each with its `NIOPosix.Socket`) and one
   `NIOPosix.ServerSocketChannel`. `instances --pid` must count exactly that, in JSON, in text
   and with `--stop`; `--type` must list K distinct addresses.
2. No row's type lost its generic arguments (no `…` in a name), and the generic `ManagedBuffer`
   subclasses swift-nio allocates (`NIOConcurrencyHelpers.LockStorage<…>`) have theirs.
3. `--since` an earlier census, after K2 more connections: the change is exactly K2 channels.
4. The listings (`types`, `protocols`, `conformances --pid`) equal those of the same image
   files read without running them, record for record. The one field a file read cannot know,
   whether another image's type is generic (`isGeneric` null in the files' JSON), is compared
   only where the files' listing knows it.
5. `leaks --pid`: the server as it runs reports no leaked class instance; after K3 requests for
   `/leak`, each of which leaks one `Server.Session` in a cycle with its callback's closure
   context, it reports exactly K3 sessions and K3 cycles of those two members. (The server leaks
   them on a thread of its own, so that no stale word points at them: leaked from an event loop,
   2 to 5 of 25 were held by stale closures in the unwritten tail of swift-nio's task queue,
   a miss the conservative marking allows.)
6. N censuses, each of a new server killed with SIGKILL at a random moment of the census, with
   and without `--stop`, the dead server reaped at once or left a zombie: each census is exact
   (K channels) or a clean error (exit status 1, `error:` on stderr, nothing on stdout), never a
   short table, a crash or a hang.

Exits non-zero on the first failed check, printing what it saw.
"""
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
INSPECT = os.path.join(ROOT, ".build", "debug", "metadata-inspect")
CHANNEL, SOCKET, SERVER_CHANNEL = "NIOPosix.SocketChannel", "NIOPosix.Socket", "NIOPosix.ServerSocketChannel"
# A census of this server with a debug inspector takes well under this; a hang is a failure.
TIMEOUT = 120


def fail(message):
    print(f"run.py: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def read_response(connection):
    """Reads one response, which ends with the server's body, from a kept-alive connection."""
    data = b""
    while not data.endswith(b"hello"):
        chunk = connection.recv(4096)
        if not chunk:
            fail("the server closed a kept-alive connection")
        data += chunk


def build():
    subprocess.run(["swift", "build", "-c", "release", "--package-path", HERE], check=True, stdout=subprocess.DEVNULL)
    path = subprocess.run(["swift", "build", "-c", "release", "--package-path", HERE, "--show-bin-path"],
                          check=True, capture_output=True, text=True).stdout.strip()
    if not os.path.exists(INSPECT):
        subprocess.run(["swift", "build", "--package-path", ROOT, "--product", "metadata-inspect"], check=True,
                       stdout=subprocess.DEVNULL)
    return os.path.join(path, "Server")


class Server:
    """A running server and the connections held open to it."""

    def __init__(self, executable):
        self.process = subprocess.Popen([executable, "0"], stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().split()
        if len(line) != 2 or line[0] != "listening":
            fail(f"the server printed {line!r}, not 'listening PORT'")
        self.port = int(line[1])
        self.pid = str(self.process.pid)
        self.sockets = []

    def request(self, path, count):
        """Sends `count` requests for `path` on one kept-alive connection, each answered."""
        connection = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        for _ in range(count):
            connection.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n".encode())
            read_response(connection)
        self.sockets.append(connection)

    def connect(self, count):
        """Opens `count` connections, sends a request on each, and waits for every response."""
        opened = []
        for _ in range(count):
            connection = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            connection.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
            opened.append(connection)
        for connection in opened:
            read_response(connection)
        self.sockets += opened

    def close(self):
        for connection in self.sockets:
            connection.close()
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)


def inspect(*arguments):
    result = subprocess.run([INSPECT, *arguments], capture_output=True, text=True, timeout=TIMEOUT)
    return result.returncode, result.stdout, result.stderr


def census(server, *options):
    status, out, err = inspect("instances", "--pid", server.pid, "--json", *options)
    if status != 0:
        fail(f"instances --pid {' '.join(options)} exited {status}: {err.strip()}")
    return {row["type"]: row for row in json.loads(out)["instances"]}


def expect_counts(rows, k, label):
    seen = {name: rows.get(name, {}).get("count", 0) for name in (CHANNEL, SOCKET, SERVER_CHANNEL)}
    wanted = {CHANNEL: k, SOCKET: k, SERVER_CHANNEL: 1}
    if seen != wanted:
        fail(f"{label}: counted {seen}, the server holds {wanted}")


def check_census(server, k):
    rows = census(server)
    expect_counts(rows, k, "instances --pid --json")
    print(f"census: {len(rows)} types, {sum(r['count'] for r in rows.values())} objects; "
          f"{rows[CHANNEL]['count']} {CHANNEL}, {rows[SOCKET]['count']} {SOCKET}, 1 {SERVER_CHANNEL}")

    elided = sorted(name for name in rows if "…" in name or "<...>" in name)
    if elided:
        fail(f"types that lost their generic arguments: {elided[:10]}")
    locks = sorted(name for name in rows if name.startswith("NIOConcurrencyHelpers.LockStorage<"))
    if not locks:
        fail("no NIOConcurrencyHelpers.LockStorage<…> row: a ManagedBuffer subclass lost its arguments or its row")
    print(f"generic ManagedBuffer subclasses named with their arguments: {', '.join(locks)}")

    expect_counts(census(server, "--stop"), k, "instances --pid --stop --json")
    status, text, err = inspect("instances", "--pid", server.pid)
    counts = {line.split()[-1]: int(line.split()[0]) for line in text.splitlines()[1:] if line.strip()}
    if status != 0 or counts.get(CHANNEL) != k or counts.get(SERVER_CHANNEL) != 1:
        fail(f"instances --pid (text) exited {status}, counted {counts.get(CHANNEL)} {CHANNEL}: {err.strip()}")

    status, out, err = inspect("instances", "--pid", server.pid, "--type", CHANNEL, "--json")
    addresses = json.loads(out)["addresses"] if status == 0 else []
    if len(set(addresses)) != k or len(addresses) != k:
        fail(f"--type {CHANNEL} listed {len(addresses)} addresses ({len(set(addresses))} distinct), not {k}")
    status, out, err = inspect("instances", "--pid", server.pid, "--type", "NoSuch.Thing")
    if status != 1 or not err.startswith("error:") or out:
        fail(f"--type naming no type of the process exited {status} ({err.strip()!r}), not an error")
    print(f"text, --stop and --type {CHANNEL} agree: {k} each; --type NoSuch.Thing is an error")
    return rows


def check_since(server, k, more):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as earlier:
        status, out, err = inspect("instances", "--pid", server.pid, "--json")
        earlier.write(out)
    try:
        server.connect(more)
        status, out, err = inspect("instances", "--pid", server.pid, "--since", earlier.name, "--json")
        if status != 0:
            fail(f"--since exited {status}: {err.strip()}")
        rows = {row["type"]: row for row in json.loads(out)["instances"]}
        change = {name: (rows[name]["count"], rows[name]["countChange"]) for name in (CHANNEL, SOCKET)}
        if change != {CHANNEL: (k + more, more), SOCKET: (k + more, more)}:
            fail(f"--since after {more} more connections: {change}")
        ordered = [row["bytesChange"] for row in json.loads(out)["instances"]]
        if ordered != sorted(ordered, reverse=True):
            fail("--since rows are not sorted by bytes gained")
        print(f"--since: {CHANNEL} {k} -> {k + more}, countChange {more}")
    finally:
        os.unlink(earlier.name)


def check_listings(server):
    status, out, err = inspect("images", "--pid", server.pid, "--json")
    if status != 0:
        fail(f"images --pid exited {status}: {err.strip()}")
    paths = [image["path"] for image in json.loads(out)["images"]]
    for subcommand in ("types", "protocols", "conformances"):
        status, live, err = inspect(subcommand, "--pid", server.pid, "--json")
        if status != 0:
            fail(f"{subcommand} --pid exited {status}: {err.strip()}")
        status, files, err = inspect(subcommand, *paths, "--json")
        if status != 0:
            fail(f"{subcommand} of the image files exited {status}: {err.strip()}")
        live_rows, file_rows = json.loads(live)[subcommand], json.loads(files)[subcommand]
        if len(live_rows) != len(file_rows):
            fail(f"{subcommand}: {len(live_rows)} records read from the process, {len(file_rows)} from its files")
        unknown = 0
        for live_row, file_row in zip(live_rows, file_rows):
            known = {key: value for key, value in file_row.items() if value is not None}
            unknown += len(file_row) - len(known)
            if {key: live_row.get(key) for key in known} != known or set(live_row) != set(file_row):
                fail(f"{subcommand}: the process lists {live_row}, its files {file_row}")
        print(f"{subcommand} --pid equals the {len(paths)} image files' listing: {len(live_rows)} records"
              + (f" ({unknown} fields the files leave unknown)" if unknown else ""))


def check_leaks(server, leaked):
    """No leaked class instance in the running server; after `leaked` requests for /leak, exactly
    that many sessions, each in a cycle with its closure context."""
    status, out, err = inspect("leaks", "--pid", server.pid, "--json")
    if status != 0:
        fail(f"leaks --pid exited {status}: {err.strip()}")
    report = json.loads(out)
    instances = [row for row in report["leaks"] if not row["type"].startswith("(")]
    if instances:
        fail(f"leaks of a server that leaks nothing reported {instances}")
    server.request("/leak", leaked)
    status, out, err = inspect("leaks", "--pid", server.pid, "--json")
    if status != 0:
        fail(f"leaks --pid exited {status}: {err.strip()}")
    report = json.loads(out)
    rows = {row["type"]: row["count"] for row in report["leaks"]}
    if rows != {"Server.Session": leaked}:
        fail(f"after {leaked} leaking requests, leaks reported {report['leaks']}")
    shapes = [sorted(member["type"] for member in cycle["members"]) for cycle in report["cycles"]]
    if shapes != [["(closure context)", "Server.Session"]] * leaked:
        fail(f"after {leaked} leaking requests, the cycles are {shapes}")
    print(f"leaks: none in the running server; {leaked} sessions in {leaked} cycles after {leaked} leaking "
          f"requests, held {report['heldMilliseconds']} ms")


def census_duration(server):
    """The median time of a whole census process of this server, in seconds."""
    times = []
    for _ in range(5):
        start = time.monotonic()
        inspect("instances", "--pid", server.pid, "--json")
        times.append(time.monotonic() - start)
    return sorted(times)[2]


def check_kills(executable, k, tries, duration):
    """Kills at a moment drawn from the census's own duration, so that most land inside it."""
    outcomes = {"exact": 0, "error": 0}
    messages = set()
    rng = random.Random(46)
    for attempt in range(tries):
        server = Server(executable)
        server.connect(k)
        options = ["--stop"] if attempt % 2 else []
        reap = attempt % 4 < 2
        inspector = subprocess.Popen([INSPECT, "instances", "--pid", server.pid, "--json", *options],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0.0, 1.2 * duration))
        server.process.kill()
        if reap:
            server.process.wait(timeout=30)
        try:
            out, err = inspector.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            inspector.kill()
            fail(f"try {attempt}: the census hung after the server was killed")
        server.close()
        status = inspector.returncode
        if status == 0:
            rows = {row["type"]: row for row in json.loads(out)["instances"]}
            expect_counts(rows, k, f"try {attempt}, a census that finished before the kill")
            outcomes["exact"] += 1
        elif status == 1 and err.startswith("error:") and not out:
            outcomes["error"] += 1
            messages.add(re.sub(r"[0-9]+", "N", err.splitlines()[0]))
        else:
            fail(f"try {attempt} ({' '.join(options) or 'running'}, {'reaped' if reap else 'zombie'}): "
                 f"exit {status}, stdout {out[:200]!r}, stderr {err[:300]!r}")
    print(f"killed within {1.2 * duration * 1000:.0f} ms of a census's start (a census takes {duration * 1000:.0f} ms), "
          f"{tries} tries: {outcomes['exact']} exact, {outcomes['error']} clean errors")
    for message in sorted(messages):
        print(f"  {message}")


def main():
    k = int(sys.argv[sys.argv.index("--connections") + 1]) if "--connections" in sys.argv else 100
    tries = int(sys.argv[sys.argv.index("--kills") + 1]) if "--kills" in sys.argv else 20
    executable = build()
    server = Server(executable)
    try:
        server.connect(k)
        print(f"swift-nio 2.101.3 server, pid {server.pid}, {k} keep-alive connections answered")
        check_census(server, k)
        check_listings(server)
        check_since(server, k, 20)
        duration = census_duration(server)
        check_leaks(server, 25)
    finally:
        server.close()
    check_kills(executable, k, tries, duration)
    print("run.py: all checks passed")


if __name__ == "__main__":
    main()
