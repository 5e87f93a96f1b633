#!/usr/bin/env python3
"""syndic-mcp side by side with the usual MCP server (the TypeScript SDK over better-sqlite3, in
../shared/peers/), on the same data, in the same run, interleaved round by round.

For each size N: the peer's seed.mjs writes N co-owners in N/2 units, the peers' seed_syndic.py
copies that data into a syndic-mcp database through syndic-mcp's own tools, then every round runs
each workload on the usual server, then on syndic-mcp (A B A B A B):
  - create_co_owner, get_co_owner, search (list_co_owners with a name fragment), list_co_owners
    (page of 50): the whole process, requests from a file, answers to a file (mcpdrive.py run);
    the create runs start from a fresh copy of the seeded database each time;
  - start-up: spawn to the initialize answer (mcpdrive.py startup);
  - resident memory: the peak (wait4's ru_maxrss) of each of those runs;
and, for syndic-mcp alone (the usual server has neither): bulk_create_co_owners of 500 rows one
call at a time (p50), and its HTTP bridge under wrk: one keep-alive connection, then 64
connections on 8 threads, GET /api/co-owners/{id} (req/s, p50/p99, the bridge's peak RSS).
Every answer is checked: a run with an error or a missing answer stops the benchmark.
Prints the table of issue 17 (medians [min..max] over the rounds, ratios of the medians) and
writes every figure as JSON. Measures only; asserts no figure.

With --before BINARY, an earlier syndic-mcp build runs as a third server in the same rounds, on its
own database seeded the same way (its schema may be older), and the table gains its column and
its ratio: "today" and "new" measured side by side.

Usage: peer_bench.py --syndic BINARY --peers DIR --peer-server DIR [--before BINARY]
                     [--sizes 10000,100000] [--rounds 3] [--calls create=2000,...] [--http-seconds 5]
                     [--json FILE] [--quick]
"""
import argparse
import json
import os
import platform
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_hostile_bench import whole_bound  # noqa: E402

CALLS = {"create": 2000, "search": 1000, "search_first": 1000, "get": 20000, "list": 2000}
QUICK_CALLS = {"create": 200, "search": 100, "search_first": 100, "get": 2000, "list": 200}
# The driver's search picks among 7 fragments, which syndic-mcp answers from the matches it keeps
# (Database::recall: 8 searches) after the first time each. This one picks among the 43 first four
# letters of the seed's 48 surnames, so about one call in five repeats one of the last 8 searched.
SURNAMES = ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau",
            "Simon", "Laurent", "Lefebvre", "Michel", "Garcia", "David", "Bertrand", "Roux", "Vincent", "Fournier",
            "Morel", "Girard", "Andre", "Lefevre", "Mercier", "Dupont", "Lambert", "Bonnet", "Francois", "Martinez",
            "Peeters", "Janssens", "Maes", "Jacobs", "Mertens", "Willems", "Claes", "Goossens", "Wouters", "De Smet",
            "Dumont", "Lemaire", "Renard", "Leclercq", "Dupuis", "Lambrecht", "Hermans", "Michiels"]  # seed.mjs's
WORKLOADS = [  # (driver mix, row of the table, target)
    ("create", "`create_co_owner`, requests from a file", "≥ 2x"),
    ("search", "search, name fragments", "≥ 2,000/s; 100k within 2x of 10k"),
    ("search_first", "search, 43 surname fragments (mostly first time)", "≥ 2,000/s; 100k within 2x of 10k"),
    ("get", "`get_co_owner`, from a file", "≥ 5x"),
    ("list", "`list_co_owners`, page of 50", "≥ 10x"),
]
NAMES = {"peer": "usual server", "before": "syndic-mcp before", "syndic": "syndic-mcp"}


def log(message):
    print(message, file=sys.stderr, flush=True)


