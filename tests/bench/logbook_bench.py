#!/usr/bin/env python3
"""The maintenance logbook at size, through the real executable (issue 30's performance figures).

It builds a building of COMPONENTS components with YEARS years of maintenance records, each step a
tool call as a board would make it, the clock fixed by Debian's faketime at the ledger bench's NOW
(its figures do not depend on the day it runs): a general common portion, a contractor, UNITS units,
the logbook's initial preparation by an engineer (its report attached), then the components (the
categories in turn, installed from 1990 to NOW's year, 10 to 50 years of life, so that many are past
it), one or two maintenance schedules each (every 3 to 60 months, one in seven with a legal basis),
and RECORDS maintenance records (default COMPONENTS x YEARS x 2) spread over the past YEARS years in
the order they were done: routine, inspections and repairs (the repairs by the contractor, with a
cost), most fulfilling a schedule.

Then it measures, one call at a time (ROUNDS each, after 20 to warm up):
  - get_major_works_plan (the 25-year plan, default arguments);
  - list_maintenance_due, its default 60 days and 3,650 days (every schedule);
  - get_logbook (the status, with every overdue schedule and component past its life);
  - list_logbook_components (the first page) and get_logbook_component of a random component.
Server time is what the server logs for each call ("tools/call NAME ok 1.2 ms", info level: from
the call's arrival to its answer); the round trip as the host sees it is given too. p50, p90, p99.

Then the board's yearly update written by the server as a PDF with the 25-year plan
(record_logbook_revision, kind annual-update, no documentId): first without reasons, which must be
refused with LOGBOOK_REASONS_MISSING naming the components get_logbook lists as late, then UPDATES
times with a reason for each, timed by the server's log; the PDF's pages read with get_document.
Asserts nothing but that every answer is a result, and that the refusal names the late components.

Usage: logbook_bench.py BINARY [--components 200] [--years 25] [--records N] [--units 24] [--rounds 200] [--updates 3] [--json FILE] [--keep DIR] [--quick]
"""
import argparse
import base64
import datetime
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ledger_bench import NOW, Server, at, result_of, time_workload  # noqa: E402  (the same server, clock and answers)

CATEGORIES = ("structure", "envelope", "roofing", "windows-doors", "plumbing", "heating-ventilation", "electrical", "fire-safety",
              "elevator", "interior", "site", "parking", "other")
FREQUENCIES = (3, 6, 12, 12, 24, 36, 60)
# ms, issue 30: the plan and the overdue list (list_maintenance_due; get_logbook lists them too), the plan's PDF
TARGETS = {"get_major_works_plan": 10, "list_maintenance_due": 10, "get_logbook": 10, "record_logbook_revision": 1000}
LOGBOOK_TABLES = ("logbook_components", "maintenance_schedules", "maintenance_records", "logbook_revisions")


