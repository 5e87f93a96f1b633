#!/usr/bin/env python3
"""The HTTP bridge's connection handling against hostile clients (issue 15, section 1), through
real sockets on 127.0.0.1.

usage: run_connection_tests.py SYNDIC_MCP

Checks: a header flood (300,000 short lines, three at once; one huge line; 200 short fields)
is refused with 431 (or 400) without the server's memory growing; 200 idle and 16 trickling
connections do not delay a normal request, and the trickling ones are closed at the header
deadline; 100 requests on one kept-alive connection; the bound on open connections (--max-
connections: the connection longest without sending a byte makes room, idle or half-sent); strict
framing (duplicated or malformed Content-Length, duplicated Host, Transfer-Encoding with
Content-Length: 400; pipelined requests answered in order); SIGTERM with idle and slow sockets
open exits within 5 s while a request in flight is still answered.

Python 3 standard library only. The time bounds are generous (a normal request answered within
1 s, an exit within 5 s): they tell a server that waits on slow clients from one that does not.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402
checks.verbose = True

BIN = os.path.abspath(sys.argv[1])
ENV = {k: v for k, v in os.environ.items() if not k.startswith("SYNDIC_")}
MIB = 1024 * 1024
STARTED = []


class Bridge:
    def __init__(self, db, *options):
        self.proc = subprocess.Popen([BIN, "http", "--db", db, "--listen", "127.0.0.1:0", *options],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
        STARTED.append(self)
        self.port = None
        self.lines = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline().decode("utf-8", "replace")
            if not line:
                break
            m = re.search(r"serving http://127\.0\.0\.1:(\d+)/api", line)
            if m:
                self.port = int(m.group(1))
                break
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for raw in self.proc.stderr:
            self.lines.append(raw.decode("utf-8", "replace"))

    def memory(self):
        """(VmRSS, VmHWM) in bytes."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            text = f.read()
        values = {m.group(1): int(m.group(2)) * 1024 for m in re.finditer(r"^(VmRSS|VmHWM):\s+(\d+) kB", text, re.M)}
        return values.get("VmRSS", 0), values.get("VmHWM", 0)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Conn:
    """A client socket that keeps the bytes received beyond one answer for the next."""

    def __init__(self, port, timeout):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.pending = b""

    def sendall(self, data):
        self.sock.sendall(data)

    def recv(self, n):
        if self.pending:
            out, self.pending = self.pending[:n], self.pending[n:]
            return out
        return self.sock.recv(n)

    def settimeout(self, t):
        self.sock.settimeout(t)

    def close(self):
        self.sock.close()


def connect(port, timeout=10):
    return Conn(port, timeout)