class Bench:
    def __init__(self, args):
        self.binary = os.path.abspath(args.syndic)
        # The syndic-mcp builds measured: this one, and an earlier one with --before.
        self.binaries = {"syndic": self.binary}
        if args.before:
            self.binaries["before"] = os.path.abspath(args.before)
        self.servers = ("peer",) + tuple(s for s in ("before", "syndic") if s in self.binaries)
        self.peers = os.path.abspath(args.peers)
        self.peer_server = os.path.abspath(args.peer_server)
        self.driver = os.path.join(self.peers, "driver", "mcpdrive.py")
        self.work = args.work
        self.rounds = args.rounds
        self.calls = args.calls
        self.http_seconds = args.http_seconds
        self.startups = args.startups
        self.bulks = args.bulks
        with open(os.path.join(self.peers, "driver", "peer.json")) as f:
            self.template = json.load(f)  # the driver's discovery and call templates, for both servers
        fragments = ",".join(sorted({s[:4].lower() for s in SURNAMES}))
        self.template["calls"]["search_first"] = {"tool": "list_co_owners",
                                                  "args": {"search": "{{pick:" + fragments + "}}", "pageSize": 50}}

    # ------------------------------------------------------------------ databases and configs
    def seed(self, n):
        peer_db = os.path.join(self.work, f"peer-{n}.db")
        remove_db(peer_db)
        began = time.perf_counter()
        out = subprocess.run(["node", "seed.mjs", str(n)], cwd=self.peer_server, check=True, capture_output=True,
                             text=True, env=dict(os.environ, PEER_DB=peer_db)).stdout
        peer_seed = json.loads(out.strip().splitlines()[-1])
        peer_seconds = time.perf_counter() - began
        seeded = {"peer": {"db": peer_db, "units": peer_seed["units"], "coOwners": peer_seed["coOwners"],
                           "seedSeconds": round(peer_seconds, 1), "databaseBytes": os.path.getsize(peer_db)}}
        for s, binary in self.binaries.items():  # each build seeds its own copy through its own tools
            db = os.path.join(self.work, f"{s}-{n}.db")
            remove_db(db)
            out = subprocess.run([sys.executable, os.path.join(self.peers, "driver", "seed_syndic.py"), binary,
                                  peer_db, db], check=True, capture_output=True, text=True).stdout
            seed = json.loads(out.strip().splitlines()[-1])
            seeded[s] = {"db": db, "key": seed["apiKey"], "units": seed["units"], "coOwners": seed["coOwners"],
                         "seedSeconds": seed["seconds"], "seedBulkMsMedian": seed["bulkMsMedian"],
                         "databaseBytes": os.path.getsize(db)}
        return seeded

    def config(self, server, db, key=None):
        """A driver config for one server on one database file (absolute paths, so any cwd)."""
        cfg = dict(self.template)
        if server == "peer":
            cfg["command"] = ["node", os.path.join(self.peer_server, "server.mjs")]
            cfg["env"] = {"PEER_DB": db}
        else:
            cfg["command"] = [self.binaries[server], "--db", db, "--log-level", "warn", "serve"]
            cfg["env"] = {"SYNDIC_API_KEY": key}
        path = os.path.join(self.work, f"{server}-{os.path.basename(db)}.json")
        with open(path, "w") as f:
            json.dump(cfg, f, indent=1)
        return path

    def drive(self, *args):
        out = subprocess.run([sys.executable, self.driver, *args, "--json"], capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"mcpdrive.py {' '.join(args)} failed ({out.returncode}): {out.stderr[-2000:]}")
        return json.loads(out.stdout)

    # ------------------------------------------------------------------ one size
    def measure(self, n):
        log(f"== {n:,} co-owners: seeding the usual server's database, then copying it into syndic-mcp's")
        seeded = self.seed(n)
        servers = self.servers
        dbs = {s: seeded[s]["db"] for s in servers}
        keys = {s: seeded[s].get("key") for s in servers}
        configs = {s: self.config(s, dbs[s], keys[s]) for s in servers}
        scratch = {s: os.path.join(self.work, f"{s}-{n}-scratch.db") for s in servers}
        scratch_configs = {s: self.config(s, scratch[s], keys[s]) for s in servers}

        files = {}
        for mix, _, _ in WORKLOADS:
            for s in servers:  # same seed, so the same fragments and the same sequence of choices
                path = os.path.join(self.work, f"{s}-{n}-{mix}.jsonl")
                subprocess.run([sys.executable, self.driver, "gen", "-c", configs[s], "--mix", mix,
                                "-n", str(self.calls[mix]), "--seed", "1", "-o", path],
                               check=True, capture_output=True)
                files[(s, mix)] = path

        runs = {s: {mix: [] for mix, _, _ in WORKLOADS} for s in servers}
        startup = {s: [] for s in servers}
        for r in range(self.rounds):
            log(f"   round {r + 1}/{self.rounds}")
            for mix, _, _ in WORKLOADS:
                for s in servers:
                    cfg = configs[s]
                    if mix == "create":  # every create run writes into a fresh copy of the seeded database
                        copy_db(dbs[s], scratch[s])
                        cfg = scratch_configs[s]
                    out = os.path.join(self.work, f"{s}-{mix}.out.jsonl")
                    report = self.drive("run", "-c", cfg, files[(s, mix)], "-o", out)
                    bad = {k: report.get(k) for k in ("result_isError", "error", "missing", "unparsable", "other")
                           if report.get(k)}
                    if bad:
                        raise SystemExit(f"{s} {mix}: not every answer is a result: {bad} {report.get('errors')}")
                    if report["exit_code"] != 0:  # every answer was right: noted, printed under the table
                        log(f"   {s} {mix}: the server exited with {report['exit_code']} after answering everything")
                    runs[s][mix].append({"callsPerSecond": report["calls_per_s"], "wallSeconds": report["wall_s"],
                                         "cpuSeconds": report["server_cpu_s"], "exitCode": report["exit_code"],
                                         "peakRssBytes": report["server_peak_rss_kb"] * 1024})
            for s in servers:
                report = self.drive("startup", "-c", configs[s], "--runs", str(self.startups))
                startup[s].append({"medianMs": report["median_us"] / 1000, "minMs": report["min_us"] / 1000,
                                   "rssAfterInitBytes": (report["peak_rss_after_init_kb_median"] or 0) * 1024})
        figures = {"coOwners": n, "seed": strip_paths(seeded), "workloads": runs, "startup": startup}
        builds = [s for s in servers if s != "peer"]
        log("   bulk_create_co_owners (syndic-mcp alone)")
        figures["bulk"] = self.bulk(self.binary, dbs["syndic"], scratch["syndic"], keys["syndic"])
        if "before" in builds:
            figures["bulkBefore"] = self.bulk(self.binaries["before"], dbs["before"], scratch["before"], keys["before"])
        if shutil.which("wrk"):
            log("   HTTP bridge under wrk (syndic-mcp alone)")
            figures["http"] = self.http(self.binary, dbs["syndic"], keys["syndic"])
            if "before" in builds:
                figures["httpBefore"] = self.http(self.binaries["before"], dbs["before"], keys["before"])
        else:
            log("   wrk is not installed: no HTTP figures (tools/bench --peers installs it)")
        for s in servers:
            remove_db(scratch[s])
        return figures

    # ------------------------------------------------------------------ bulk creates (syndic-mcp)
    def bulk(self, binary, db, scratch, key):
        units = [row[0] for row in sqlite3.connect(db).execute("SELECT id FROM units ORDER BY rowid")]
        rounds = []
        for r in range(self.rounds):
            copy_db(db, scratch)
            proc = subprocess.Popen([binary, "--db", scratch, "--log-level", "warn", "serve"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    env=dict(os.environ, SYNDIC_API_KEY=key))
            send_line(proc, {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "peer-bench", "version": "1"}}})
            proc.stdout.readline()
            proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
            times = []
            for b in range(self.bulks):
                rows = [{"unitId": units[(b * 500 + j) * 7919 % len(units)], "firstName": "Lot",
                         "lastName": f"Bulk{r}x{b}x{j}", "email": f"bulk{r}.{b}.{j}@example.test",
                         "language": "en", "isResident": True} for j in range(500)]
                line = (json.dumps({"jsonrpc": "2.0", "id": b + 1, "method": "tools/call",
                                    "params": {"name": "bulk_create_co_owners", "arguments": {"coOwners": rows}}},
                                   separators=(",", ":")) + "\n").encode()
                began = time.perf_counter()
                proc.stdin.write(line)
                proc.stdin.flush()
                answer = proc.stdout.readline()
                times.append((time.perf_counter() - began) * 1000)
                result = (json.loads(answer).get("result") or {}).get("structuredContent") or {}
                if result.get("errorCount", 1) != 0 or len(result.get("created", [])) != 500:
                    raise SystemExit(f"bulk_create_co_owners did not create 500 rows: {answer[:400]!r}")
            proc.stdin.close()
            proc.wait(timeout=60)
            rounds.append({"ms": [round(t, 2) for t in times], "p50Ms": round(statistics.median(times), 2)})
        remove_db(scratch)
        return rounds

    # ------------------------------------------------------------------ HTTP bridge (syndic-mcp)
    def http(self, binary, db, key):
        ids = [row[0] for row in sqlite3.connect(db).execute(
            "SELECT id FROM co_owners WHERE deleted_at IS NULL ORDER BY rowid LIMIT 1000")]
        script = os.path.join(self.work, "co_owners.lua")
        with open(script, "w") as f:
            f.write("local ids = {" + ",".join(f'"{i}"' for i in ids) + "}\nlocal n = 0\n"
                    "request = function()\n  n = n % #ids + 1\n"
                    "  return wrk.format(\"GET\", \"/api/co-owners/\" .. ids[n])\nend\n")
        rounds = []
        for _ in range(self.rounds):
            row = {}
            for name, threads, connections in (("oneConnection", 1, 1), ("connections64", 8, 64)):
                proc, port = start_bridge(binary, db)
                try:
                    before = memory(proc.pid)
                    row[name] = wrk(port, key, script, threads, connections, self.http_seconds)
                    after = memory(proc.pid)
                    row[name].update({"rssBeforeBytes": before["VmRSS"], "rssAfterBytes": after["VmRSS"],
                                      "peakRssBytes": after["VmHWM"]})
                finally:
                    proc.kill()
                    proc.wait()
            rounds.append(row)
        return rounds


