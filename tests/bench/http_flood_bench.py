#!/usr/bin/env python3
"""A normal request's latency while one address holds 530 half-sent requests (issue 28, point 1;
docs/reliability.md), for one or more builds side by side, interleaved round by round.

usage: http_flood_bench.py [--rounds N] [--probes N] [--addresses N] SYNDIC_MCP [SYNDIC_MCP...]

Per build and round, on a fresh bridge (its defaults: 512 connections, 8 workers) over one demo
database: first --probes normal requests alone (GET /api/units from 127.0.0.1, each on a new
connection, one every 0.25 s); then 530 sockets from 127.0.0.2, every other one sending a head
with Content-Length: 1000 and one byte of body, the others half a header, reopened every 0.2 s as
the bridge closes or refuses them (as a client set on holding them would), and after 1 s the same
probes. Prints, per build and round, the probes answered 200 and their median and worst latency
(a refusal or no answer within 10 s counts as not answered), and how many of the 530 the bridge
held at the end; then the medians over the rounds. --addresses N spreads the 530 over 127.0.0.2
and the N-1 addresses after it (many clients together filling the bound). Measures only; asserts
nothing.
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_hostile_bench import ENV, start  # noqa: E402

HALF_BODY = b"POST /api/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
HALF_HEAD = b"GET /api/units HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: "


def probe(port, key):
    """(status, seconds) of one GET /api/units on a new connection from 127.0.0.1; status 0: none."""
    began = time.monotonic()
    data = b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(f"GET /api/units HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
                      "Connection: close\r\n\r\n".encode())
            while piece := s.recv(65536):
                data += piece
    except OSError:
        pass
    status = int(data[9:12]) if data.startswith(b"HTTP/1.1 ") else 0
    return status, time.monotonic() - began


def held_by_server(s):
    """Nothing to read on `s` yet: no answer, no close."""
    try:
        s.setblocking(False)
        s.recv(1, socket.MSG_PEEK)
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False


def hostile(port, i, addresses):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(f"127.0.0.{2 + i % addresses}", 0))
        s.sendall(HALF_BODY if i % 2 == 0 else HALF_HEAD)
        return s
    except OSError:
        return None


def probes(port, key, count):
    out = []
    for _ in range(count):
        out.append(probe(port, key))
        time.sleep(0.25)
    return out


def summary(answers):
    ok = sorted(sec for status, sec in answers if status == 200)
    return {"ok": len(ok), "of": len(answers), "median_ms": statistics.median(ok) * 1000 if ok else None,
            "worst_ms": ok[-1] * 1000 if ok else None, "statuses": sorted({status for status, _ in answers})}


def one_round(binary, db, key, count, addresses):
    proc, port = start(binary, db)
    try:
        alone = summary(probes(port, key, count))
        socks = [hostile(port, i, addresses) for i in range(530)]
        stop = threading.Event()

        def hold():
            while not stop.wait(0.2):
                for i, s in enumerate(socks):
                    if s is None or not held_by_server(s):
                        if s is not None:
                            s.close()
                        socks[i] = hostile(port, i, addresses)
        holder = threading.Thread(target=hold, daemon=True)
        holder.start()
        time.sleep(1.0)
        flooded = summary(probes(port, key, count))
        stop.set()
        holder.join(10)
        time.sleep(0.3)
        flooded["held"] = sum(1 for s in socks if s is not None and held_by_server(s))
        for s in socks:
            if s is not None:
                s.close()
        return {"alone": alone, "flooded": flooded}
    finally:
        proc.kill()
        proc.wait()


def ms(value):
    return "-" if value is None else f"{value:.1f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--probes", type=int, default=40)
    ap.add_argument("--addresses", type=int, default=1, choices=range(1, 250), metavar="N")
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="syndic-flood-bench-")
    try:
        db = os.path.join(tmp, "syndic.db")
        made = subprocess.run([args.binaries[0], "demo", "--json", "--db", db], capture_output=True, text=True, env=ENV, check=True)
        key = json.loads(made.stdout)["apiKey"]
        rows = {b: [] for b in args.binaries}
        for r in range(args.rounds):
            for b in args.binaries:
                row = one_round(b, db, key, args.probes, args.addresses)
                rows[b].append(row)
                a, f = row["alone"], row["flooded"]
                print(f"round {r + 1} {b}: alone {a['ok']}/{a['of']} 200, median {ms(a['median_ms'])}; with 530 held: "
                      f"{f['ok']}/{f['of']} 200 (statuses {f['statuses']}), median {ms(f['median_ms'])}, "
                      f"worst {ms(f['worst_ms'])}; the bridge held {f['held']} of the 530", flush=True)
        for b in args.binaries:
            med = lambda pick: statistics.median(v for v in map(pick, rows[b]) if v is not None) if any(
                pick(x) is not None for x in rows[b]) else None
            print(f"median of {args.rounds} rounds, {b}: alone {ms(med(lambda x: x['alone']['median_ms']))}; "
                  f"with 530 held {med(lambda x: x['flooded']['ok']):g}/{args.probes} answered 200, "
                  f"median {ms(med(lambda x: x['flooded']['median_ms']))}, "
                  f"worst {ms(med(lambda x: x['flooded']['worst_ms']))}, held {med(lambda x: x['flooded']['held']):g}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
