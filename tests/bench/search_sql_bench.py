#!/usr/bin/env python3
"""The search index's cost at the SQL level, without the executable: one-row create transactions
and list_co_owners' search statements, on databases made by applying the real migrations, with
and without migration 012 (the pending table), at 10k and 100k co-owners, interleaved (A B A B).

"before": migrations up to 011; a create indexes its row in FTS5 in its own transaction
(co_owners.cpp's former index_for_search). "after": with 012; a create only inserts (the trigger
notes the row; every 64th folds), and a search asks for a few trigrams (fts5_candidates). Search: the statement list_co_owners runs for a trigram search
(candidates, checked rows in register order, counted, the page's rowids kept), then the page.

Usage: search_sql_bench.py SOURCE_ROOT [--sizes 10000,100000] [--rounds 5] [--creates 2000] [--searches 2000]
"""
import argparse
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stdio_bench import FIRST_NAMES, LAST_NAMES, ascii_fold  # noqa: E402


def fold(text):
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).lower()


# The migrations of schema versions 1..12 (numbered globally then), in the order they ran; each is
# now a module's (src/storage/legacy_versions.cpp).
VERSIONS = [(1, "src/storage/migrations/001_core.sql"), (2, "src/modules/meetings/migrations/001_meetings.sql"),
            (2, "src/modules/documents/migrations/001_documents.sql"), (2, "src/storage/migrations/002_outbox.sql"), (3, "src/storage/migrations/003_oauth.sql"),
            (4, "src/storage/migrations/004_list_indexes.sql"), (5, "src/storage/migrations/005_audit_trail.sql"),
            (6, "src/modules/water_heaters/migrations/001_water_heaters.sql"),
            (7, "src/modules/insurance/migrations/001_insurance.sql"),
            (8, "src/modules/contractors/migrations/001_contractors.sql"),
            (9, "src/storage/migrations/006_signing_keys_out.sql"),
            (10, "src/modules/co_owners/migrations/001_co_owner_fractions.sql"),
            (11, "src/storage/migrations/007_settings.sql"),
            (11, "src/modules/water_heaters/migrations/002_replacement_years_setting.sql"),
            (12, "src/modules/co_owners/migrations/002_search_pending.sql")]


def migrations(root, last):
    return [os.path.join(root, f) for version, f in VERSIONS if version <= last]


def make(root, path, n, last_migration):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    for f in migrations(root, last_migration):
        db.executescript(open(f).read())
    now = "2026-11-23T00:00:00Z"
    db.execute("BEGIN")
    db.execute("INSERT INTO syndicates (id, name, created_at) VALUES ('s', 'Bench', ?)", (now,))
    for u in range(n // 4):
        db.execute("INSERT INTO units (id, syndicate_id, number, type, created_at, updated_at) "
                   "VALUES (?, 's', ?, 'apartment', ?, ?)", (f"u{u:08d}", str(1000 + u), now, now))
    rng = random.Random(n)
    rows = []
    for i in range(n):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        email = f"{ascii_fold(first).lower()}.{ascii_fold(last).lower().replace(' ', '')}{i}@exemple.qc.ca"
        rows.append((first, last, email))
        insert(db, rng, f"u{i // 4:08d}", first, last, email, now)
    if last_migration < 12:
        db.execute("INSERT INTO co_owner_search (rowid, search_text) SELECT rowid, search_text FROM co_owners")
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return rows


def insert(db, rng, unit, first, last, email, now):
    db.execute("INSERT INTO co_owners (id, syndicate_id, unit_id, first_name, last_name, email, search_text, sort_key, "
               "created_at, updated_at) VALUES (?, 's', ?, ?, ?, ?, ?, ?, ?, ?)",
               ("%032x" % rng.getrandbits(128), unit, first, last, email, fold(f"{first} {last} {email}"),
                fold(last) + "\x1f" + fold(first), now, now))


def creates(path, n, count, pending, seed):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    rng = random.Random(seed)
    began = time.perf_counter()
    for i in range(count):
        db.execute("BEGIN IMMEDIATE")
        insert(db, rng, f"u{rng.randrange(n // 4):08d}", rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES),
               f"nouveau{seed}.{i}@exemple.qc.ca", "2026-11-23T00:00:00Z")
        if not pending:
            db.execute("INSERT INTO co_owner_search (rowid, search_text) "
                       "SELECT rowid, search_text FROM co_owners WHERE rowid = last_insert_rowid()")
        db.execute("COMMIT")
    seconds = time.perf_counter() - began
    db.close()
    return count / seconds


