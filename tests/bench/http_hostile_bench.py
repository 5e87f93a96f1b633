#!/usr/bin/env python3
"""Figures of the HTTP bridge under hostile connections (docs/reliability.md), for one or more
builds side by side, interleaved round by round on the same machine.

usage: http_hostile_bench.py [--rounds N] [--wrk SECONDS] SYNDIC_MCP [SYNDIC_MCP...]

Per build and round, each on a fresh bridge (8 workers) over one demo database:
- flood: three connections each sending 1,000,000 short header lines at once; peak and final
  resident memory (VmHWM, VmRSS) and whether each got an answer;
- slow: 200 idle and 16 trickling connections open, then three normal GET /api/units, each on a new
  connection: median and worst latency (30 s cap);
- stop: 50 idle and 10 slow connections open and one request whose body is arriving, SIGTERM:
  seconds to the exit (30 s cap, then killed);
- wrk (if Debian's wrk is installed and --wrk > 0): one keep-alive connection,
  GET /api/co-owners/{id}: requests per second and latency.
Prints one line per build and measure, then the medians. Measures only; asserts nothing.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ENV = {k: v for k, v in os.environ.items() if not k.startswith("SYNDIC_")}
MIB = 1024 * 1024


def whole_bound(binary):
    """The options that let one address hold the whole bound on connections, for a build that has
    a bound per address (issue 28): every socket here comes from 127.0.0.1, standing for many
    clients."""
    helped = subprocess.run([binary, "http", "--help"], capture_output=True, text=True, env=ENV).stdout
    return ["--max-connections-per-address", "512"] if "--max-connections-per-address" in helped else []


def start(binary, db, *options):
    proc = subprocess.Popen([binary, "http", "--db", db, "--listen", "127.0.0.1:0", *options], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    while True:
        line = proc.stderr.readline().decode()
        if not line:
            raise RuntimeError("the bridge did not start")
        m = re.search(r"serving http://127\.0\.0\.1:(\d+)/api", line)
        if m:
            break
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    return proc, int(m.group(1))


def memory(pid):
    text = open(f"/proc/{pid}/status").read()
    return {k: int(v) * 1024 for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(\d+) kB", text, re.M)}


def get(port, key, path="/api/units", timeout=30):
    start = time.monotonic()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while True:
            piece = s.recv(65536)
            if not piece:
                break
            data += piece
        s.close()
        ok = data.startswith(b"HTTP/1.1 200")
    except OSError:
        ok = False
    return ok, time.monotonic() - start


def flood(binary, db, key):
    proc, port = start(binary, db)
    get(port, key)
    answered = []

    def one():
        s = socket.create_connection(("127.0.0.1", port), timeout=15)
        done = threading.Event()

        def send():
            try:
                s.sendall(b"GET /api/units HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                block = b"X-a: b\r\n" * 8192
                for _ in range(1_000_000 // 8192):
                    if done.is_set():
                        return
                    s.sendall(block)
            except OSError:
                pass
        threading.Thread(target=send, daemon=True).start()
        try:
            answered.append(s.recv(64).split(b" ")[1].decode() if True else "")
        except (OSError, IndexError):
            answered.append("none")
        done.set()
        s.close()
    threads = [threading.Thread(target=one) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    time.sleep(1)
    m = memory(proc.pid)
    proc.kill()
    proc.wait()
    return {"peak_mb": m["VmHWM"] / MIB, "rss_mb": m["VmRSS"] / MIB, "answers": ",".join(sorted(answered))}


def slow(binary, db, key):
    proc, port = start(binary, db, *whole_bound(binary))
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(200)]
    trickling = []
    for _ in range(16):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /api/units HTTP/1.1\r\n")
        trickling.append(s)
    stop = threading.Event()

    def trickle():
        n = 0
        while not stop.wait(1.0):
            for s in trickling:
                try:
                    s.sendall(f"X-{n}: {n}\r\n".encode())
                except OSError:
                    pass
            n += 1
    threading.Thread(target=trickle, daemon=True).start()
    time.sleep(1.0)
    times = [get(port, key) for _ in range(3)]
    stop.set()
    for s in idle + trickling:
        s.close()
    proc.kill()
    proc.wait()
    seconds = [t for _, t in times]
    return {"median_ms": statistics.median(seconds) * 1000, "worst_ms": max(seconds) * 1000, "ok": sum(ok for ok, _ in times)}


def stop_time(binary, db, key, unit):
    proc, port = start(binary, db, *whole_bound(binary))
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(50)]
    slow_ones = []
    for _ in range(10):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /api/units HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow_ones.append(s)
    body = json.dumps({"firstName": "Mesure", "lastName": "Arret", "unitId": unit}).encode()
    head = (f"POST /api/co-owners HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    flight = socket.create_connection(("127.0.0.1", port), timeout=30)
    flight.sendall(head + body[:10])
    time.sleep(0.5)
    sent = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    try:
        flight.sendall(body[10:])
        answered = flight.recv(64).startswith(b"HTTP/1.1 201")
    except OSError:
        answered = False
    try:
        proc.wait(30)
        seconds = time.monotonic() - sent
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        seconds = float("inf")
    for s in idle + slow_ones + [flight]:
        s.close()
    return {"exit_s": seconds, "in_flight_answered": answered}


def wrk(binary, db, key, co_owner, seconds):
    proc, port = start(binary, db)
    out = subprocess.run(["wrk", "-t1", "-c1", f"-d{seconds}s", "--latency", "-H", f"Authorization: Bearer {key}",
                          f"http://127.0.0.1:{port}/api/co-owners/{co_owner}"], capture_output=True, text=True).stdout
    proc.kill()
    proc.wait()
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    p50 = re.search(r"50%\s+([\d.]+\w+)", out)
    p99 = re.search(r"99%\s+([\d.]+\w+)", out)
    return {"req_per_s": float(rate.group(1)) if rate else 0.0, "p50": p50.group(1) if p50 else "?", "p99": p99.group(1) if p99 else "?"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--wrk", type=int, default=5)
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="syndic-hostile-bench-")
    try:
        db = os.path.join(tmp, "syndic.db")
        key = json.loads(subprocess.run([args.binaries[0], "demo", "--json", "--db", db], capture_output=True, text=True,
                                        env=ENV, check=True).stdout)["apiKey"]
        proc, port = start(args.binaries[0], db)
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(f"GET /api/co-owners HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while (piece := s.recv(65536)):
            data += piece
        people = json.loads(data.split(b"\r\n\r\n", 1)[1])["data"]
        proc.kill()
        proc.wait()
        co_owner, unit = people[0]["id"], people[0]["unitId"]
        results = {b: [] for b in args.binaries}
        for r in range(args.rounds):
            for b in args.binaries:  # interleaved: each round runs every build once
                row = {"flood": flood(b, db, key), "slow": slow(b, db, key), "stop": stop_time(b, db, key, unit)}
                if args.wrk > 0 and shutil.which("wrk"):
                    row["wrk"] = wrk(b, db, key, co_owner, args.wrk)
                results[b].append(row)
                print(f"round {r + 1} {b}: {json.dumps(row)}", flush=True)
        for b, rows in results.items():
            med = lambda f: statistics.median(f(x) for x in rows)
            line = (f"{b}: flood peak {med(lambda x: x['flood']['peak_mb']):.0f} MB, rss after {med(lambda x: x['flood']['rss_mb']):.0f} MB; "
                    f"slow median {med(lambda x: x['slow']['median_ms']):.1f} ms worst {med(lambda x: x['slow']['worst_ms']):.1f} ms; "
                    f"stop {med(lambda x: x['stop']['exit_s']):.2f} s")
            if "wrk" in rows[0]:
                line += f"; wrk {med(lambda x: x['wrk']['req_per_s']):.0f} req/s"
            print(line)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
