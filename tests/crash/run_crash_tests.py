#!/usr/bin/env python3
"""Crash safety through the real executable (issue 7, point 3): the server is killed with SIGKILL
in the middle of a 500-row bulk_create_co_owners, at each of its progress points and at random
moments; the database must then hold all of the bulk's rows or none, pass integrity_check, keep
its tallies and search index in step with its rows, and serve the next server as before.

usage: run_crash_tests.py SYNDIC_MCP
"""
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402

# The co-owners the search index holds or has pending (co-owners migration 002): its entries, less those of
# pending rows (stale), plus the pending rows that exist. Equals the rows when the index is in step.
INDEXED_OR_PENDING = ("(SELECT count(*) FROM co_owner_search_docsize) - (SELECT count(*) FROM"
                      " co_owner_search_pending WHERE indexed_text IS NOT NULL) + (SELECT count(*) FROM"
                      " co_owner_search_pending p JOIN co_owners c ON c.rowid = p.row)")

BIN = sys.argv[1]



def start(db, key):
    return subprocess.Popen([BIN, "--db", db, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=dict(os.environ, SYNDIC_API_KEY=key), text=True)


def send(server, message):
    server.stdin.write(json.dumps(message) + "\n")
    server.stdin.flush()


def bulk(tag, units):
    rows = [{"unitId": units[i % len(units)], "firstName": "Panne", "lastName": f"{tag} {i}",
             "email": f"{tag.lower()}.{i}@exemple.qc.ca"} for i in range(500)]
    return {"jsonrpc": "2.0", "id": tag, "method": "tools/call",
            "params": {"name": "bulk_create_co_owners", "arguments": {"coOwners": rows}, "_meta": {"progressToken": tag}}}


def state(db):
    conn = sqlite3.connect(db)
    out = {
        "intact": conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok",
        "rows": conn.execute("SELECT count(*) FROM co_owners").fetchone()[0],
        "tallied": conn.execute("SELECT coalesce(sum(n), 0) FROM co_owner_tallies").fetchone()[0],
        "indexed": conn.execute("SELECT " + INDEXED_OR_PENDING).fetchone()[0],
        # The audit trail's creations of co-owners: one per row, written in the row's transaction.
        "audited": conn.execute("SELECT count(*) FROM audit_events WHERE record_type = 'co-owner' "
                                "AND action = 'create'").fetchone()[0],
        "tags": dict(conn.execute("SELECT substr(last_name, 1, instr(last_name, ' ') - 1) AS tag, count(*) "
                                  "FROM co_owners WHERE first_name = 'Panne' GROUP BY tag")),
    }
    conn.close()
    return out


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "crash.db")
    key = subprocess.run([BIN, "--db", db, "demo"], capture_output=True, text=True, check=True).stdout.strip()
    server = start(db, key)
    send(server, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_units", "arguments": {}}})
    units = [u["id"] for u in json.loads(server.stdout.readline())["result"]["structuredContent"]["data"]]
    server.stdin.close()
    server.wait(timeout=30)

    rng = random.Random(7)
    kills = committed = 0
    outcomes = {}
    # Killed after the k-th progress notification (50 rows each), k = 1..9, twice each; then at
    # random moments after the request is written.
    plans = [("progress", k) for k in range(1, 10) for _ in range(2)] + [("delay", rng.uniform(0, 0.15)) for _ in range(12)]
    for n, (how, when) in enumerate(plans):
        tag = f"K{n}"
        server = start(db, key)
        send(server, bulk(tag, units))
        if how == "progress":
            seen = 0
            while seen < when:
                message = json.loads(server.stdout.readline())
                if message.get("method") == "notifications/progress":
                    seen += 1
                else:
                    break  # the answer came first: the bulk was done
        else:
            time.sleep(when)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        kills += 1
        s = state(db)
        count = s["tags"].get(tag, 0)
        outcomes[count] = outcomes.get(count, 0) + 1
        committed += count == 500
        check(f"kill {n} ({how} {when:.3f}): all of the bulk or none", count in (0, 500), f"{count} rows")
        check(f"kill {n}: integrity_check", s["intact"])
        check(f"kill {n}: tallies, search index and audit trail in step with the rows",
              s["rows"] == s["tallied"] == s["indexed"] == s["audited"],
              str({k: s[k] for k in ("rows", "tallied", "indexed", "audited")}))

    # The next server serves as before: a whole bulk goes in, and is found by a search.
    server = start(db, key)
    send(server, bulk("APRES", units))
    while True:
        answer = json.loads(server.stdout.readline())
        if "id" in answer:
            break
    send(server, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                  "params": {"name": "list_co_owners", "arguments": {"search": "apres 49"}}})
    found = json.loads(server.stdout.readline())
    server.stdin.close()
    server.wait(timeout=30)
    check("after the kills a bulk goes in whole", answer.get("result", {}).get("structuredContent", {}).get("createdCount") == 500,
          str(answer)[:300])
    check("...and is found by a search (apres 49, apres 490..499)",
          found.get("result", {}).get("structuredContent", {}).get("pagination", {}).get("total") == 11, str(found)[:300])
    final = state(db)
    print(f"{kills} kills with SIGKILL mid-bulk: {outcomes.get(0, 0)} left nothing, {committed} had committed all 500 rows; "
          f"{final['rows']} co-owner rows checked at the end")

checks.finish()