def candidates(text):
    """co_owners.cpp's fts5_candidates: at most four non-overlapping trigrams, digits first, then the later."""
    trigrams = []
    for p in list(range(0, len(text) - 2, 3)) + [len(text) - 3]:
        if text[p:p + 3] not in trigrams:
            trigrams.append(text[p:p + 3])
    trigrams.reverse()
    trigrams = [t for t in trigrams if any(c.isdigit() for c in t)] + \
        [t for t in trigrams if not any(c.isdigit() for c in t)]
    return " AND ".join('"' + t.replace('"', '""') + '"' for t in trigrams[:4])


def searches(path, rows, count, pending, kind, seed):
    db = sqlite3.connect(path, isolation_level=None)
    source = ("(SELECT rowid AS row FROM co_owner_search WHERE co_owner_search MATCH ?2 "
              "UNION SELECT row FROM co_owner_search_pending)" if pending else
              "(SELECT rowid AS row FROM co_owner_search WHERE co_owner_search MATCH ?2)")
    sql = (f"SELECT c.rowid FROM {source} s CROSS JOIN co_owners c ON c.rowid = s.row "
           "WHERE c.syndicate_id = 's' AND instr(c.search_text, ?1) > 0 AND c.deleted_at IS NULL "
           "ORDER BY c.sort_key, c.id")
    page_sql = ("SELECT c.* , u.number FROM co_owners c JOIN units u ON u.id = c.unit_id "
                "WHERE c.rowid IN (SELECT value FROM json_each(?1)) ORDER BY c.sort_key, c.id")
    rng = random.Random(seed)
    began = time.perf_counter()
    for _ in range(count):
        first, last, email = rows[rng.randrange(len(rows))]
        term = fold(last) if kind == "surname" else email.split("@")[0]
        page = []
        total = 0
        match = candidates(term) if pending else '"' + term + '"'
        for (rowid,) in db.execute(sql, (term, match)):
            if total < 50:
                page.append(rowid)
            total += 1
        db.execute(page_sql, ("[" + ",".join(map(str, page)) + "]",)).fetchall()
    seconds = time.perf_counter() - began
    db.close()
    return count / seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--creates", type=int, default=2000)
    parser.add_argument("--searches", type=int, default=2000)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="search-sql-bench-")
    for n in map(int, args.sizes.split(",")):
        paths = {}
        for label, last in (("before", 11), ("after", 12)):
            paths[label] = os.path.join(folder, f"{label}-{n}.db")
            rows = make(args.root, paths[label], n, last)
        names = ["create (one-row transaction)", "search: a person", "search: a surname (n/70)"]
        figures = {(label, name): [] for label in paths for name in names}
        for r in range(args.rounds):
            for label in paths:
                pending = label == "after"
                figures[(label, names[0])].append(creates(paths[label], n, args.creates, pending, r))
                figures[(label, names[1])].append(searches(paths[label], rows, args.searches, pending, "person", r))
                figures[(label, names[2])].append(searches(paths[label], rows, args.searches // 4, pending, "surname", r))
        print(f"\n{n} co-owners, {args.rounds} rounds interleaved, per second, medians")
        print(f"{'workload':32} {'before':>10} {'after':>10} {'ratio':>7}")
        for name in names:
            b = statistics.median(figures[("before", name)])
            a = statistics.median(figures[("after", name)])
            print(f"{name:32} {b:10.0f} {a:10.0f} {a / b:6.2f}x")
        sys.stdout.flush()
        for p in paths.values():
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(p + suffix):
                    os.remove(p + suffix)


if __name__ == "__main__":
    main()
