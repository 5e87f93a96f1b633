#!/usr/bin/env python3
"""backup --to and restore --from through the real executable (issue 7, point 7): backups taken
while a server writes are consistent snapshots (every table agrees with every other), a restore
brings back every record of every table, and what would lose data is refused.

usage: run_backup_tests.py SYNDIC_MCP
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check, every_row  # noqa: E402

# The co-owners the search index holds or has pending (migration 012): its entries, less those of
# pending rows (stale), plus the pending rows that exist. Equals the rows when the index is in step.
INDEXED_OR_PENDING = ("(SELECT count(*) FROM co_owner_search_docsize) - (SELECT count(*) FROM"
                      " co_owner_search_pending WHERE indexed_text IS NOT NULL) + (SELECT count(*) FROM"
                      " co_owner_search_pending p JOIN co_owners c ON c.rowid = p.row)")

BIN = sys.argv[1]




def restored_rows(path):
    """every_row(path) less what a restore writes itself: its own audit events (tool cli:restore,
    the command line's trace of the restore) and the signing keys' public halves (the live key,
    kept beside the database, is added back when the backup lacks it)."""
    rows = every_row(path)
    rows.pop("signing_keys", None)
    rows["audit_events"] = [r for r in rows.get("audit_events", []) if "'cli:restore'" not in r]
    return rows

def run(*args, db, stdin=None, env=None):
    return subprocess.run([BIN, "--db", db, *args], input=stdin, capture_output=True, text=True, timeout=120,
                          env=env or os.environ)


def consistent(path):
    """A snapshot is consistent when the tallies and the search index agree with the rows."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    intact = db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = db.execute("SELECT count(*) FROM co_owners").fetchone()[0]
    tallied = db.execute("SELECT coalesce(sum(n), 0) FROM co_owner_tallies").fetchone()[0]
    indexed = db.execute("SELECT " + INDEXED_OR_PENDING).fetchone()[0]
    db.close()
    return intact, rows, tallied, indexed


with tempfile.TemporaryDirectory() as tmp:
    live = os.path.join(tmp, "live.db")
    key = run("demo", db=live).stdout.strip()

    # A server writes co-owners one call after another while three backups are taken.
    server = subprocess.Popen([BIN, "--db", live, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=dict(os.environ, SYNDIC_API_KEY=key), text=True)
    units = json.loads(run("serve", db=live, env=dict(os.environ, SYNDIC_API_KEY=key), stdin=json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_units", "arguments": {}}}) + "\n"
    ).stdout)["result"]["structuredContent"]["data"]
    stop = threading.Event()
    written = [0]

    def write():
        i = 0
        while not stop.is_set():
            i += 1
            server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                "name": "create_co_owner", "arguments": {"unitId": units[i % len(units)]["id"], "firstName": "Copie",
                                                         "lastName": f"Numéro {i}", "email": f"c{i}@exemple.qc.ca"}}}) + "\n")
            server.stdin.flush()
            answer = json.loads(server.stdout.readline())
            if "result" in answer:
                written[0] += 1

    writer = threading.Thread(target=write)
    writer.start()
    backups = []
    while len(backups) < 3:
        if written[0] >= 40 * (len(backups) + 1):
            target = os.path.join(tmp, f"during-{len(backups)}.db")
            r = run("backup", "--to", target, "--json", db=live)
            check(f"backup {len(backups) + 1} while the server writes", r.returncode == 0, r.stderr)
            backups.append(target)
    stop.set()
    writer.join()
    server.stdin.close()
    server.wait(timeout=30)

    counts = []
    for b in backups:
        intact, rows, tallied, indexed = consistent(b)
        check(f"{os.path.basename(b)} passes integrity_check", intact)
        check(f"{os.path.basename(b)} is one snapshot: tallies and search index agree with the rows",
              rows == tallied == indexed, f"rows {rows}, tallied {tallied}, indexed {indexed}")
        check(f"{os.path.basename(b)} is one file, no journal beside it", not os.path.exists(b + "-wal"))
        counts.append(rows)
    check("later backups hold more of the writes", counts == sorted(counts) and counts[-1] > counts[0], str(counts))
    print(f"backups taken while the server wrote {written[0]} co-owners held {counts} co-owners")
    final_rows = consistent(live)[1]
    check("the live database kept every write", final_rows >= counts[-1] and written[0] > 0, f"{final_rows} rows")

    # Every co-owner of a backup is in the live database, field for field.
    live_db = sqlite3.connect(live)
    live_rows = set(map(repr, live_db.execute("SELECT * FROM co_owners")))
    live_db.close()
    copy_db = sqlite3.connect(backups[1])
    copied = list(map(repr, copy_db.execute("SELECT * FROM co_owners")))
    copy_db.close()
    check("every co-owner of a backup is the live one, field for field", all(r in live_rows for r in copied))

    # Restore into a new file: every row of every table comes back.
    restored = os.path.join(tmp, "restored", "syndic.db")
    r = run("restore", "--from", backups[2], "--json", db=restored)
    check("restore --from into a new file", r.returncode == 0, r.stderr)
    summary = json.loads(r.stdout) if r.returncode == 0 else {}
    check("...says what it holds", summary.get("rows", {}).get("co_owners") == counts[2], r.stdout)
    check("...every row of every table, the search index included", restored_rows(restored) == restored_rows(backups[2]))
    answer = json.loads(run("serve", db=restored, env=dict(os.environ, SYNDIC_API_KEY=key), stdin=json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_co_owners",
                                                                       "arguments": {"search": "copie"}}}) + "\n").stdout)
    check("...and serves it with the same key, search and totals included",
          answer.get("result", {}).get("structuredContent", {}).get("pagination", {}).get("total") == counts[2] - 8,
          str(answer)[:300])

    # What would lose data is refused, and leaves everything as it was.
    before = every_row(live)
    r = run("restore", "--from", backups[0], db=live)
    check("restore over a database with a syndicate needs --replace", r.returncode == 1 and "--replace" in r.stderr, r.stderr)
    check("...and changes nothing", every_row(live) == before)
    r = run("restore", "--from", backups[0], "--replace", "--json", db=live)
    saved = json.loads(r.stdout).get("savedAs", "") if r.returncode == 0 else ""
    check("restore --replace puts the backup in place", r.returncode == 0 and restored_rows(live) == restored_rows(backups[0]), r.stderr)
    check("...after saving the database it replaced", saved and every_row(saved) == before, saved)

    # A restore while a server has the database open either takes effect for that server too, or
    # is refused with the advice to stop the servers: never a success that did not happen.
    server = subprocess.Popen([BIN, "--db", live, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=dict(os.environ, SYNDIC_API_KEY=key), text=True)

    def total(i):
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                       "params": {"name": "list_co_owners", "arguments": {}}}) + "\n")
        server.stdin.flush()
        return json.loads(server.stdout.readline())["result"]["structuredContent"]["pagination"]["total"]

    def live_count(path):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        n = db.execute("SELECT count(*) FROM co_owners WHERE deleted_at IS NULL").fetchone()[0]
        db.close()
        return n

    total(1)
    r = run("restore", "--from", backups[2], "--replace", db=live)
    if r.returncode == 0:
        check("a restore under a running server reaches it", total(2) == live_count(backups[2]) == live_count(live))
    else:
        check("a restore under a running server that did not take is refused, saying to stop the servers",
              "stop the servers" in r.stderr, r.stderr)
    server.stdin.close()
    server.wait(timeout=30)
    r = run("restore", "--from", backups[2], "--replace", db=live)
    check("with the server stopped, the restore takes", r.returncode == 0 and restored_rows(live) == restored_rows(backups[2]), r.stderr)

    junk = os.path.join(tmp, "notes.txt")
    with open(junk, "w") as f:
        f.write("not a database\n" * 100)
    state = every_row(live)
    r = run("restore", "--from", junk, "--replace", db=live)
    check("a file that is not a database is refused", r.returncode == 1 and "not a SQLite database" in r.stderr, r.stderr)
    newer = os.path.join(tmp, "newer.db")
    run("backup", "--to", newer, db=live)
    db = sqlite3.connect(newer)
    db.execute("PRAGMA user_version = 999")
    db.commit()
    db.close()
    r = run("restore", "--from", newer, "--replace", db=live)
    check("a backup from a newer syndic-mcp is refused", r.returncode == 1 and "newer" in r.stderr, r.stderr)
    check("...and neither refusal changed the database", every_row(live) == state)
    mtime = os.path.getmtime(backups[0])
    r = run("backup", "--to", backups[0], db=live)
    check("backup --to an existing file needs --replace", r.returncode == 1 and os.path.getmtime(backups[0]) == mtime, r.stderr)
    r = run("backup", "--to", backups[0], "--replace", db=live)
    check("backup --replace overwrites it", r.returncode == 0 and every_row(backups[0]) == every_row(live), r.stderr)
    check("no .partial file is left behind", not any(n.endswith(".partial") for n in os.listdir(tmp)))

    # A restore killed while it copies (issue 28, point 8) leaves its copy of the backup beside the
    # database, as large as the backup; the next server's start removes it, and the database is
    # either as it was or the backup, whole.
    import random
    import signal
    import time
    started = time.monotonic()
    run("restore", "--from", backups[2], "--replace", db=live)
    span = time.monotonic() - started
    left, states = [], set()
    for _ in range(20):
        before = live_count(live)
        p = subprocess.Popen([BIN, "--db", live, "restore", "--from", backups[0], "--replace"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(random.uniform(span * 0.3, span * 0.9))
        p.send_signal(signal.SIGKILL)
        p.wait()
        states.add((consistent(live)[0], live_count(live) in (before, live_count(backups[0]))))
        left = [n for n in os.listdir(tmp) if n.startswith("live.db.restoring")]
        if left:
            break
        run("restore", "--from", backups[2], "--replace", db=live)
    print(f"     (a restore takes {span * 1000:.0f} ms here; copies left by the kills: {left})", flush=True)
    check("a killed restore leaves the database whole, as it was or as the backup", states == {(True, True)}, states)
    if not left:  # no kill fell inside the copy: leave one as a killed restore would
        dead = next(pid for pid in range(4_000_000, 4_100_000) if not os.path.exists(f"/proc/{pid}"))
        left = [f"live.db.restoring-{dead}"]
        with open(os.path.join(tmp, left[0]), "wb") as f, open(backups[0], "rb") as b:
            f.write(b.read())
    legacy = os.path.join(tmp, "live.db.restoring")  # the name earlier versions used
    with open(legacy, "wb") as f:
        f.write(b"an old copy")
    os.utime(legacy, (time.time() - 3600, time.time() - 3600))
    r = run("serve", db=live, stdin="")
    remaining = [n for n in os.listdir(tmp) if ".restoring" in n]
    check("the next server's start removes the copies a killed restore left (and an earlier version's), saying so",
          remaining == [] and all(n in r.stderr for n in left) and "live.db.restoring" in r.stderr, f"{remaining} {r.stderr[-500:]}")

checks.finish()
