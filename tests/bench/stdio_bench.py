#!/usr/bin/env python3
"""Whole-process benchmark of syndic-mcp over stdio, as an MCP host drives it.

For each size N it seeds a fresh database of N co-owners (N/4 units whose fractions sum to 100,
four co-owners per unit, the first primary) through the real executable, then measures through that executable:
  - start-up: spawn to the initialize answer (median of repeated spawns);
  - throughput of a pipe of CALLS requests per tool (written ahead, answers read as they come);
  - latency p50/p99, one call at a time;
  - resident memory: after start, and the peak of every phase (VmHWM), including a flood of
    pipelined requests written much faster than they are answered.
Every answer is checked to be a result, not an error. Prints a table; writes the figures as JSON.

Usage: stdio_bench.py BINARY [--sizes 10000,100000] [--calls 20000] [--json FILE] [--micro FILE] [--quick]
"""
import argparse
import atexit
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time

FIRST_NAMES = ["Marie", "Jean", "Émilie", "François", "Hélène", "Luc", "Geneviève", "Mathieu", "Chloé", "Gaétan",
               "Isabelle", "Sébastien", "Josée", "Réjean", "Nathalie", "Pierre", "Mélanie", "André", "Sophie", "Éric",
               "Julie", "Benoît", "Valérie", "Stéphane", "Anne", "Denis", "Catherine", "Michel", "Caroline", "Yves",
               "Ève", "Louis", "Camille", "Olivier", "Léa", "Gabriel", "Noémie", "Félix", "Zoé", "Thomas"]
LAST_NAMES = ["Tremblay", "Gagnon", "Roy", "Côté", "Bouchard", "Gauthier", "Morin", "Lavoie", "Fortin", "Gagné",
              "Ouellet", "Pelletier", "Bélanger", "Lévesque", "Bergeron", "Leblanc", "Paquette", "Girard", "Simard",
              "Boucher", "Caron", "Beaulieu", "Cloutier", "Dubé", "Poirier", "Fournier", "Lapointe", "Leclerc",
              "Lefebvre", "Poulin", "Thibault", "St-Pierre", "Nadeau", "Martin", "Landry", "Martel", "Bédard",
              "Grenier", "Lessard", "Bernier", "Richard", "Michaud", "Hébert", "Desjardins", "Couture", "Turcotte",
              "Lachance", "Parent", "Blais", "Gosselin", "Savard", "Proulx", "Beaudoin", "Demers", "Perreault",
              "Boudreau", "Lemieux", "Cyr", "Perron", "Dufour", "Dion", "Mercier", "Bolduc", "Bérubé", "Boivin",
              "Langlois", "Émond", "Ménard", "Vachon", "Champagne"]


def ascii_fold(text):
    table = str.maketrans("éèêëàâäîïôöùûüçÉÈÊÀÂÎÔÙÛÇ", "eeeeaaaiioouuucEEEAAIOUUC")
    return text.translate(table)


RUNNING = []  # servers still up: a failed check stops them, so no run is left behind


def stop_all():
    for proc in RUNNING:
        if proc.poll() is None:
            proc.kill()


atexit.register(stop_all)


