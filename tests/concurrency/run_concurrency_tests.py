#!/usr/bin/env python3
"""Several servers writing one database file at once (issue 7, point 4), through the real
executable: three stdio servers and one HTTP bridge (several workers, several client threads)
create co-owners, update them, archive some, update the same units and the same co-owners as each
other, and run 500-row bulk_create_co_owners calls that overlap the short writes, for some
seconds. Afterwards, with every server stopped:
- every write answered as a success is in the database, field for field (read back by id);
- no write was answered with an error: no busy or locked database, no -32603, no 503;
- no row is there that no answer announced;
- integrity_check is ok, and the derived counts agree: co_owner_tallies with the co-owner rows,
  category by category, and the search index with its rows (FTS5's own integrity-check).
Prints the figures: writes attempted, answered, found, per server.

usage: run_concurrency_tests.py SYNDIC_MCP
"""
import http.client
import json
import os
import queue
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402

# The co-owners the search index holds or has pending (migration 012): its entries, less those of
# pending rows (stale), plus the pending rows that exist. Equals the rows when the index is in step.
INDEXED_OR_PENDING = ("(SELECT count(*) FROM co_owner_search_docsize) - (SELECT count(*) FROM"
                      " co_owner_search_pending WHERE indexed_text IS NOT NULL) + (SELECT count(*) FROM"
                      " co_owner_search_pending p JOIN co_owners c ON c.rowid = p.row)")

BIN = os.path.abspath(sys.argv[1])
SECONDS = 10               # the writers run this long at least, until MIN_WRITES are in...
MIN_WRITES = 2000
LONGEST = 45               # ...and never longer than this (a bound on the test's length, not a measure)
STDIO_SERVERS = 3
HTTP_CLIENTS = 4
BULK_ROWS = 500
TIMEOUT = 60               # for one answer: only keeps a hung server from hanging the run
ENV = {k: v for k, v in os.environ.items() if k not in ("SYNDIC_API_KEY", "SYNDIC_DB", "SYNDIC_MODULES")}


class Ledger:
    """What the servers answered, from every writer thread."""

    def __init__(self):
        self.lock = threading.Lock()
        self.attempted = {}        # writer -> writes sent
        self.succeeded = {}        # writer -> writes answered with a success
        self.failures = []         # (writer, what, answer)
        self.records = {}          # co-owner id -> the record the last successful write of its only writer gave
        self.archived = set()      # co-owner ids archived by a successful delete
        self.shared = {}           # contended co-owner id -> [records answered by successful updates]
        self.units = {}            # contended unit id -> [(cadastralLot, bedrooms) answered]
        self.bulks = []            # (writer, [(id, row sent)]) of successful bulks

    def count(self, writer, ok):
        with self.lock:
            self.attempted[writer] = self.attempted.get(writer, 0) + 1
            if ok:
                self.succeeded[writer] = self.succeeded.get(writer, 0) + 1


class StdioClient:
    def __init__(self, db, key):
        self.proc = subprocess.Popen([BIN, "--db", db, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=dict(ENV, SYNDIC_API_KEY=key))
        self.answers = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.answers.put(json.loads(line))
        self.answers.put(None)

    def call(self, name, arguments):
        """(result, error) of one tools/call."""
        self.next_id += 1
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                                           "params": {"name": name, "arguments": arguments}}) + "\n").encode())
        self.proc.stdin.flush()
        while True:
            try:
                answer = self.answers.get(timeout=TIMEOUT)
            except queue.Empty:
                return None, {"code": "no answer in time"}
            if answer is None:
                return None, {"code": "the server ended"}
            if answer.get("id") == self.next_id:
                if "result" in answer:
                    return answer["result"]["structuredContent"], None
                return None, answer.get("error")

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(timeout=TIMEOUT)


