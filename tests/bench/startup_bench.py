#!/usr/bin/env python3
"""Start-up of `syndic-mcp serve` on stdio: spawn to initialize answer, shared libraries mapped and
resident memory after initialize. Several executables are measured interleaved (A B A B ...) against
one database each made by their own `init`, and the medians printed side by side.

    python3 tests/bench/startup_bench.py build/syndic-mcp [/work/measure/before ...] [--runs 30]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

INITIALIZE = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                          "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                     "clientInfo": {"name": "startup-bench", "version": "1"}}}) + "\n").encode()


def prepare(binary, folder, index):
    db = os.path.join(folder, f"startup-{index}.db")
    made = subprocess.run([binary, "--db", db, "--log-level", "warn", "init", "--name", "Start-up", "--json"],
                          check=True, capture_output=True, text=True)
    return db, json.loads(made.stdout)["apiKey"]


def libraries(pid):
    """The shared objects the process has mapped (its own executable excluded)."""
    names = set()
    with open(f"/proc/{pid}/maps") as f:
        for row in f:
            path = row.split()[-1] if len(row.split()) >= 6 else ""
            if ".so" in os.path.basename(path):
                names.add(path)
    return len(names)


def resident(pid):
    with open(f"/proc/{pid}/status") as f:
        for row in f:
            if row.startswith("VmRSS:"):
                return int(row.split()[1]) / 1024  # MiB
    return 0.0


def once(binary, db, key):
    env = dict(os.environ, SYNDIC_API_KEY=key)
    began = time.perf_counter()
    proc = subprocess.Popen([binary, "--db", db, "--log-level", "warn", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    proc.stdin.write(INITIALIZE)
    proc.stdin.flush()
    answer = proc.stdout.readline()
    elapsed = (time.perf_counter() - began) * 1000
    if b'"result"' not in answer:
        raise SystemExit(f"{binary}: not an initialize result: {answer[:200]!r}")
    figures = (elapsed, libraries(proc.pid), resident(proc.pid))
    proc.stdin.close()
    proc.wait(timeout=30)
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setups = [prepare(b, folder, i) for i, b in enumerate(args.binaries)]
        for b, (db, key) in zip(args.binaries, setups):  # warm the page cache once
            once(b, db, key)
        samples = {b: [] for b in args.binaries}
        for _ in range(args.runs):
            for b, (db, key) in zip(args.binaries, setups):
                samples[b].append(once(b, db, key))
    first = None
    print(f"{'executable':<40} {'runs':>4} {'p50 ms':>8} {'p10 ms':>8} {'p90 ms':>8} {'libs':>5} {'RSS MiB':>8}")
    for b in args.binaries:
        times = sorted(s[0] for s in samples[b])
        p50 = statistics.median(times)
        first = first or p50
        print(f"{b:<40} {len(times):>4} {p50:>8.2f} {times[len(times) // 10]:>8.2f} {times[len(times) * 9 // 10]:>8.2f} "
              f"{statistics.median(s[1] for s in samples[b]):>5.0f} {statistics.median(s[2] for s in samples[b]):>8.1f}"
              f"   x{first / p50:.2f}")


if __name__ == "__main__":
    main()
