#!/usr/bin/env python3
"""What a write costs, two builds side by side: create_co_owner from a file and bulk_create_co_owners.

For each build it seeds one database of N co-owners (tests/bench/stdio_bench.py's seeding, through
that build), then runs ROUNDS rounds, the builds interleaved (A B, then B A...), each on a fresh
copy of its database:
  - creates: `syndic-mcp serve < requests > answers` with CREATES create_co_owner calls (random
    units, fraction 0), timed from spawn to exit;
  - bulks: one server, a warm-up bulk, then BULKS bulk_create_co_owners of 500 rows one at a time,
    each timed.
With --strace, one more run of the creates per build under strace: the fsync/fdatasync/pwrite64
calls and the temporary files SQLite created (etilqs_*). Prints medians and after/before ratios;
asserts nothing but that every answer is a result.

Usage: write_bench.py BEFORE AFTER [--co-owners 10000] [--rounds 5] [--creates 2000] [--bulks 10] [--strace]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stdio_bench import FIRST_NAMES, LAST_NAMES, Server, check, seed  # noqa: E402


def requests_file(path, units, count, rng):
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "write-bench", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    for i in range(count):
        lines.append({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
                      "params": {"name": "create_co_owner", "arguments": {
                          "unitId": rng.choice(units), "firstName": rng.choice(FIRST_NAMES),
                          "lastName": rng.choice(LAST_NAMES), "email": f"nouveau{i}@exemple.qc.ca",
                          "fractionPercent": 0}}})
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


def fresh_copy(template, folder, name):
    db = os.path.join(folder, name)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    shutil.copyfile(template, db)
    return db


def run_creates(binary, db, key, requests, count, prefix=()):
    env = dict(os.environ, SYNDIC_API_KEY=key)
    out_path = db + ".answers"
    began = time.perf_counter()
    with open(requests) as stdin, open(out_path, "w") as stdout:
        subprocess.run([*prefix, binary, "--db", db, "--log-level", "warn", "serve"], stdin=stdin, stdout=stdout,
                       stderr=subprocess.DEVNULL, env=env, check=True)
    seconds = time.perf_counter() - began
    with open(out_path, "rb") as f:
        answers = [line for line in f if line.strip()]
    if len(answers) != count + 1:
        raise SystemExit(f"{binary}: {len(answers)} answers for {count + 1} requests")
    for answer in answers:
        check(answer)
    return seconds


def run_bulks(binary, db, key, units, bulks, rng):
    server = Server(binary, db, key)
    server.initialize()

    def bulk(tag):
        rows = [{"unitId": rng.choice(units), "firstName": rng.choice(FIRST_NAMES), "lastName": rng.choice(LAST_NAMES),
                 "email": f"lot{tag}.{j}@exemple.qc.ca", "fractionPercent": 0} for j in range(500)]
        return server.call("bulk_create_co_owners", {"coOwners": rows})

    server.one(bulk("warm"))
    times = []
    for b in range(bulks):
        line = bulk(b)
        began = time.perf_counter()
        server.one(line)
        times.append(time.perf_counter() - began)
    server.close()
    return times


def strace_counts(binary, db, key, requests, count, folder):
    trace = os.path.join(folder, "trace.txt")
    run_creates(binary, db, key, requests, count,
                prefix=("strace", "-f", "-qq", "-e", "trace=openat,unlink,fsync,fdatasync,pwrite64", "-o", trace))
    temp_files = syncs = writes = 0
    with open(trace, errors="replace") as f:
        for line in f:
            if "openat(" in line and "etilqs_" in line and "O_CREAT" in line:
                temp_files += 1
            elif "fsync(" in line or "fdatasync(" in line:
                syncs += 1
            elif "pwrite64(" in line:
                writes += 1
    os.remove(trace)
    return {"temporaryFiles": temp_files, "syncs": syncs, "pwrite64": writes}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--co-owners", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--creates", type=int, default=2000)
    parser.add_argument("--bulks", type=int, default=10)
    parser.add_argument("--strace", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args()

    builds = {"before": os.path.abspath(args.before), "after": os.path.abspath(args.after)}
    folder = tempfile.mkdtemp(prefix="write-bench-")
    try:
        seeded = {}
        for name, binary in builds.items():
            print(f"seeding {args.co_owners:,} co-owners with {name}...", file=sys.stderr, flush=True)
            sub = os.path.join(folder, name)
            os.makedirs(sub)
            db, key, _ids, units, _rows = seed(binary, sub, args.co_owners)
            seeded[name] = (db, key, units)
            requests_file(os.path.join(sub, "creates.jsonl"), units, args.creates, random.Random(11))

        figures = {name: {"createsPerSecond": [], "bulkMs": []} for name in builds}
        for r in range(args.rounds):
            order = list(builds) if r % 2 == 0 else list(reversed(builds))
            for name in order:
                binary = builds[name]
                template, key, units = seeded[name]
                sub = os.path.dirname(template)
                db = fresh_copy(template, sub, "run.db")
                seconds = run_creates(binary, db, key, os.path.join(sub, "creates.jsonl"), args.creates)
                figures[name]["createsPerSecond"].append(args.creates / seconds)
                db = fresh_copy(template, sub, "run.db")
                times = run_bulks(binary, db, key, units, args.bulks, random.Random(r))
                figures[name]["bulkMs"].append(statistics.median(times) * 1000)
                print(f"round {r + 1} {name}: {args.creates / seconds:,.0f} creates/s, bulk of 500 "
                      f"{statistics.median(times) * 1000:.1f} ms", file=sys.stderr, flush=True)
        if args.strace:
            for name, binary in builds.items():
                template, key, _units = seeded[name]
                sub = os.path.dirname(template)
                db = fresh_copy(template, sub, "run.db")
                figures[name]["strace"] = strace_counts(binary, db, key, os.path.join(sub, "creates.jsonl"),
                                                         args.creates, sub)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print(f"{args.co_owners:,} co-owners, {args.rounds} interleaved rounds, medians")
    print(f"| | before | after | after/before |\n|---|---|---|---|")
    b, a = figures["before"], figures["after"]
    cb, ca = statistics.median(b["createsPerSecond"]), statistics.median(a["createsPerSecond"])
    print(f"| create_co_owner, {args.creates:,} from a file (calls/s) | {cb:,.0f} | {ca:,.0f} | {ca / cb:.2f}x |")
    bb, ba = statistics.median(b["bulkMs"]), statistics.median(a["bulkMs"])
    print(f"| bulk_create_co_owners of 500 (ms, median of {args.bulks} a round) | {bb:.1f} | {ba:.1f} | {ba / bb:.2f}x |")
    if args.strace:
        for what in ("temporaryFiles", "syncs", "pwrite64"):
            print(f"| {what} for {args.creates:,} creates | {b['strace'][what]:,} | {a['strace'][what]:,} | |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)


if __name__ == "__main__":
    main()
