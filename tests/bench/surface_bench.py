#!/usr/bin/env python3
"""The tool surface a host loads and the start-up it waits for: for each profile (a set of the
server's options), the number of tools, the size of the tools/list answer, the model-visible
bytes (name + description + input schema, compact JSON) and the start-up time (spawn to the
initialize answer, median and minimum of N spawns). It asserts nothing: figures belong to
docs/performance.md. Usage: surface_bench.py BINARY [--runs N] [NAME=OPTIONS ...]
(OPTIONS: the server's options for that profile, space-separated; none: the defaults)."""
import json, os, statistics, subprocess, sys, tempfile, time

def spawn(binary, args, db):
    return subprocess.Popen([binary, "--db", db, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env={**os.environ, "SYNDIC_API_KEY": ""})

def startup_ms(binary, args, db, runs):
    times = []
    init = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n'
    for _ in range(runs):
        t0 = time.perf_counter()
        p = spawn(binary, args, db)
        p.stdin.write(init); p.stdin.flush()
        p.stdout.readline()
        times.append((time.perf_counter() - t0) * 1000)
        p.stdin.close(); p.wait()
    return statistics.median(times), min(times)

def tools_list(binary, args, db):
    p = spawn(binary, args, db)
    out, _ = p.communicate(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n'
                           b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n')
    lines = out.splitlines()
    answer = json.loads(lines[1])
    tools = answer["result"]["tools"]
    visible = sum(len(t["name"]) + len(t["description"]) + len(json.dumps(t["inputSchema"], separators=(",", ":"), ensure_ascii=False).encode())
                  for t in tools)
    return len(tools), len(lines[1]), visible

def main():
    binary = sys.argv[1]
    runs = 30
    rest = sys.argv[2:]
    if rest[:1] == ["--runs"]:
        runs = int(rest[1]); rest = rest[2:]
    profiles = [p.split("=", 1) for p in rest] or [["default", ""]]
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "s.db")
        subprocess.run([binary, "--db", db, "init", "--name", "Bench"], check=True, capture_output=True)
        print(f"{'profile':<14} {'tools':>5} {'tools/list B':>13} {'model-visible B':>16} {'start-up ms (median, min)':>28}")
        for name, args in profiles:
            a = args.split()
            n, size, visible = tools_list(binary, a, db)
            med, low = startup_ms(binary, a, db, runs)
            print(f"{name:<14} {n:>5} {size:>13,} {visible:>16,} {med:>20.2f} ({low:.2f})")

main()
