#!/usr/bin/env python3
"""Requests from a file, as the issue's table measures them: `syndic-mcp serve < requests > answers`,
timed from spawn to exit (start-up included), for one or more executables run interleaved
(A B A B ...) on the same seeded database; prints the median calls per second of each.

The database holds N co-owners seeded by stdio_bench.seed (through the first executable). Each
file is initialize, notifications/initialized, then CALLS tools/call requests of one kind:
  get   get_co_owner of a random existing co-owner
  list  list_co_owners {"page": 1, "pageSize": 50}, the usual server's list workload
Every answer is checked to be a result.

Usage: file_bench.py BINARY [BINARY...] [--coowners 10000] [--calls 20000] [--runs 5] [--kinds get,list]
       [--db FILE --key KEY --ids FILE]  (reuse a database seeded before; --ids: one id a line)
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stdio_bench  # noqa: E402


def request_file(path, kind, calls, ids):
    rng = random.Random(17)
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "file-bench", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    for i in range(calls):
        if kind == "get":
            call = {"name": "get_co_owner", "arguments": {"id": ids[rng.randrange(len(ids))]}}
        else:
            call = {"name": "list_co_owners", "arguments": {"page": 1, "pageSize": 50}}
        lines.append({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": call})
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


def run_once(binary, db, key, requests, answers):
    env = dict(os.environ, SYNDIC_API_KEY=key)
    with open(requests, "rb") as stdin, open(answers, "wb") as stdout:
        began = time.perf_counter()
        subprocess.run([binary, "--db", db, "--log-level", "warn", "serve"], stdin=stdin, stdout=stdout,
                       stderr=subprocess.DEVNULL, env=env, check=True)
        return time.perf_counter() - began


def check(answers, calls):
    count = 0
    with open(answers, "rb") as f:
        for line in f:
            message = json.loads(line)
            if "result" not in message or message["result"].get("isError"):
                raise SystemExit(f"not a result: {line[:300]!r}")
            count += 1
    if count != calls + 1:
        raise SystemExit(f"{count} answers for {calls + 1} requests")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--coowners", type=int, default=10000)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--kinds", default="get,list")
    parser.add_argument("--db")
    parser.add_argument("--key")
    parser.add_argument("--ids")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="file-bench-")
    if args.db:
        db, key = args.db, args.key
        with open(args.ids) as f:
            ids = [line.strip() for line in f if line.strip()]
    else:
        db, key, ids, _, _ = stdio_bench.seed(args.binaries[0], folder, args.coowners)
        with open(os.path.join(folder, "ids.txt"), "w") as f:
            f.write("\n".join(ids) + "\n")
        print(f"seeded {db} (key {key}, ids {folder}/ids.txt)", file=sys.stderr)

    results = {}
    for kind in args.kinds.split(","):
        requests = os.path.join(folder, f"{kind}.jsonl")
        request_file(requests, kind, args.calls, ids)
        times = {b: [] for b in args.binaries}
        for _ in range(args.runs):
            for binary in args.binaries:
                answers = os.path.join(folder, f"{kind}.out.jsonl")
                times[binary].append(run_once(binary, db, key, requests, answers))
                check(answers, args.calls)
        results[kind] = {b: args.calls / statistics.median(t) for b, t in times.items()}
        first = args.binaries[0]
        for binary in args.binaries:
            ratio = results[kind][binary] / results[kind][first]
            runs = " ".join(f"{args.calls / t:,.0f}" for t in times[binary])
            print(f"{kind:5} {binary:40} median {results[kind][binary]:>9,.0f}/s  x{ratio:.2f}  ({runs})")
    json.dump(results, sys.stdout if False else open(os.path.join(folder, "results.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