class HttpClient:
    """One client thread of the bridge: REST routes, and tools/call through /mcp for the rest."""
    ROUTES = {"create_co_owner": ("POST", "/co-owners", None), "update_co_owner": ("PATCH", "/co-owners/{id}", "id"),
              "update_unit": ("PATCH", "/units/{id}", "id"), "delete_co_owner": ("DELETE", "/co-owners/{id}", "id")}

    def __init__(self, addr, prefix, key, rest):
        self.addr, self.prefix, self.key, self.rest = addr, prefix, key, rest
        self.conn = None

    def request(self, method, path, body):
        headers = {"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}
        for attempt in range(2):  # a kept-alive connection the server has closed is opened again
            if self.conn is None:
                self.conn = http.client.HTTPConnection(*self.addr, timeout=TIMEOUT)
            try:
                self.conn.request(method, self.prefix + path, body=body, headers=headers)
                r = self.conn.getresponse()
                return r.status, r.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()
                self.conn = None
                if attempt == 1:
                    raise
        raise AssertionError("unreachable")

    def call(self, name, arguments):
        if self.rest and name in self.ROUTES:
            method, path, path_key = self.ROUTES[name]
            args = dict(arguments)
            if path_key:
                path = path.replace("{id}", args.pop(path_key))
            status, body = self.request(method, path, json.dumps(args) if method != "DELETE" else None)
            answer = json.loads(body) if body else {}
            if status in (200, 201):
                return answer, None
            return None, {"status": status, **answer.get("error", {})}
        message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        status, body = self.request("POST", "/mcp", json.dumps(message))
        answer = json.loads(body) if body else {}
        if status == 200 and "result" in answer:
            return answer["result"]["structuredContent"], None
        return None, {"status": status, **answer.get("error", {})}


def writer(name, client, ledger, units, shared_owners, shared_units, deadline, seed, bulk_every=None):
    """Writes until the deadline: creations, updates of its own co-owners and of the shared ones
    and units, archives, and (with bulk_every) a 500-row bulk every so many seconds."""
    rng = random.Random(seed)
    own = []
    n = 0
    next_bulk = time.monotonic() + 1 if bulk_every else None

    def attempt(what, tool, arguments):
        try:
            result, error = client.call(tool, arguments)
        except Exception as e:  # noqa: BLE001 - any failure of the exchange is a failed write
            result, error = None, {"code": f"exchange failed: {e!r}"}
        ledger.count(name, error is None)
        if error is not None:
            with ledger.lock:
                ledger.failures.append((name, what, error))
        return result

    def done():
        now = time.monotonic()
        with ledger.lock:
            total = sum(ledger.attempted.values())
        return now >= deadline and total >= MIN_WRITES or now >= deadline + LONGEST - SECONDS

    while not done():
        n += 1
        if next_bulk and time.monotonic() >= next_bulk:
            tag = f"{name}B{n}"
            rows = [{"unitId": units[i % len(units)], "firstName": "Lot", "lastName": f"{tag} {i}",
                     "email": f"{tag.lower()}.{i}@exemple.qc.ca"} for i in range(BULK_ROWS)]
            result = attempt("bulk", "bulk_create_co_owners", {"coOwners": rows})
            if result is not None:
                ok = result.get("createdCount") == BULK_ROWS
                check(f"{name}: a bulk of {BULK_ROWS} is created whole", ok, str(result)[:300])
                with ledger.lock:
                    ledger.bulks.append((name, [(c["id"], rows[c["index"]]) for c in result.get("created", [])]))
            next_bulk = time.monotonic() + bulk_every
            continue
        roll = rng.random()
        if roll < 0.40 or not own:
            tag = f"{name}-{n}"
            args = {"unitId": rng.choice(units), "firstName": "Écrit", "lastName": f"Par {tag}",
                    "email": f"{tag.lower()}@exemple.qc.ca", "phone": f"+1514{rng.randrange(10**7):07d}",
                    "fractionPercent": 0, "isResident": rng.random() < 0.5,
                    "language": rng.choice(["fr", "en"]), "hasPortalAccess": rng.random() < 0.5}
            record = attempt("create", "create_co_owner", args)
            if record is not None:
                own.append(record["id"])
                with ledger.lock:
                    ledger.records[record["id"]] = record
        elif roll < 0.60:
            target = rng.choice(own)
            record = attempt("update own", "update_co_owner", {"id": target, "lastName": f"Revu {name}-{n}",
                                                                 "hasPortalAccess": rng.random() < 0.5})
            if record is not None:
                with ledger.lock:
                    ledger.records[target] = record
        elif roll < 0.65:
            target = own.pop(rng.randrange(len(own)))
            result = attempt("archive own", "delete_co_owner", {"id": target})
            if result is not None:
                with ledger.lock:
                    ledger.archived.add(target)
        elif roll < 0.85:
            target = rng.choice(shared_owners)
            record = attempt("update shared co-owner", "update_co_owner",
                             {"id": target, "phone": f"+1438{name[-1]}{n:06d}", "isResident": rng.random() < 0.5})
            if record is not None:
                with ledger.lock:
                    ledger.shared.setdefault(target, []).append(record)
        else:
            target = rng.choice(shared_units)
            lot = f"{name}-{n}"
            record = attempt("update shared unit", "update_unit", {"id": target, "cadastralLot": lot, "bedrooms": n % 50})
            if record is not None:
                with ledger.lock:
                    ledger.units.setdefault(target, []).append((record.get("cadastralLot"), record.get("bedrooms")))


def start_bridge(db, workers):
    proc = subprocess.Popen([BIN, "http", "--db", db, "--listen", "127.0.0.1:0", "--workers", str(workers)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    base = None
    for raw in proc.stderr:
        m = re.search(r"serving (http\S+)", raw.decode("utf-8", "replace"))
        if m:
            base = m.group(1)
            break
    errors = []

    def drain():
        for raw in proc.stderr:
            line = raw.decode("utf-8", "replace")
            if " access " not in line and ("error" in line.lower() or "busy" in line.lower()):
                errors.append(line.strip())

    threading.Thread(target=drain, daemon=True).start()
    return proc, base, errors


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "shared.db")
    key = subprocess.run([BIN, "--db", db, "demo"], capture_output=True, text=True, check=True, env=ENV).stdout.strip()
    first = StdioClient(db, key)
    units = [u["id"] for u in first.call("list_units", {"pageSize": 200})[0]["data"]]
    owners = [c["id"] for c in first.call("list_co_owners", {"pageSize": 200})[0]["data"]]
    first.close()
    shared_owners, shared_units = owners[:3], units[:2]

    ledger = Ledger()
    bridge, base, bridge_errors = start_bridge(db, workers=4)
    check("the bridge starts", base is not None)
    u = urllib.parse.urlsplit(base)
    servers = [StdioClient(db, key) for _ in range(STDIO_SERVERS)]
    started = time.monotonic()
    deadline = started + SECONDS
    threads = []
    for i, server in enumerate(servers):
        # The first stdio server also runs a 500-row bulk every 3 seconds, overlapping the others' writes.
        threads.append(threading.Thread(target=writer, args=(f"stdio{i}", server, ledger, units, shared_owners,
                                                              shared_units, deadline, i, 3 if i == 0 else None)))
    for i in range(HTTP_CLIENTS):
        client = HttpClient(("127.0.0.1", u.port), u.path.rstrip("/"), key, rest=i % 2 == 0)
        threads.append(threading.Thread(target=writer, args=(f"http{i}", client, ledger, units, shared_owners,
                                                              shared_units, deadline, 100 + i, 4 if i == 1 else None)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    statuses = [s.close() for s in servers]
    check("the stdio servers end cleanly", statuses == [0] * STDIO_SERVERS, str(statuses))
    bridge.terminate()
    check("the bridge stops cleanly", bridge.wait(timeout=TIMEOUT) == 0)

    attempted, succeeded = sum(ledger.attempted.values()), sum(ledger.succeeded.values())
    busy = [f for f in ledger.failures if re.search(r"busy|locked|-32603|503|INTERNAL", json.dumps(f[2]), re.I)]
    check("every write is answered with a success", not ledger.failures,
          f"{len(ledger.failures)} failures, e.g. {ledger.failures[:3]}")
    check("no answer is a busy or locked database (or -32603, or 503)", not busy, f"{len(busy)}: {busy[:3]}")
    check("the bridge logged no database error", not bridge_errors, str(bridge_errors[:3]))
    check(f"at least {MIN_WRITES} writes were tried", attempted >= MIN_WRITES, str(attempted))
    check("each server wrote", all(ledger.succeeded.get(w, 0) > 0
                                   for w in [f"stdio{i}" for i in range(STDIO_SERVERS)] + [f"http{i}" for i in range(HTTP_CLIENTS)]),
          str(ledger.succeeded))

    # Read back every answered write, by id, through a fresh server.
    reader = StdioClient(db, key)
    found = mismatched = 0
    for cid, record in ledger.records.items():
        now, error = reader.call("get_co_owner", {"id": cid})
        expected = dict(record)
        if cid in ledger.archived:
            ok = now is not None and now.get("deletedAt") is not None and \
                all(now.get(k) == v for k, v in expected.items() if k not in ("deletedAt", "updatedAt", "hasPortalAccess"))
        else:
            ok = now == expected
        found += ok
        if not ok:
            mismatched += 1
            if mismatched <= 3:
                check(f"co-owner {cid} is as its last answer said", False, f"answered {expected}, now {now or error}")
    check(f"every co-owner created or updated is there as answered, field for field ({len(ledger.records)})",
          mismatched == 0, f"{mismatched} differ")
    bulk_rows = [r for _, created in ledger.bulks for r in created]
    bulk_found = 0
    for cid, row in bulk_rows:
        now, _ = reader.call("get_co_owner", {"id": cid})
        bulk_found += now is not None and all(now.get(k) == v for k, v in row.items())
    check(f"every row of every bulk is there as answered ({len(ledger.bulks)} bulks, {len(bulk_rows)} rows)",
          bulk_found == len(bulk_rows) and len(bulk_rows) == BULK_ROWS * len(ledger.bulks), f"{bulk_found} found")
    shared_ok = 0
    for cid, answers in ledger.shared.items():
        now, _ = reader.call("get_co_owner", {"id": cid})
        # The last write wins whole: the record now is the answer of one of the writes, not a mix.
        shared_ok += now in answers
    check(f"each shared co-owner is the answer of one of its {sum(map(len, ledger.shared.values()))} updates",
          shared_ok == len(ledger.shared), f"{shared_ok} of {len(ledger.shared)}")
    units_ok = 0
    for uid, answers in ledger.units.items():
        now, _ = reader.call("get_unit", {"id": uid})
        units_ok += now is not None and (now.get("cadastralLot"), now.get("bedrooms")) in answers
    check(f"each shared unit is the answer of one of its {sum(map(len, ledger.units.values()))} updates",
          units_ok == len(ledger.units), f"{units_ok} of {len(ledger.units)}")
    reader.close()
    found_total = found + bulk_found + shared_ok + units_ok

    conn = sqlite3.connect(db)
    created_answered = len(ledger.records) + len(bulk_rows)
    created_rows = conn.execute("SELECT count(*) FROM co_owners WHERE first_name IN ('Écrit', 'Lot')").fetchone()[0]
    check("no row is there that no answer announced", created_rows == created_answered, f"{created_rows} rows, {created_answered} answered")
    check("integrity_check is ok", conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok")
    rows = conn.execute("SELECT count(*) FROM co_owners").fetchone()[0]
    tallied = conn.execute("SELECT coalesce(sum(n), 0) FROM co_owner_tallies").fetchone()[0]
    indexed = conn.execute("SELECT " + INDEXED_OR_PENDING).fetchone()[0]
    check("co-owner rows, the sum of co_owner_tallies and the search index's rows are equal", rows == tallied == indexed,
          f"{rows} rows, {tallied} tallied, {indexed} indexed")
    by_category = dict(((s, a, p), n) for s, a, p, n in conn.execute(
        "SELECT syndicate_id, deleted_at IS NOT NULL, has_portal_access, count(*) FROM co_owners GROUP BY 1, 2, 3"))
    tallies = dict(((s, a, p), n) for s, a, p, n in conn.execute(
        "SELECT syndicate_id, archived, has_portal_access, n FROM co_owner_tallies WHERE n > 0"))
    check("co_owner_tallies agrees with the rows, category by category (archived, portal access)", by_category == tallies,
          f"{by_category} vs {tallies}")
    try:
        # The rows still pending (migration 012) folded in, as the fold trigger does, in a
        # transaction rolled back: then the index must hold exactly the table's texts.
        conn.execute("BEGIN")
        conn.execute("INSERT INTO co_owner_search (co_owner_search, rowid, search_text) "
                     "SELECT command, row, text FROM (SELECT 'delete' AS command, row, indexed_text AS text, 0 AS step "
                     "FROM co_owner_search_pending WHERE indexed_text IS NOT NULL UNION ALL SELECT NULL, p.row, "
                     "c.search_text, 1 FROM co_owner_search_pending p JOIN co_owners c ON c.rowid = p.row) "
                     "ORDER BY row, step")
        conn.execute("INSERT INTO co_owner_search (co_owner_search, rank) VALUES ('integrity-check', 1)")
        conn.execute("ROLLBACK")
        fts_ok, fts_detail = True, ""
    except sqlite3.DatabaseError as e:
        fts_ok, fts_detail = False, str(e)
    check("the search index matches co_owners (FTS5 integrity-check)", fts_ok, fts_detail)
    conn.close()

    per = ", ".join(f"{w} {ledger.succeeded.get(w, 0)}/{ledger.attempted.get(w, 0)}" for w in sorted(ledger.attempted))
    print(f"{STDIO_SERVERS} stdio servers and 1 bridge ({HTTP_CLIENTS} clients, 4 workers) on one file for {elapsed:.1f} s: "
          f"{attempted} writes attempted, {succeeded} answered as successes, {len(ledger.failures)} errors "
          f"({len(busy)} busy/locked/internal)")
    print(f"per writer (succeeded/attempted): {per}")
    print(f"{len(ledger.bulks)} bulks of {BULK_ROWS} ({len(bulk_rows)} rows); {len(ledger.records)} co-owners created or updated by one "
          f"writer, {sum(map(len, ledger.shared.values()))} updates of {len(ledger.shared)} shared co-owners, "
          f"{sum(map(len, ledger.units.values()))} of {len(ledger.units)} shared units; {found_total} records read back as answered; "
          f"{rows} co-owner rows at the end")

checks.finish()