def read_answer(sock, timeout=10):
    """One HTTP answer from `sock`: (status, headers, body), or (0, {}, reason) when none came."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            piece = sock.recv(65536)
            if not piece:
                return 0, {}, "closed without an answer"
            data += piece
        head, rest = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(rest) < length:
            piece = sock.recv(65536)
            if not piece:
                break
            rest += piece
        sock.pending = rest[length:] + sock.pending
        return status, headers, rest[:length]
    except (OSError, ValueError, IndexError) as e:
        return 0, {}, repr(e)


def request(port, method, path, key=None, body=None, extra=""):
    text = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    if key:
        text += f"Authorization: Bearer {key}\r\n"
    if body is not None:
        text += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return (text + extra + "\r\n").encode() + (body or b"")


def exchange(port, data, timeout=10):
    try:
        s = connect(port, timeout)
    except OSError as e:
        return 0, {}, repr(e)
    try:
        s.sendall(data)
        return read_answer(s, timeout)
    except OSError as e:
        return 0, {}, repr(e)
    finally:
        s.close()


def timed_get(port, key):
    start = time.monotonic()
    status, _, _ = exchange(port, request(port, "GET", "/api/units", key), timeout=30)
    return status, time.monotonic() - start


# ---------------------------------------------------------------------------------------------

def test_header_flood(db, key):
    b = Bridge(db)
    if not check("header flood: the bridge starts", b.port):
        return b
    status, _ = timed_get(b.port, key)
    _, hwm_before = b.memory()
    results = []

    def flood(lines):
        s = connect(b.port, 15)
        stop = threading.Event()

        def send():
            try:
                s.sendall(b"GET /api/units HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                block = b"X-a: b\r\n" * 8192
                for _ in range(lines // 8192):
                    if stop.is_set():
                        return
                    s.sendall(block)
            except OSError:
                pass
        sender = threading.Thread(target=send, daemon=True)
        start = time.monotonic()
        sender.start()
        answer = read_answer(s, 10)
        results.append((answer[0], time.monotonic() - start))
        stop.set()
        s.close()
        sender.join(15)

    floods = [threading.Thread(target=flood, args=(300_000,)) for _ in range(3)]
    for t in floods:
        t.start()
    for t in floods:
        t.join(30)
    statuses = sorted(r[0] for r in results)
    check("three requests of 300,000 short header lines each: 431 (or 400) within 10 s",
          len(results) == 3 and all(r[0] in (431, 400) for r in results), str(results))
    rss, hwm = b.memory()
    check(f"...the peak resident memory grows by less than 32 MB (before {hwm_before // MIB} MB, after {hwm // MIB} MB)",
          hwm - hwm_before < 32 * MIB, f"{hwm_before // MIB} -> {hwm // MIB} MB, statuses {statuses}")

    status, _, _ = exchange(b.port, b"GET /api/units HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (2 * MIB) + b"\r\n\r\n")
    check("one header line of 2 MiB: 431 (or 400)", status in (431, 400), str(status))
    fields = "".join(f"X-F{i}: {i}\r\n" for i in range(200))
    status, _, body = exchange(b.port, request(b.port, "GET", "/api/units", key, extra=fields))
    check("200 short header fields (4 KiB in all): 431", status == 431, f"{status} {body[:200]!r}")
    status, _ = timed_get(b.port, key)
    check("...the next request is served: 200", status == 200, str(status))
    return b


# The tests below hold many connections from 127.0.0.1: the bound per address is lifted to the
# whole bound, so that they are held as they would be from many clients.
WHOLE_BOUND = ("--max-connections-per-address", "512")


def test_idle_and_slow(db, key):
    b = Bridge(db, *WHOLE_BOUND)
    if not check("idle and slow: the bridge starts (8 workers)", b.port):
        return b
    idle = []
    for _ in range(200):
        try:
            idle.append(connect(b.port))
        except OSError:
            break
    check("200 idle connections opened", len(idle) == 200, str(len(idle)))
    slow = []
    for _ in range(16):
        s = connect(b.port)
        s.sendall(b"GET /api/units HTTP/1.1\r\n")
        slow.append(s)
    stop = threading.Event()
    closed_at = {}
    opened = time.monotonic()

    def trickle():
        n = 0
        while not stop.is_set() and len(closed_at) < len(slow):
            for i, s in enumerate(slow):
                if i in closed_at:
                    continue
                try:
                    s.sendall(f"X-Slow-{n}: {n}\r\n".encode())
                except OSError:
                    closed_at[i] = time.monotonic() - opened
            n += 1
            stop.wait(1.0)
    t = threading.Thread(target=trickle, daemon=True)
    t.start()
    time.sleep(1.5)
    times = []
    for _ in range(3):
        status, seconds = timed_get(b.port, key)
        times.append((status, round(seconds, 3)))
    check("with 200 idle and 16 trickling connections open, a normal request: 200 in under 1 s (three times)",
          all(st == 200 and sec < 1.0 for st, sec in times), str(times))
    # The trickling connections send a field every second: the header deadline (10 s) closes them.
    deadline = time.monotonic() + 16
    while time.monotonic() < deadline and len(closed_at) < len(slow):
        time.sleep(0.2)
    check("...the 16 trickling connections are closed by the header deadline (within 15 s)",
          len(closed_at) == len(slow) and max(closed_at.values()) < 15, f"{len(closed_at)} closed: {sorted(closed_at.values())[:3]}")
    stop.set()
    t.join(5)
    for s in idle + slow:
        s.close()
    return b


def test_keep_alive(b, key):
    s = connect(b.port)
    statuses = []
    try:
        for _ in range(100):
            s.sendall(request(b.port, "GET", "/api/units", key))
            status, headers, _ = read_answer(s)
            statuses.append(status)
            if status != 200 or headers.get("connection", "").lower() == "close":
                break
    finally:
        s.close()
    check("100 requests on one kept-alive connection: all 200, never closed", statuses == [200] * 100,
          f"{len(statuses)} answered, last {statuses[-1:]}")


def test_framing(b, key):
    port = b.port
    body = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
    base = f"POST /api/mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
    cases = [
        ("Content-Length given twice (the same value)", f"Content-Length: {len(body)}\r\nContent-Length: {len(body)}\r\n"),
        ("Content-Length as a list", f"Content-Length: {len(body)}, {len(body)}\r\n"),
        ("Content-Length not a number", f"Content-Length: {len(body)}abc\r\n"),
        ("Content-Length negative", "Content-Length: -1\r\n"),
        ("Host given twice", f"Host: 127.0.0.1:{port}\r\nContent-Length: {len(body)}\r\n"),
        ("Transfer-Encoding with Content-Length", f"Transfer-Encoding: chunked\r\nContent-Length: {len(body)}\r\n"),
        ("Content-Length with Transfer-Encoding", f"Content-Length: {len(body)}\r\nTransfer-Encoding: chunked\r\n"),
    ]
    for label, fields in cases:
        status, headers, answer = exchange(port, (base + fields + "\r\n").encode() + body)
        check(f"{label}: 400", status == 400, f"{status} {answer[:160]!r}")
    ping = lambda i: (base + f"Content-Length: {len(body)}\r\n\r\n").encode() + body.replace(b'"id":1', f'"id":{i}'.encode())
    s = connect(port)
    try:
        s.sendall(ping(1) + ping(2) + request(port, "GET", "/api/units", key))
        answers = []
        for _ in range(3):
            status, _, data = read_answer(s)
            answers.append((status, data[:40]))
            if status == 0:
                break
    finally:
        s.close()
    ids = [json.loads(d).get("id") if st == 200 and d.startswith(b"{") and b'"id"' in d else None for st, d in answers[:2]]
    check("three pipelined requests: three answers, in order (ping 1, ping 2, the units)",
          [a[0] for a in answers] == [200, 200, 200] and ids == [1, 2], str(answers))


def test_connection_cap(db, key):
    # All from 127.0.0.1: the bound per address is the whole bound here (tests/http/
    # run_address_share_tests.py has one address against another).
    b = Bridge(db, "--max-connections", "40", "--max-connections-per-address", "40")
    if not check("--max-connections 40: the bridge starts", b.port):
        return b
    slow = []
    for _ in range(40):
        s = connect(b.port)
        s.sendall(b"GET /api/units HTTP/1.1\r\n")
        slow.append(s)
    time.sleep(0.3)
    for s in slow[1:]:  # every one but the first sends a little more
        s.sendall(b"Host: 127.0.0.1\r\n")
    time.sleep(0.3)
    start = time.monotonic()
    status, _, body = exchange(b.port, request(b.port, "GET", "/api/units", key), timeout=5)
    took = time.monotonic() - start
    check("40 connections sending a header: the 41st takes the place of the one longest without a byte: 200 within 1 s",
          status == 200 and took < 1.0, f"{status} after {took:.2f} s {body[:120]!r}")
    slow[0].settimeout(2)
    try:
        first = slow[0].recv(1)
    except OSError as e:
        first = repr(e)
    check("...the one closed is the first, which sent nothing since", first == b"" or "reset" in str(first).lower(), repr(first))
    for s in slow:
        s.close()
    time.sleep(0.3)
    idle = [connect(b.port) for _ in range(40)]
    time.sleep(0.3)
    status, took = timed_get(b.port, key)
    check("40 idle connections: a new request takes the oldest one's place: 200 within 1 s",
          status == 200 and took < 1.0, f"{status} after {took:.2f} s")
    for s in idle:
        s.close()
    return b


def test_sigterm(db, key, unit):
    b = Bridge(db, *WHOLE_BOUND)
    if not check("SIGTERM: the bridge starts", b.port):
        return b
    idle = [connect(b.port) for _ in range(50)]
    slow = []
    for _ in range(10):
        s = connect(b.port)
        s.sendall(b"GET /api/units HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow.append(s)
    body = json.dumps({"firstName": "Signal", "lastName": "En-Vol", "unitId": unit}).encode()
    flight = connect(b.port)
    flight.sendall(request(b.port, "POST", "/api/co-owners", key, body)[:-10])
    time.sleep(0.5)
    sent = time.monotonic()
    b.proc.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    try:
        flight.sendall(request(b.port, "POST", "/api/co-owners", key, body)[-10:])
    except OSError:
        pass
    status, _, answer = read_answer(flight)
    try:
        code = b.proc.wait(10)
    except subprocess.TimeoutExpired:
        code = None
    took = time.monotonic() - sent
    check("SIGTERM with 50 idle and 10 slow connections open: exit 0 within 5 s", code == 0 and took < 5.0,
          f"status {code} after {took:.1f} s")
    check("...a request whose body was arriving at the signal is answered: 201", status == 201, f"{status} {answer[:160]!r}")
    for s in idle + slow + [flight]:
        s.close()
    return b


def main():
    tmp = tempfile.mkdtemp(prefix="syndic-conn-")
    db = os.path.join(tmp, "syndic.db")
    try:
        r = subprocess.run([BIN, "demo", "--json", "--db", db], capture_output=True, text=True, env=ENV, timeout=60)
        if not check("demo --json makes the database", r.returncode == 0, r.stderr):
            return
        key = json.loads(r.stdout)["apiKey"]
        b = test_header_flood(db, key)
        if b.port:
            test_keep_alive(b, key)
            test_framing(b, key)
        b.kill()
        test_idle_and_slow(db, key).kill()
        test_connection_cap(db, key).kill()
        units = None
        helper = Bridge(db)
        if helper.port:
            status, _, data = exchange(helper.port, request(helper.port, "GET", "/api/units", key))
            units = json.loads(data)["data"] if status == 200 else None
        helper.kill()
        if check("the demo's units are read", units):
            test_sigterm(db, key, units[0]["id"]).kill()
    except Exception as e:
        import traceback
        traceback.print_exc()
        check("the run completed", False, repr(e))
    finally:
        for b in STARTED:
            b.kill()
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


main()
checks.finish()