# ---------------------------------------------------------------------- helpers
def remove_db(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def copy_db(source, target):
    """A fresh copy of a checkpointed database, private as syndic-mcp wants its files (0600)."""
    remove_db(target)
    for suffix in ("", "-wal"):
        if os.path.exists(source + suffix):
            shutil.copyfile(source + suffix, target + suffix)
            os.chmod(target + suffix, 0o600)


def strip_paths(seeded):
    return {s: {k: v for k, v in d.items() if k not in ("db", "key")} for s, d in seeded.items()}


def send_line(proc, message):
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def start_bridge(binary, db):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNDIC_")}
    # wrk's 64 connections all come from 127.0.0.1: past the bound per address (32) where the build
    # has one, which is lifted to the whole bound for the measure.
    proc = subprocess.Popen([binary, "http", "--db", db, "--listen", "127.0.0.1:0", *whole_bound(binary)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    seen = []
    while True:
        line = proc.stderr.readline().decode(errors="replace")
        if not line:
            raise SystemExit(f"the HTTP bridge did not start: {''.join(seen)[-1000:]}")
        seen.append(line)
        m = re.search(r"serving http://127\.0\.0\.1:(\d+)/api", line)
        if m:
            break
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    return proc, int(m.group(1))


def memory(pid):
    with open(f"/proc/{pid}/status") as f:
        text = f.read()
    return {k: int(v) * 1024 for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(\d+) kB", text, re.M)}


def wrk_ms(text):
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    return float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[m.group(2)]


def wrk(port, key, script, threads, connections, seconds):
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script,
                          "-H", f"Authorization: Bearer {key}", f"http://127.0.0.1:{port}"],
                         capture_output=True, text=True)
    text = out.stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", text)
    total = re.search(r"(\d+) requests in", text)
    if out.returncode != 0 or not rate or not total:
        raise SystemExit(f"wrk failed ({out.returncode}): {text[-1000:]} {out.stderr[-1000:]}")
    found = {p: re.search(rf"^\s+{p}%\s+(\S+)", text, re.M) for p in ("50", "99")}
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    return {"requests": int(total.group(1)), "reqPerSecond": float(rate.group(1)),
            "p50Ms": wrk_ms(found["50"].group(1)), "p99Ms": wrk_ms(found["99"].group(1)),
            "non2xx": int(bad.group(1)) if bad else 0,
            "socketErrors": sum(int(x) for x in errors.groups()) if errors else 0}


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(), "load": os.getloadavg()}


# ---------------------------------------------------------------------- the table
def med(values):
    return statistics.median(values)


def number(v):
    return f"{v:,.0f}" if v >= 100 else f"{v:,.1f}" if v >= 10 else f"{v:,.2f}"


def spread(values, unit):
    """The median with its unit, then [min..max] of the rounds."""
    return f"{number(med(values))}{unit} [{number(min(values))}..{number(max(values))}]"


def ms(v):
    return f"{number(v)} ms"


def mb(v):
    return f"{v / 2**20:,.0f} MB"


def http_rows(http):
    """The two HTTP cells: one keep-alive connection, then 64 connections on 8 threads."""
    one = [r["oneConnection"] for r in http]
    many = [r["connections64"] for r in http]
    errs = sum(x["non2xx"] + x["socketErrors"] for x in one + many)
    return (f"{spread([x['reqPerSecond'] for x in one], ' req/s')}, "
            f"p50 {ms(med([x['p50Ms'] for x in one]))}, p99 {ms(med([x['p99Ms'] for x in one]))}",
            f"{spread([x['reqPerSecond'] for x in many], ' req/s')}, "
            f"p99 {ms(med([x['p99Ms'] for x in many]))}, peak RSS {mb(med([x['peakRssBytes'] for x in many]))}"
            f" (from {mb(med([x['rssBeforeBytes'] for x in many]))})" + (f", {errs} errors or non-2xx" if errs else ""))


def table(f):
    """Issue 17's table: one column per server, the ratio of each syndic-mcp build to the usual server."""
    w = f["workloads"]
    builds = [s for s in ("before", "syndic") if s in w]  # the syndic-mcp columns, the earlier build first
    rows = []

    def row(label, peer, cells, ratios, target):
        rows.append((label, peer, *cells, *ratios, target))

    if f.get("http"):
        cells = {"syndic": http_rows(f["http"])}
        if "before" in builds:
            cells["before"] = http_rows(f["httpBefore"]) if f.get("httpBefore") else ("—", "—")
        row("HTTP keep-alive, one connection, `GET /api/co-owners/{id}`", "—", [cells[b][0] for b in builds],
            ["—"] * len(builds), "≥ 15,000 req/s, p99 < 1 ms")
        row("HTTP, 64 connections, 8 threads", "—", [cells[b][1] for b in builds], ["—"] * len(builds),
            "≥ 30,000 req/s, p99 < 15 ms, memory flat")
    bulk_of = {"syndic": f.get("bulk"), "before": f.get("bulkBefore")}
    for mix, label, target in WORKLOADS:
        peer = [x["callsPerSecond"] for x in w["peer"][mix]]
        rates = {b: [x["callsPerSecond"] for x in w[b][mix]] for b in builds}
        row(label, spread(peer, "/s"), [spread(rates[b], "/s") for b in builds],
            [f"{med(rates[b]) / med(peer):.2f}x" for b in builds], target)
        if mix == "create":
            row("`bulk_create_co_owners`, 500 rows (p50)", "—",
                [spread([r["p50Ms"] for r in bulk_of[b]], " ms") if bulk_of[b] else "—" for b in builds],
                ["—"] * len(builds), "< 20 ms")
    peer = [x["medianMs"] for x in f["startup"]["peer"]]
    starts = {b: [x["medianMs"] for x in f["startup"][b]] for b in builds}
    row("start-up, spawn to initialize answer", spread(peer, " ms"), [spread(starts[b], " ms") for b in builds],
        [f"{med(peer) / med(starts[b]):.1f}x" for b in builds], "≥ 35x (≤ 5 ms)")

    def memory_range(server):
        per = [med([x["peakRssBytes"] for x in w[server][mix]]) for mix, _, _ in WORKLOADS]
        return min(per), max(per)
    plo, phi = memory_range("peer")
    ranges = {b: memory_range(b) for b in builds}
    row("resident memory, peak of each workload", f"{plo / 2**20:,.0f}-{mb(phi)}",
        [f"{ranges[b][0] / 2**20:,.0f}-{mb(ranges[b][1])}" for b in builds],
        [f"{phi / ranges[b][1]:.1f}x less" for b in builds], "< 25 MB")
    ratio_names = {"before": "ratio before", "syndic": "ratio"}
    head = ("workload", NAMES["peer"], *[NAMES[b] for b in builds], *[ratio_names[b] for b in builds], "target ratio")
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--syndic", required=True, help="the syndic-mcp executable")
    parser.add_argument("--peers", required=True, help="the shared peers folder (driver/, ts-sdk-server/)")
    parser.add_argument("--peer-server", required=True, help="the usual server's folder, with its node_modules")
    parser.add_argument("--before", help="an earlier syndic-mcp executable, measured in the same rounds")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", default="", help="calls per file, e.g. create=2000,search=1000,get=20000,list=2000")
    parser.add_argument("--startups", type=int, default=10, help="spawns per round for the start-up")
    parser.add_argument("--bulks", type=int, default=10, help="bulk calls of 500 rows per round")
    parser.add_argument("--http-seconds", type=int, default=5, help="seconds per wrk run")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--work", help="folder for the databases and request files (default: a temporary one)")
    parser.add_argument("--quick", action="store_true", help="1,000 co-owners, tenth-size files, short runs")
    args = parser.parse_args()
    wanted, args.calls = args.calls, dict(QUICK_CALLS if args.quick else CALLS)
    for part in filter(None, (p.strip() for p in wanted.split(","))):
        name, _, value = part.partition("=")
        if name not in args.calls:
            parser.error(f"--calls: {name!r} is not one of {sorted(args.calls)}")
        args.calls[name] = int(value)
    sizes = [1000] if args.quick else [int(s) for s in args.sizes.split(",")]
    if args.quick:
        args.startups, args.bulks, args.http_seconds = 3, 3, 2
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")

    version = subprocess.run([args.syndic, "--version"], capture_output=True, text=True).stdout.strip()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    results = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "syndic": version, "node": node,
               "machine": machine(), "rounds": args.rounds, "calls": args.calls, "sizes": [],
               "before": os.path.abspath(args.before) if args.before else None}
    with tempfile.TemporaryDirectory(prefix="syndic-peer-bench-", dir=args.work) as work:
        args.work = work
        bench = Bench(args)
        for n in sizes:
            results["sizes"].append(bench.measure(n))
    results["machine"]["loadAfter"] = os.getloadavg()
    print(f"{version} and the usual server (Node {node}, TypeScript SDK, better-sqlite3), "
          f"{args.rounds} rounds interleaved; {results['machine']['cpu']} ({results['machine']['cores']} cores), "
          f"load average {results['machine']['load'][0]:.1f} before, {results['machine']['loadAfter'][0]:.1f} after")
    print("calls per file: " + ", ".join(f"{k} {v:,}" for k, v in args.calls.items())
          + "; median [min..max] of the rounds; ratio = syndic-mcp / usual server (start-up, memory: the inverse)")
    for f in results["sizes"]:
        print(f"\n{f['coOwners']:,} co-owners ({f['seed']['peer']['units']:,} units)\n")
        print(table(f))
        for s in f["workloads"]:
            exits = [(mix, x["exitCode"]) for mix in f["workloads"][s] for x in f["workloads"][s][mix] if x["exitCode"]]
            if exits:
                print(f"\nwarning: {s} answered every call but exited with a failure in {len(exits)} runs: "
                      + ", ".join(f"{mix} {code}" for mix, code in exits))
    if len(results["sizes"]) > 1:
        small, large = results["sizes"][0], results["sizes"][-1]
        for s, name in NAMES.items():
            if s not in small["workloads"]:
                continue
            for mix in ("search", "search_first"):
                a = med([x["callsPerSecond"] for x in small["workloads"][s][mix]])
                b = med([x["callsPerSecond"] for x in large["workloads"][s][mix]])
                print(f"{mix} at {large['coOwners']:,} against {small['coOwners']:,}: {name} {a / b:.1f}x slower")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
            f.write("\n")
        print(f"\nfigures written to {args.json}")


if __name__ == "__main__":
    main()