class Server:
    """One syndic-mcp process on stdio, with its pipes and its /proc status."""

    def __init__(self, binary, db, key):
        env = dict(os.environ, SYNDIC_API_KEY=key)
        self.proc = subprocess.Popen([binary, "--db", db, "--log-level", "warn", "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        RUNNING.append(self.proc)
        self.out = self.proc.stdout
        self.next_id = 1
        self.stderr = []
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()

    def request(self, method, params):
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.next_id += 1
        return (json.dumps(message, ensure_ascii=False) + "\n").encode()

    def call(self, name, arguments):
        return self.request("tools/call", {"name": name, "arguments": arguments})

    def initialize(self):
        self.send(self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                          "clientInfo": {"name": "stdio-bench", "version": "1"}}))
        answer = json.loads(self.out.readline())
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        return answer

    def send(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def one(self, line):
        """Sends one request and reads its answer, which must be a result."""
        self.send(line)
        answer = self.out.readline()
        check(answer)
        return answer

    def status(self, field):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for row in f:
                if row.startswith(field + ":"):
                    return int(row.split()[1]) * 1024  # kB
        return 0

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        if self.proc.returncode != 0:
            raise SystemExit(f"server exited {self.proc.returncode}: {b''.join(self.stderr).decode(errors='replace')}")


def check(answer):
    # Answers are dumped with sorted keys: {"id":..,"jsonrpc":"2.0","result":..}; an error starts {"error":
    if not answer.startswith(b'{"id":') or b',"jsonrpc":"2.0","result":' not in answer[:80]:
        raise SystemExit(f"not a result: {answer[:300]!r}")


def pipe(server, lines):
    """Writes every line ahead from a second thread and reads the answers; returns the seconds."""
    def write():
        for start in range(0, len(lines), 256):
            server.send(b"".join(lines[start:start + 256]))

    writer = threading.Thread(target=write, daemon=True)
    began = time.perf_counter()
    writer.start()
    for _ in lines:
        check(server.out.readline())
    elapsed = time.perf_counter() - began
    writer.join()
    return elapsed


def percentile(samples, p):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def seed(binary, folder, n):
    """A database of n co-owners in n/4 units, through the executable; returns (db, key, ids, units, rows)."""
    db = os.path.join(folder, f"bench-{n}.db")
    made = subprocess.run([binary, "--db", db, "--log-level", "warn", "init", "--name", f"Bench {n}", "--json"],
                          check=True, capture_output=True, text=True)
    key = json.loads(made.stdout)["apiKey"]
    server = Server(binary, db, key)
    server.initialize()
    unit_count = n // 4
    fraction = round(100 / unit_count, 6)
    rest = round(100 - fraction * (unit_count - 1), 6)
    lines = [server.call("create_unit", {"number": str(1000 + i), "type": "apartment", "floor": 1 + (i // 40) % 60,
                                         "areaSqFt": 650 + (i * 37) % 900, "bedrooms": 1 + i % 4,
                                         "fractionPercent": rest if i == unit_count - 1 else fraction})
             for i in range(unit_count)]
    units = []

    def write():
        for start in range(0, len(lines), 256):
            server.send(b"".join(lines[start:start + 256]))

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    for _ in lines:
        answer = server.out.readline()
        check(answer)
        units.append(json.loads(answer)["result"]["structuredContent"]["id"])
    writer.join()

    rng = random.Random(n)
    ids = []
    rows = []
    for i in range(n):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        row = {"unitId": units[i // 4], "firstName": first, "lastName": last,
               "email": f"{ascii_fold(first).lower()}.{ascii_fold(last).lower().replace(' ', '')}{i}@exemple.qc.ca",
               "fractionPercent": round(fraction / 4, 6), "isPrimary": i % 4 == 0, "isResident": i % 3 != 0,
               "language": "en" if i % 5 == 0 else "fr", "hasPortalAccess": i % 4 == 0}
        if i % 2 == 0:
            row["phone"] = f"514-555-{i % 10000:04d}"
        rows.append(row)
    for start in range(0, n, 500):
        answer = json.loads(server.one(server.call("bulk_create_co_owners", {"coOwners": rows[start:start + 500]})))
        result = answer["result"]["structuredContent"]
        if result["errorCount"]:
            raise SystemExit(f"seeding failed: {result['errors'][:3]}")
        ids.extend(c["id"] for c in result["created"])
    server.close()
    return db, key, ids, units, rows


def measure(binary, folder, n, calls, startups):
    seeding = time.perf_counter()
    db, key, ids, units, rows = seed(binary, folder, n)
    seeding = time.perf_counter() - seeding
    rng = random.Random(7)
    figures = {"coOwners": n, "units": len(units), "seedSeconds": round(seeding, 1),
               "databaseBytes": os.path.getsize(db), "tools": {}}

    # Start-up: spawn to the initialize answer, on the seeded database.
    times = []
    for _ in range(startups):
        began = time.perf_counter()
        server = Server(binary, db, key)
        server.initialize()
        times.append(time.perf_counter() - began)
        rss = server.status("VmRSS")
        server.close()
    figures["startupMs"] = {"median": round(statistics.median(times) * 1000, 2),
                            "min": round(min(times) * 1000, 2)}
    figures["rssAfterStartBytes"] = rss

    # Two kinds of search: for a person (the name part of an e-mail: one match), and for a surname
    # (one of 70, so about n/70 matches, which grow with the register).
    def person_term():
        return rows[rng.randrange(n)]["email"].split("@")[0]

    def surname_term():
        return rows[rng.randrange(n)]["lastName"]

    workloads = {
        "get_co_owner": lambda i: ("get_co_owner", {"id": ids[rng.randrange(n)]}),
        "list_co_owners": lambda i: ("list_co_owners", {"page": 1 + i % 20, "pageSize": 50}),
        "search: a person": lambda i: ("list_co_owners", {"search": person_term(), "pageSize": 50}),
        "search: a surname (n/70)": lambda i: ("list_co_owners", {"search": surname_term(), "pageSize": 50}),
        "create_co_owner": lambda i: ("create_co_owner", {
            "unitId": units[rng.randrange(len(units))], "firstName": rng.choice(FIRST_NAMES),
            "lastName": rng.choice(LAST_NAMES), "email": f"nouveau{i}@exemple.qc.ca", "fractionPercent": 0}),
        "bulk_create_co_owners 500": lambda i: ("bulk_create_co_owners", {"coOwners": [
            {"unitId": units[rng.randrange(len(units))], "firstName": rng.choice(FIRST_NAMES),
             "lastName": rng.choice(LAST_NAMES), "email": f"lot{i}.{j}@exemple.qc.ca", "fractionPercent": 0}
            for j in range(500)]}),
    }
    peak = rss
    for name, make in workloads.items():
        bulk = name.startswith("bulk")
        count = max(calls // 500, 4) if bulk else calls
        sequential = max(count // 10, 20) if bulk else min(2000, count)
        server = Server(binary, db, key)
        server.initialize()
        for i in range(min(200, count // 10)):  # warm-up: statements prepared, pages cached
            server.one(server.call(*make(i)))
        lines = [server.call(*make(i)) for i in range(count)]
        seconds = pipe(server, lines)
        latencies = []
        for i in range(sequential):
            line = server.call(*make(count + i))
            began = time.perf_counter()
            server.one(line)
            latencies.append(time.perf_counter() - began)
        hwm = server.status("VmHWM")
        server.close()
        peak = max(peak, hwm)
        entry = {"calls": count, "seconds": round(seconds, 3), "callsPerSecond": round(count / seconds),
                 "p50Ms": round(percentile(latencies, 50) * 1000, 3),
                 "p99Ms": round(percentile(latencies, 99) * 1000, 3), "peakRssBytes": hwm}
        if bulk:
            entry["msPerCall"] = round(seconds / count * 1000, 2)
        figures["tools"][name] = entry

    # A flood: many list requests written at once, answers read only after all are written. The
    # server reads ahead a bounded amount, so its memory must not grow with what is waiting.
    server = Server(binary, db, key)
    server.initialize()
    flood = [server.call("list_co_owners", {"page": 1 + i % 20}) for i in range(calls * 5)]
    done = threading.Event()

    def write_all():
        for start in range(0, len(flood), 1024):
            server.send(b"".join(flood[start:start + 1024]))
        done.set()

    writer = threading.Thread(target=write_all, daemon=True)
    writer.start()
    time.sleep(2)  # nothing read yet: answers back up into stdout's pipe, requests into stdin's
    flood_hwm_blocked = server.status("VmHWM")
    for _ in flood:
        check(server.out.readline())
    writer.join()
    flood_hwm = server.status("VmHWM")
    server.close()
    figures["flood"] = {"requests": len(flood), "requestBytes": sum(map(len, flood)),
                        "peakRssWhileUnreadBytes": flood_hwm_blocked, "peakRssBytes": flood_hwm}
    figures["peakRssBytes"] = max(peak, flood_hwm)
    return figures


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
            "memoryGiB": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)}


def mb(value):
    return f"{value / 2**20:.1f} MB"


def table(results):
    out = []
    if results.get("micro"):
        out.append("\nPer call, in process (micro-benchmarks):")
        for b in results["micro"]:
            rate = f"  ({b['bytesPerSecond'] / 2**20:,.0f} MB/s)" if "bytesPerSecond" in b else ""
            out.append(f"  {b['name']:<30}{b['nsPerCall'] / 1000:>10.2f} µs{rate}")
    for f in results["sizes"]:
        out.append(f"\n{f['coOwners']:,} co-owners ({f['units']:,} units; database {mb(f['databaseBytes'])}; "
                   f"seeded in {f['seedSeconds']} s)")
        out.append(f"  start-up (spawn to initialize answer): median {f['startupMs']['median']} ms, "
                   f"min {f['startupMs']['min']} ms; resident after start {mb(f['rssAfterStartBytes'])}")
        out.append(f"  {'tool':<28}{'calls':>7}{'calls/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'peak RSS':>11}")
        for name, t in f["tools"].items():
            rate = f"{t['callsPerSecond']:,}"
            extra = f"   ({t['msPerCall']} ms per call)" if "msPerCall" in t else ""
            out.append(f"  {name:<28}{t['calls']:>7}{rate:>10}{t['p50Ms']:>9}{t['p99Ms']:>9}"
                       f"{mb(t['peakRssBytes']):>11}{extra}")
        fl = f["flood"]
        out.append(f"  flood of {fl['requests']:,} pipelined lists ({mb(fl['requestBytes'])} of requests): peak RSS "
                   f"{mb(fl['peakRssWhileUnreadBytes'])} while unread, {mb(fl['peakRssBytes'])} at the end")
        out.append(f"  peak resident memory over all phases: {mb(f['peakRssBytes'])}")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--startups", type=int, default=30)
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--micro", help="Google Benchmark JSON of the micro-benchmarks, to include")
    parser.add_argument("--quick", action="store_true", help="1,000 co-owners and 2,000 calls: a smoke run")
    args = parser.parse_args()
    sizes = [1000] if args.quick else [int(s) for s in args.sizes.split(",")]
    calls = 2000 if args.quick else args.calls
    version = subprocess.run([args.binary, "--version"], capture_output=True, text=True).stdout.strip()
    results = {"date": time.strftime("%Y-%m-%d"), "version": version, "machine": machine(), "calls": calls,
               "sizes": []}
    if args.micro:
        with open(args.micro) as f:
            results["micro"] = [{"name": b["name"], "nsPerCall": round(b["real_time"], 1),
                                 **({"bytesPerSecond": round(b["bytes_per_second"])} if "bytes_per_second" in b else {})}
                                for b in json.load(f)["benchmarks"]]
    with tempfile.TemporaryDirectory(prefix="syndic-bench-") as folder:
        for n in sizes:
            print(f"seeding and measuring {n:,} co-owners...", file=sys.stderr, flush=True)
            results["sizes"].append(measure(args.binary, folder, n, calls, 5 if args.quick else args.startups))
    print(f"syndic-mcp {version} on {results['machine']['cpu']} ({results['machine']['cores']} cores), "
          f"pipes of {calls:,} calls")
    print(table(results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
            f.write("\n")
        print(f"\nfigures written to {args.json}")


if __name__ == "__main__":
    main()
