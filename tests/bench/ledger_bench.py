#!/usr/bin/env python3
"""The syndicate's money at size, through the real executable (issue 29's performance figures).

It builds a syndicate of UNITS units (one co-owner each, equal fractions) with YEARS fiscal years
of monthly notices and payments, each step a tool call as a board and its treasurer would make it,
the clock moved with Debian's faketime: for each year, the budget is drafted in December, consulted
at a held meeting, adopted by the board's written resolution, its notices generated and issued
(PDFs and e-mails), then the payments come in, month by month (UNITS x 12 x YEARS charges, about
as many payments). Most lots pay on time, a few pay late or in part, some stop paying: five more
than three months ago (their votes suspended, art. 1094), five two months ago.

Then, on the last day (the clock fixed at NOW), it measures, one call at a time:
  - get_owner_statement of a random lot, its whole history and the current year only;
  - list_arrears (the first page of 50) and get_voting_roll of a meeting still to come;
  - get_co_owner, as the baseline of a call that reads one row.
Server time is what the server logs for each call ("tools/call NAME ok 1.2 ms", info level: from
the call's arrival to its answer, the JSON-RPC parsing and the pipe aside); the round trip as the
host sees it is given too. Medians and p99 over ROUNDS calls.

Then the ledger's tables and indexes in pages (SQLite's dbstat) and pages per payment; what a
payment writes (December's payments on a copy, under strace when it is installed: WAL frames,
database pages, syncs); and issuing the next year's notices (UNITS notices with their PDFs, e-mails
queued) timed on fresh copies of the database, ISSUES times, the reads measured again on the first
copy on December 28 (twelve months of notices to come). Asserts nothing but that every answer is a
result.

Usage: ledger_bench.py BINARY [--units 200] [--years 5] [--rounds 200] [--issues 3] [--json FILE] [--keep DIR] [--quick]
"""
import argparse
import datetime
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

NOW = datetime.date(2026, 11, 29)  # the benchmark's "today": its figures do not depend on the day it runs
LOGGED = re.compile(rb"tools/call (\S+) (\S+) ([0-9.]+) ms")
LEDGER_TABLES = ("charges", "charge_fund_lines", "charge_settlements", "payments", "payment_allocations", "payment_credits",
                 "journal_entries", "journal_lines")