def found_building(binary, db, units):
    """The syndicate, its general common portion, a contractor, its units and the logbook's initial
    preparation (an engineer's report attached to the first unit, on June 1 of NOW's year)."""
    made = subprocess.run(["faketime", "-f", f"@{at(NOW, 8)}", binary, "--db", db, "--log-level", "warn", "init",
                           "--name", "Syndicat du 4500 avenue du Parc", "--json"],
                          check=True, capture_output=True, text=True, env=dict(os.environ, TZ="UTC"))
    key = json.loads(made.stdout)["apiKey"]
    server = Server(binary, db, key, at(NOW, 9))
    portion = server.call("set_common_portion", {"name": "Parties communes générales", "kind": "general", "initial": True})["id"]
    contractor = server.call("create_contractor", {"name": "Entretien Laurentides inc.", "trade": "entretien général"})["id"]
    share = round(100 / units, 6)
    fractions = [round(100 - share * (units - 1), 6) if i == units - 1 else share for i in range(units)]
    unit_ids = [r["id"] for r in server.pipeline([("create_unit", {
        "number": str(101 + (i // 6) * 100 + i % 6), "type": "apartment", "floor": 1 + i // 6, "areaSqFt": 650 + (i * 37) % 900,
        "fractionPercent": fractions[i]}) for i in range(units)])]
    report = server.call("attach_document", {
        "recordType": "unit", "recordId": unit_ids[0], "contentBase64": base64.b64encode("Carnet d'entretien — rapport initial".encode()).decode(),
        "fileName": "carnet-initial.txt", "mimeType": "text/plain", "kind": "logbook", "title": "Carnet d'entretien — préparation initiale"})
    server.call("record_logbook_revision", {
        "kind": "initial-preparation", "performedOn": str(datetime.date(NOW.year, 6, 1)),
        "preparer": {"name": "Hélène Roy", "firm": "Roy Ingénierie", "order": "OIQ", "memberNumber": "5012345"},
        "independenceAttested": True, "documentId": report["id"]})
    return key, server, portion, contractor


def seed_logbook(server, portion, contractor, components, years, records, rng):
    """The components, their schedules and `records` maintenance records in the order they were done,
    all on one pipe per kind of call; returns the component ids."""
    first_year = 1990
    component_ids = [r["id"] for r in server.pipeline([("create_logbook_component", {
        "name": f"Composante {i + 1:03d} — {CATEGORIES[i % len(CATEGORIES)]}", "category": CATEGORIES[i % len(CATEGORIES)],
        "commonPortionId": portion, "installedYear": first_year + (i * 7) % (NOW.year - first_year + 1),
        "expectedLifeYears": 10 + (i * 11) % 41, "replacementCostCents": 500000 + (i * 7919) % 200 * 250000,
        "condition": ("good", "fair", "poor", "unknown")[i % 4]}) for i in range(components)])]
    start = datetime.date(NOW.year - years, NOW.month, NOW.day)
    calls, owner = [], []
    for i, component in enumerate(component_ids):
        for k in range(2 if i % 3 == 0 else 1):
            arguments = {"componentId": component, "task": f"Entretien {'préventif' if k == 0 else 'saisonnier'} de la composante {i + 1}",
                         "frequencyMonths": FREQUENCIES[(i + k) % len(FREQUENCIES)], "startOn": str(start)}
            if i % 7 == 0 and k == 0:
                arguments["legalBasis"] = "Code de sécurité (RLRQ c. B-1.1, r. 3): vérification périodique"
            if i % 2 == 0:
                arguments["responsibleContractorId"] = contractor
            calls.append(("set_maintenance_schedule", arguments))
            owner.append(i)
    schedules = [[] for _ in component_ids]
    for i, made in zip(owner, server.pipeline(calls)):
        schedules[i].append(made["id"])
    span = (NOW - start).days
    made = []
    for n in range(records):
        i = n % components
        day = start + datetime.timedelta(days=min(span, int(rng.random() * (span + 1))))
        kind = ("routine", "routine", "routine", "inspection", "inspection", "repair")[n % 6]
        arguments = {"componentId": component_ids[i], "performedOn": str(day), "kind": kind,
                     "description": {"routine": "Entretien courant", "inspection": "Inspection visuelle", "repair": "Réparation"}[kind]}
        if rng.random() < 0.85:
            arguments["scheduleId"] = rng.choice(schedules[i])
        if kind == "repair":
            arguments["contractorId"] = contractor
            arguments["costCents"] = 25000 + (n * 131) % 400000
        made.append((str(day), n, arguments))
    made.sort(key=lambda m: (m[0], m[1]))
    return component_ids, [("record_maintenance", arguments) for _, _, arguments in made]


def refusal(server, tool, arguments):
    """The JSON-RPC error of a call expected to be refused."""
    server.proc.stdin.write(server.line(tool, arguments))
    server.proc.stdin.flush()
    message = json.loads(server.proc.stdout.readline())
    if "error" not in message:
        raise SystemExit(f"{tool} was not refused: {json.dumps(message.get('result'), ensure_ascii=False)[:300]}")
    return message["error"]


def measure_reads(server, component_ids, rounds, rng):
    workloads = {
        "get_major_works_plan": lambda: ("get_major_works_plan", {}),
        "list_maintenance_due (60 days)": lambda: ("list_maintenance_due", {}),
        "list_maintenance_due (3,650 days)": lambda: ("list_maintenance_due", {"withinDays": 3650}),
        "get_logbook": lambda: ("get_logbook", {}),
        "list_logbook_components": lambda: ("list_logbook_components", {}),
        "get_logbook_component": lambda: ("get_logbook_component", {"id": rng.choice(component_ids)}),
    }
    figures, checks = {}, {}
    for name, make in workloads.items():
        tool, result, timed = time_workload(server, make, rounds)
        figures[name] = {"tool": tool, **timed}
        if tool == "get_major_works_plan":
            checks["planWorks"] = sum(len(y["works"]) for y in result["years"])
            checks["planShortfallYears"] = len(result["shortfallYears"])
        elif name.startswith("list_maintenance_due (60"):
            checks["dueWithin60Days"] = result["pagination"]["total"]
            checks["overdue"] = result["overdueCount"]
        elif name.startswith("list_maintenance_due (3"):
            checks["dueWithin3650Days"] = result["pagination"]["total"]
        elif tool == "get_logbook":
            checks["overdueSchedules"] = len(result["overdueSchedules"])
            checks["componentsPastLife"] = len(result["componentsPastLife"])
    return figures, checks


def yearly_updates(server, updates):
    """The yearly update written as a PDF with the plan: refused without reasons, then `updates` times
    with one reason for each late component."""
    status = server.call("get_logbook", {})
    late = sorted({s["componentId"] for s in status["overdueSchedules"]} | {c["id"] for c in status["componentsPastLife"]})
    refused = refusal(server, "record_logbook_revision", {"kind": "annual-update", "performedOn": str(NOW)})
    named = set(filter(None, str((refused.get("data") or {}).get("componentIds", "")).split(",")))
    if refused.get("message") != "LOGBOOK_REASONS_MISSING" and (refused.get("data") or {}).get("code") != "LOGBOOK_REASONS_MISSING":
        raise SystemExit(f"the update without reasons was refused otherwise: {json.dumps(refused, ensure_ascii=False)[:300]}")
    if named != set(late):
        raise SystemExit(f"the refusal named {len(named)} components, get_logbook lists {len(late)} as late")
    works = [{"componentId": c, "reason": "Reporté à l'exercice suivant, faute de fonds au budget de fonctionnement."} for c in late]
    made = []
    for _ in range(updates):
        with server.log_lock:  # the calls logged so far: the initial preparation's among them
            before = sum(1 for name, outcome, _ in server.logged if name == "record_logbook_revision" and outcome == "ok")
        began = time.perf_counter()
        revision = server.call("record_logbook_revision", {"kind": "annual-update", "performedOn": str(NOW), "worksNotDone": works,
                                                           "language": "fr"})
        wall = time.perf_counter() - began
        took = server.server_ms("record_logbook_revision", before + 1)[-1]
        document = server.call("get_document", {"id": revision["documentId"]})
        made.append({"serverMs": round(took, 1), "wallMs": round(wall * 1000, 1), "pages": document["pages"],
                     "bytes": document["sizeBytes"], "documentId": revision["documentId"]})
    return {"lateComponents": len(late), "refusedWith": "LOGBOOK_REASONS_MISSING", "updates": made}


def table_rows(db):
    with sqlite3.connect(db) as c:
        return {t: c.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in LOGBOOK_TABLES}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--components", type=int, default=200)
    parser.add_argument("--years", type=int, default=25)
    parser.add_argument("--records", type=int, help="maintenance records (default components x years x 2)")
    parser.add_argument("--units", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--updates", type=int, default=3, help="yearly updates written with their PDF")
    parser.add_argument("--json")
    parser.add_argument("--keep", help="a folder to keep the seeded database in")
    parser.add_argument("--quick", action="store_true", help="20 components, 3 years, 20 rounds, one update: a smoke run")
    options = parser.parse_args()
    if options.quick:
        options.components, options.years, options.rounds, options.updates, options.units = 20, 3, 20, 1, 6
    records = options.records if options.records is not None else options.components * options.years * 2
    binary = os.path.abspath(options.binary)
    folder = options.keep or tempfile.mkdtemp(prefix="syndic-logbook-bench-")
    os.makedirs(folder, exist_ok=True)
    db = os.path.join(folder, "logbook.db")
    rng = random.Random(30)

    began = time.perf_counter()
    key, server, portion, contractor = found_building(binary, db, options.units)
    component_ids, calls = seed_logbook(server, portion, contractor, options.components, options.years, records, rng)
    recording = time.perf_counter()
    server.pipeline(calls)
    recording = time.perf_counter() - recording
    seeded = time.perf_counter() - began
    print(f"{options.components} components, {len(calls)} maintenance records over {options.years} years recorded in "
          f"{recording:.1f} s ({len(calls) / recording:.0f}/s); seeded in {seeded:.0f} s", flush=True)
    if options.keep:
        with open(os.path.join(folder, "api-key"), "w") as f:
            f.write(key + "\n")

    reads, checks = measure_reads(server, component_ids, options.rounds, rng)
    updating = yearly_updates(server, options.updates)
    server.close()
    rows = table_rows(db)

    figures = {"components": options.components, "years": options.years, "now": str(NOW), "rows": rows,
               "seedSeconds": round(seeded, 1), "recordsPerSecond": round(len(calls) / recording), "reads": reads, "checks": checks,
               "yearlyUpdate": updating, "databaseBytes": os.path.getsize(db)}
    print(f"\n{options.components} components, {rows['maintenance_schedules']} schedules, {rows['maintenance_records']} records "
          f"({options.years} years) on {NOW}; {checks}")
    print(f"\n{'call, one at a time':36} {'target':>7} {'server p50':>11} {'server p90':>11} {'server p99':>11} {'round trip p50':>15}")
    for name, f in reads.items():
        target = TARGETS.get(f["tool"])
        print(f"{name:36} {(f'{target} ms' if target else ''):>7} {f['serverMs']['median']:>8.2f} ms {f['serverMs']['p90']:>8.2f} ms "
              f"{f['serverMs']['p99']:>8.2f} ms {f['roundTripMs']['median']:>12.2f} ms")
    print(f"\nthe yearly update with its PDF ({updating['lateComponents']} late components given a reason; target 1 s): "
          + ", ".join(f"{u['serverMs']:.0f} ms server ({u['wallMs']:.0f} ms wall), {u['pages']} pages, {u['bytes']} bytes"
                      for u in updating["updates"]))
    if options.json:
        with open(options.json, "w") as f:
            json.dump(figures, f, indent=1)
    if not options.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    sys.exit(main())
