"""What every black-box test script shares: check(what, condition, detail) counts a result and
prints a failure (every result with verbose=True), safely from several threads; finish() prints
"N passed, M failed" and exits non-zero on a failure or when nothing was checked; every_row(path)
reads every row of every table of a database file, to show a database unchanged or two equal.

A script in tests/<folder>/ imports it with:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from checks import check, finish
"""
import sqlite3
import sys
import threading

_lock = threading.Lock()
_counts = {"passed": 0, "failed": 0}
verbose = False  # a script sets checks.verbose = True to see every result, not only failures


def check(what, condition, detail=""):
    with _lock:
        if condition:
            _counts["passed"] += 1
            if verbose:
                print(f"ok   {what}", flush=True)
        else:
            _counts["failed"] += 1
            print(f"FAIL {what}" + (f": {detail}" if detail else ""), flush=True)
    return bool(condition)


def finish():
    passed, failed = _counts["passed"], _counts["failed"]
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or passed == 0 else 0)


def every_row(path):
    """Every row of every table (the search index's shadow tables included), read-only, as a dict
    of table name to its sorted rows: equal dicts are equal databases."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    out = {n: sorted(map(repr, db.execute(f'SELECT * FROM "{n}"'))) for n in names}
    db.close()
    return out


def catalogue(binary):
    """The tools the server offers, read from its registry (`syndic-mcp tools --json`, every
    module): [{name, module, scope, adminOnly, route: "METHOD /path", created: its route answers
    201}], in catalogue order. Nothing here is written by hand: a new module's tools appear with no
    edit. The pinned copies of the contract are tests/unit/<module>/catalogue.json (see update_catalogue.py)."""
    import json
    import subprocess
    for args in (["tools", "--json", "--modules", "all"], ["tools", "--json"]):
        r = subprocess.run([binary, *args], capture_output=True, text=True, timeout=60)
        if r.returncode == 0:
            break
    else:
        raise RuntimeError(f"{binary} tools --json failed: {r.stderr}")
    return [{"name": t["name"], "module": t["module"], "scope": t["requiredScope"], "adminOnly": t["adminOnly"],
             "route": f'{t["http"]["method"]} {t["http"]["path"]}', "created": t["http"].get("status") == 201}
            for t in json.loads(r.stdout)]