class Server:
    """One `syndic-mcp serve` under faketime, its clock starting at `clock` (UTC) and running; under
    strace writing to `trace` when given."""

    def __init__(self, binary, db, key, clock, trace=None):
        env = dict(os.environ, SYNDIC_API_KEY=key, TZ="UTC")
        traced = ["strace", "-f", "-qq", "-e", "trace=openat,fsync,fdatasync,pwrite64", "-o", trace] if trace else []
        self.proc = subprocess.Popen(traced + ["faketime", "-f", f"@{clock}", binary, "--db", db, "--log-level", "info", "serve",
                                      "--modules", "all"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.next_id = 1
        self.logged = []  # (tool, outcome, ms) in the order the server answered
        self.log_lock = threading.Lock()
        threading.Thread(target=self._read_log, daemon=True).start()

    def _read_log(self):
        for line in self.proc.stderr:
            found = LOGGED.search(line)
            if found:
                with self.log_lock:
                    self.logged.append((found[1].decode(), found[2].decode(), float(found[3])))

    def line(self, tool, arguments):
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
        self.next_id += 1
        return (json.dumps(message, ensure_ascii=False) + "\n").encode()

    def call(self, tool, arguments):
        self.proc.stdin.write(self.line(tool, arguments))
        self.proc.stdin.flush()
        return result_of(tool, self.proc.stdout.readline())

    def pipeline(self, calls):
        """Writes every call ahead from a second thread; returns the results in order."""
        lines = [self.line(tool, arguments) for tool, arguments in calls]

        def write():
            for start in range(0, len(lines), 256):
                self.proc.stdin.write(b"".join(lines[start:start + 256]))
                self.proc.stdin.flush()
        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        results = [result_of(tool, self.proc.stdout.readline()) for tool, _ in calls]
        writer.join()
        return results

    def server_ms(self, tool, count):
        """The server's own time of the last `count` calls of `tool` (waits for their log lines)."""
        for _ in range(200):
            with self.log_lock:
                times = [ms for name, outcome, ms in self.logged if name == tool and outcome == "ok"]
            if len(times) >= count:
                return times[-count:]
            time.sleep(0.01)
        raise SystemExit(f"the server logged {len(times)} calls of {tool}, not {count}")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=120)


def result_of(tool, answer):
    message = json.loads(answer)
    if "result" not in message:
        raise SystemExit(f"{tool} refused: {json.dumps(message.get('error'), ensure_ascii=False)[:500]}")
    return message["result"]["structuredContent"]


def at(day, hour):
    """A Montreal wall-clock hour of `day` as the UTC instant faketime takes (EST, -05:00, is close enough)."""
    return f"{day} {hour + 5:02d}:00:00"


def found_syndicate(binary, db, units):
    """The syndicate on November 1 of the year before the first: units, co-owners and a board."""
    start = datetime.date(NOW.year - 5, 11, 1)
    made = subprocess.run(["faketime", "-f", f"@{at(start, 9)}", binary, "--db", db, "--log-level", "warn", "init",
                           "--name", f"Syndicat du {units} rue Saint-Denis", "--json"],
                          check=True, capture_output=True, text=True, env=dict(os.environ, TZ="UTC"))
    key = json.loads(made.stdout)["apiKey"]
    server = Server(binary, db, key, at(start, 10))
    share = round(100 / units, 6)
    fractions = [round(100 - share * (units - 1), 6) if i == units - 1 else share for i in range(units)]
    unit_ids = [r["id"] for r in server.pipeline([("create_unit", {
        "number": str(101 + (i // 20) * 100 + i % 20), "type": "apartment", "floor": 1 + i // 20, "areaSqFt": 650 + (i * 37) % 900,
        "fractionPercent": fractions[i]}) for i in range(units)])]
    rows = [{"unitId": unit_ids[i], "firstName": "Copropriétaire", "lastName": f"No {i + 1}",
             "email": f"coproprietaire{i + 1}@exemple.qc.ca", "fractionPercent": fractions[i], "isPrimary": True,
             "language": "en" if i % 5 == 0 else "fr"} for i in range(units)]
    owners = []
    for first in range(0, units, 500):
        made = server.call("bulk_create_co_owners", {"coOwners": rows[first:first + 500]})
        if made["errorCount"]:
            raise SystemExit(f"co-owners refused: {made['errors'][:3]}")
        owners.extend(c["id"] for c in made["created"])
    election = server.call("record_written_resolution", {
        "body": "general", "title": "Élection du conseil d'administration", "majorityRequired": "simple",
        "text": "Les copropriétaires élisent les trois premiers d'entre eux administrateurs.",
        "signatures": [{"signerId": o, "signedOn": str(start)} for o in owners]})
    directors = [server.call("appoint_director", {
        "coOwnerId": owners[i], "role": role, "appointedBy": "meeting", "resolutionId": election["id"],
        "termStart": str(start), "termEnd": str(NOW + datetime.timedelta(days=400))})["id"]
        for i, role in enumerate(("president", "secretary", "treasurer"))]
    server.close()
    return key, unit_ids, directors


def adopt_year(binary, db, key, directors, year, units):
    """The budget of `year` drafted on November 29, consulted on December 21 (after its 21 days'
    notice), adopted the next day and its notices generated: the board's December."""
    server = Server(binary, db, key, at(datetime.date(year - 1, 11, 29), 10))
    budget = server.call("create_budget", {"fiscalYear": year})
    operating = 1500 * 100 * units  # $1,500 a unit a year
    server.call("update_budget", {"id": budget["id"], "lines": [
        {"fund": "operating", "kind": "expense", "label": "Assurances", "amountCents": operating * 30 // 100},
        {"fund": "operating", "kind": "expense", "label": "Énergie", "amountCents": operating * 20 // 100},
        {"fund": "operating", "kind": "expense", "label": "Entretien et réparations", "amountCents": operating * 35 // 100},
        {"fund": "operating", "kind": "expense", "label": "Gestion", "amountCents": operating * 15 // 100 + year % 7},
        {"fund": "contingency", "kind": "contribution", "label": "Contribution au fonds de prévoyance", "amountCents": operating // 5},
        {"fund": "self-insurance", "kind": "contribution", "label": "Contribution au fonds d'autoassurance", "amountCents": operating // 50}]})
    meeting = server.call("create_meeting", {
        "title": f"Assemblée extraordinaire — budget {year}", "type": "aga-special",
        "scheduledAt": f"{year - 1}-12-21T19:00:00-05:00", "location": "Salle communautaire",
        "agenda": ["Ouverture de l'assemblée et vérification du quorum", f"Consultation sur le budget {year}", "Levée de l'assemblée"]})
    server.call("send_meeting_notice", {"meetingId": meeting["id"]})
    server.close()
    server = Server(binary, db, key, f"{year - 1}-12-22 02:30:00")  # the evening of the 21st in Montreal
    server.call("update_meeting", {"id": meeting["id"], "status": "held"})
    server.close()
    decided = datetime.date(year - 1, 12, 22)
    server = Server(binary, db, key, at(decided, 9))
    server.call("record_budget_consultation", {"id": budget["id"], "meetingId": meeting["id"]})
    resolution = server.call("record_written_resolution", {
        "body": "board", "title": f"Adoption du budget {year}", "majorityRequired": "simple",
        "text": f"Après consultation de l'assemblée, le conseil fixe les contributions de l'exercice {year}.",
        "signatures": [{"signerId": d, "signedOn": str(decided)} for d in directors]})
    server.call("adopt_budget", {"id": budget["id"], "resolutionId": resolution["id"]})
    generated = server.call("generate_assessment_notices", {"fiscalYear": year})
    server.close()
    assert generated["generated"] == units, generated["generated"]


def issue_year(binary, db, key, year):
    """Issues the year's drafts on December 23; returns the wall seconds and the server's."""
    server = Server(binary, db, key, at(datetime.date(year - 1, 12, 23), 9))
    began = time.perf_counter()
    issued = server.call("issue_assessment_notices", {"fiscalYear": year})
    wall = time.perf_counter() - began
    took = server.server_ms("issue_assessment_notices", 1)[0]
    server.close()
    return issued, wall, took / 1000


def instalments(binary, db, key, year, clock):
    server = Server(binary, db, key, clock)
    due = []
    page = 1
    while True:
        listed = server.call("list_assessment_notices", {"fiscalYear": year, "pageSize": 100, "page": page})
        for notice in listed["data"]:
            for i in notice["installments"]:
                due.append((i["dueOn"], notice["unitId"], i["amountCents"]))
        if page * 100 >= listed["pagination"]["total"]:
            break
        page += 1
    server.close()
    return due


def payments(due, unit_ids, rng, since, until):
    """The payments of every instalment due from `since` to `until`, in the order they arrive: most
    on their day or within ten days; units 0-4 stop paying in June of NOW's year (more than three
    months behind: suspended), units 5-9 in October; every 13th instalment of units 10-19 paid in
    two parts."""
    calls = []
    for due_on, unit, cents in due:
        day = datetime.date.fromisoformat(due_on)
        index = unit_ids.index(unit)
        if day < since or day > until or (index < 5 and day >= datetime.date(NOW.year, 6, 1)) or (5 <= index < 10 and day >= datetime.date(NOW.year, 10, 1)):
            continue
        received = min(until, day + datetime.timedelta(days=rng.choice((0, 0, 0, 1, 2, 5, 10))))
        if 10 <= index < 20 and len(calls) % 13 == 0:
            calls.append((str(received), {"unitId": unit, "amountCents": cents // 2, "receivedOn": str(received), "method": "cheque"}))
            calls.append((str(received), {"unitId": unit, "amountCents": cents - cents // 2, "receivedOn": str(received), "method": "cheque"}))
        else:
            calls.append((str(received), {"unitId": unit, "amountCents": cents, "receivedOn": str(received), "method": "pre-authorized-debit"}))
    calls.sort(key=lambda c: c[0])
    return [("record_payment", arguments) for _, arguments in calls]


def payment_writes(binary, db, key, calls, folder):
    """What `calls` (payments) write, on a copy of the database, under strace: WAL frames (writes to
    the -wal file of a page and its header), writes to the database file (checkpoints) and syncs."""
    copy = os.path.join(folder, "writes")
    shutil.rmtree(copy, ignore_errors=True)
    os.makedirs(copy)
    copied = os.path.join(copy, "ledger.db")
    with sqlite3.connect(db) as source, sqlite3.connect(copied) as target:
        source.backup(target)
    trace = os.path.join(copy, "trace.txt")
    server = Server(binary, copied, key, at(datetime.date(NOW.year, 12, 28), 8), trace=trace)
    server.pipeline(calls)
    server.close()
    files, counts = {}, {"walFrames": 0, "databaseWrites": 0, "syncs": 0}
    opened = re.compile(r'^(\d+) +openat\(.*"([^"]+)".* = (\d+)$')
    written = re.compile(r'^(\d+) +pwrite64\((\d+), .*, (\d+), \d+\) = \d+$')
    with open(trace, errors="replace") as f:
        for line in f:
            if m := opened.match(line):
                files[m[3]] = m[2]
            elif m := written.match(line):
                name = files.get(m[2], "")
                if name.endswith("ledger.db-wal") and int(m[3]) >= 4096:
                    counts["walFrames"] += 1
                elif name.endswith("ledger.db"):
                    counts["databaseWrites"] += 1
            elif "fsync(" in line or "fdatasync(" in line:
                counts["syncs"] += 1
    shutil.rmtree(copy)
    return {k: round(v / len(calls), 2) for k, v in counts.items()} | {"payments": len(calls)}


def summary(samples):
    ordered = sorted(samples)

    def rank(p):
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 3)
    return {"median": round(statistics.median(ordered), 3), "p90": rank(0.90), "p99": rank(0.99),
            "min": round(ordered[0], 3), "max": round(ordered[-1], 3), "n": len(ordered)}


def time_workload(server, make, rounds):
    """`make()` gives a call (tool, arguments): made 20 times to warm up (the pages in SQLite's cache,
    as on a server that has been running), then `rounds` times, timed by the server's log and round
    trip. Returns the tool, the last answer and the figures."""
    for _ in range(20):
        server.call(*make())
    wall = []
    for _ in range(rounds):
        tool, arguments = make()
        began = time.perf_counter()
        result = server.call(tool, arguments)
        wall.append((time.perf_counter() - began) * 1000)
    return tool, result, {"serverMs": summary(server.server_ms(tool, rounds)), "roundTripMs": summary(wall)}


def measure_reads(binary, db, key, unit_ids, rounds, rng, today):
    server = Server(binary, db, key, at(today, 9))
    meeting = server.call("create_meeting", {
        "title": f"Assemblée générale annuelle {today}", "type": "aga", "scheduledAt": f"{today + datetime.timedelta(days=30)}T19:00:00-05:00",
        "location": "Salle communautaire", "agenda": ["Ouverture de l'assemblée et vérification du quorum"]})
    some_owner = server.call("list_co_owners", {"pageSize": 1})["data"][0]["id"]
    workloads = {
        "get_co_owner": lambda: ("get_co_owner", {"id": some_owner}),
        "get_owner_statement (all years)": lambda: ("get_owner_statement", {"unitId": rng.choice(unit_ids)}),
        "get_owner_statement (this year)": lambda: ("get_owner_statement", {"unitId": rng.choice(unit_ids), "from": f"{NOW.year}-01-01"}),
        "list_arrears": lambda: ("list_arrears", {}),
        "get_voting_roll": lambda: ("get_voting_roll", {"meetingId": meeting["id"]}),
    }
    figures = {}
    checks = {}
    for name, make in workloads.items():
        tool, result, figures[name] = time_workload(server, make, rounds)
        if tool == "list_arrears":
            checks["arrears"] = result["pagination"]["total"]
        if tool == "get_voting_roll":
            checks["suspendedOnRoll"] = sum(1 for e in result["entries"] if e["status"] == "suspended-arrears")
        if name.startswith("get_owner_statement (all"):
            checks["statementLines"] = len(result["lines"])
    server.close()
    return figures, checks


def ledger_pages(db, payment_count):
    """Pages of each ledger table and its indexes (dbstat), and per payment."""
    with sqlite3.connect(db) as c:
        size = c.execute("PRAGMA page_size").fetchone()[0]
        rows = c.execute("SELECT name, tbl_name, type FROM sqlite_schema WHERE tbl_name IN (%s) AND type IN ('table', 'index')"
                         % ",".join("?" * len(LEDGER_TABLES)), LEDGER_TABLES).fetchall()
        pages = {name: c.execute("SELECT count(*) FROM dbstat WHERE name = ?", (name,)).fetchone()[0] for name, _, _ in rows}
        counts = {t: c.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in LEDGER_TABLES}
    tables = {}
    for name, table, kind in rows:
        entry = tables.setdefault(table, {"rows": counts[table], "tablePages": 0, "indexPages": 0, "indexes": {}})
        if kind == "table":
            entry["tablePages"] = pages[name]
        else:
            entry["indexPages"] += pages[name]
            entry["indexes"][name] = pages[name]
    total = sum(t["tablePages"] + t["indexPages"] for t in tables.values())
    return {"pageSize": size, "tables": tables, "totalPages": total, "pagesPerPayment": round(total / payment_count, 3),
            "bytesPerPayment": round(total * size / payment_count), "databaseBytes": os.path.getsize(db)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--years", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--issues", type=int, default=3)
    parser.add_argument("--json")
    parser.add_argument("--keep", help="a folder to keep the seeded database in")
    parser.add_argument("--quick", action="store_true", help="20 units, 2 years, 20 rounds, one issue: a smoke run")
    options = parser.parse_args()
    if options.quick:
        options.units, options.years, options.rounds, options.issues = 20, 2, 20, 1
    binary = os.path.abspath(options.binary)
    folder = options.keep or tempfile.mkdtemp(prefix="syndic-ledger-bench-")
    os.makedirs(folder, exist_ok=True)
    db = os.path.join(folder, "ledger.db")
    rng = random.Random(29)
    began = time.perf_counter()
    key, unit_ids, directors = found_syndicate(binary, db, options.units)
    years = list(range(NOW.year - options.years + 1, NOW.year + 1))
    issued_figures = []
    for year in years:
        adopt_year(binary, db, key, directors, year, options.units)
        issued, wall, _ = issue_year(binary, db, key, year)
        issued_figures.append({"year": year, "charges": issued["charges"], "seconds": round(wall, 2)})
        print(f"year {year}: {issued['issued']} notices, {issued['charges']} charges issued in {wall:.1f} s", flush=True)
    due = []
    for year in years:
        due += instalments(binary, db, key, year, at(NOW, 8))
    calls = payments(due, unit_ids, rng, datetime.date(years[0], 1, 1), NOW)
    server = Server(binary, db, key, at(NOW, 8))
    paying = time.perf_counter()
    server.pipeline(calls)
    paying = time.perf_counter() - paying
    server.close()
    print(f"{len(calls)} payments recorded in {paying:.1f} s ({len(calls) / paying:.0f}/s)", flush=True)
    seeded = time.perf_counter() - began
    if options.keep:
        with open(os.path.join(folder, "api-key"), "w") as f:
            f.write(key + "\n")

    # The reads at the end of the year (a month of notices still to fall due), then the ledger's size.
    reads, checks = measure_reads(binary, db, key, unit_ids, options.rounds, rng, NOW)
    pages = ledger_pages(db, len(calls))

    # What a payment writes: December's payments on a copy of the database, under strace.
    december = datetime.date(NOW.year, 12, 28)
    december_payments = payments(due, unit_ids, random.Random(12), NOW + datetime.timedelta(days=1), december)
    writes = payment_writes(binary, db, key, december_payments, folder) if shutil.which("strace") else None

    # The next year's notices, issued on fresh copies of the database (each in its own folder: the
    # PDFs go to the database's data folder). On the first copy, December is then paid and the
    # reads measured again on December 28: with the new year's twelve months of notices to come.
    adopt_year(binary, db, key, directors, NOW.year + 1, options.units)
    issuing = []
    for round_number in range(options.issues):
        copy = os.path.join(folder, f"issue-{round_number}")
        shutil.rmtree(copy, ignore_errors=True)
        os.makedirs(copy)
        copied = os.path.join(copy, "ledger.db")
        with sqlite3.connect(db) as source, sqlite3.connect(copied) as target:
            source.backup(target)
        issued, wall, server_seconds = issue_year(binary, copied, key, NOW.year + 1)
        issuing.append({"wallSeconds": round(wall, 2), "serverSeconds": round(server_seconds, 2), "notices": issued["issued"],
                        "charges": issued["charges"], "queued": issued["queued"]})
        if round_number == 0:
            server = Server(binary, copied, key, at(december, 8))
            server.pipeline(december_payments)
            server.close()
            reads_ahead, checks_ahead = measure_reads(binary, copied, key, unit_ids, options.rounds, rng, december)
        shutil.rmtree(copy)

    figures = {"units": options.units, "years": years, "now": str(NOW), "charges": pages["tables"]["charges"]["rows"],
               "payments": len(calls), "seedSeconds": round(seeded, 1), "paymentsPerSecond": round(len(calls) / paying),
               "issuedWhileSeeding": issued_figures, "reads": reads, "checks": checks, "ledger": pages, "issuing": issuing}
    figures["paymentWrites"] = writes
    if options.issues:
        figures["readsWithNextYear"] = {"on": str(december), "reads": reads_ahead, "checks": checks_ahead}
    print(f"\n{options.units} units, {len(years)} years: {figures['charges']} charges, {len(calls)} payments "
          f"(seeded in {seeded:.0f} s); {checks}")
    tables = [(f"on {NOW}, a month of notices to come", reads)]
    if options.issues:
        tables.append((f"on {december}, the next year's notices issued: {checks_ahead}", reads_ahead))
    for title, measured in tables:
        print(f"\n{title}\n{'call, one at a time':36} {'server p50':>11} {'server p99':>11} {'round trip p50':>15}")
        for name, f in measured.items():
            print(f"{name:36} {f['serverMs']['median']:>8.1f} ms {f['serverMs']['p99']:>8.1f} ms {f['roundTripMs']['median']:>12.2f} ms")
    print(f"\nissuing {options.units} notices with their PDFs: "
          + ", ".join(f"{i['serverSeconds']:.2f} s server ({i['wallSeconds']:.2f} s wall)" for i in issuing))
    if writes:
        print(f"\na payment writes {writes['walFrames']} WAL frames, {writes['databaseWrites']} database pages (checkpoints) "
              f"and {writes['syncs']} syncs ({writes['payments']} payments)")
    print(f"\nledger: {pages['totalPages']} pages of {pages['pageSize']} bytes, {pages['pagesPerPayment']} pages "
          f"({pages['bytesPerPayment']} bytes) per payment")
    for table, t in pages["tables"].items():
        print(f"  {table:22} {t['rows']:>7} rows {t['tablePages']:>6} pages, indexes {t['indexPages']:>6} pages "
              + ", ".join(f"{n} {p}" for n, p in t["indexes"].items()))
    if options.json:
        with open(options.json, "w") as f:
            json.dump(figures, f, indent=1)
    if not options.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    sys.exit(main())
