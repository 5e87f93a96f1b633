#!/usr/bin/env python3
"""Storage that fails, through the real executable (issue 15, section 2): a full disk (an 8 MiB
tmpfs when this runs as root and may mount, else RLIMIT_FSIZE), RLIMIT_FSIZE on the server, a
read-only database, a file that is not a database, a database locked by another process beyond
the busy timeout, and the temporaries a killed writer leaves. Each must be a refusal with a clear
code naming the file (STORAGE_FULL, STORAGE_UNAVAILABLE, DATABASE_UNUSABLE, SERVER_BUSY) over
stdio and HTTP, with no file under a final name and nothing changed in the database; the server
stays up; start-up removes leftover temporaries. A server killed (SIGKILL) at random moments of
generate_minutes never leaves a file under a final name without its row, nor a row without its
file, once the next server has started (issue 28, point 7).

usage: run_storage_tests.py SYNDIC_MCP
"""
import datetime
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check, finish  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
DEADLINE = time.monotonic() + 150  # every wait below is bounded; the whole script too


class Stdio:
    """A stdio server; call() sends tools/call and returns the parsed reply (None if it died)."""

    def __init__(self, db, key, fsize=None, at=None):
        def limit():
            if fsize is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        # `at`: the server's clock starts then (Debian's faketime), e.g. a meeting's day.
        clock = ["faketime", at] if at else []
        self.p = subprocess.Popen(clock + [BIN, "--db", db, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, preexec_fn=limit,
                                  env=dict(os.environ, SYNDIC_API_KEY=key))
        self.n = 0

    def call(self, name, args):
        self.n += 1
        try:
            self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.n, "method": "tools/call",
                                           "params": {"name": name, "arguments": args}}) + "\n")
            self.p.stdin.flush()
            line = self.p.stdout.readline()
        except (BrokenPipeError, OSError):
            return None
        return json.loads(line) if line else None

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        err = self.p.stderr.read()
        self.p.stderr.close()
        self.p.stdout.close()
        return self.p.returncode, err


def error_of(reply):
    return (reply or {}).get("error") or {}


def demo(folder):
    db = os.path.join(folder, "syndic.db")
    key = subprocess.run([BIN, "--db", db, "demo"], capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    return db, key


def held_meeting(db, key):
    """The demo's meeting, noticed and held, so final minutes may be generated."""
    s = Stdio(db, key)
    listed = s.call("list_meetings", {})["result"]["structuredContent"]["data"][0]
    meeting = listed["id"]
    s.call("send_meeting_notice", {"meetingId": meeting})
    s.close()
    # A meeting is held on its day, not before: the server is run with its clock an hour after it began.
    day = datetime.datetime.fromisoformat(listed["scheduledAt"]).astimezone(datetime.timezone.utc) + datetime.timedelta(hours=1)
    s = Stdio(db, key, at=day.strftime("%Y-%m-%d %H:%M:%S"))
    r = s.call("update_meeting", {"id": meeting, "status": "held"})
    check("the demo meeting is held", r and "result" in r, r)
    s.close()
    return meeting


def documents(db):
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    finally:
        conn.close()


def exports(folder):
    path = os.path.join(folder, "exports")
    return sorted(os.listdir(path)) if os.path.isdir(path) else []


def can_mount():
    if os.geteuid() != 0:
        return False
    with tempfile.TemporaryDirectory() as probe:
        ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], capture_output=True).returncode == 0
        if ok:
            subprocess.run(["umount", probe], check=True)
        return ok


def fill(folder):
    """Fills the file system of `folder` to the last byte; returns the filler's path."""
    filler = os.path.join(folder, "filler")
    with open(filler, "wb", buffering=0) as f:
        for size in (65536, 4096, 512, 1):
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError:
                pass
    return filler


def refused_minutes(where, reply, code, folder, db, documents_before):
    e = error_of(reply)
    check(f"{where}: generate_minutes is refused {code}", e.get("message") == code, reply)
    data = e.get("data") or {}
    check(f"{where}: the refusal names the file and the cause",
          str(data.get("file", "")).startswith("exports/minutes-") and data.get("cause"), data)
    recorded = exported_rows(db)  # the demo's own documents (its notices of assessment)
    left = [f for f in exports(folder) if (f.endswith(".pdf") and f not in recorded) or f.startswith(".syndic-tmp-") or f.endswith(".part")]
    check(f"{where}: no PDF and no temporary is left in exports/", not left, left)
    check(f"{where}: no document is recorded", documents(db) == documents_before, (documents(db), documents_before))


def full_disk_tmpfs():
    """A real full file system: the database and exports on an 8 MiB tmpfs, filled to the last byte."""
    with tempfile.TemporaryDirectory() as mount_point:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount_point], check=True)
        try:
            db, key = demo(mount_point)
            meeting = held_meeting(db, key)
            before = documents(db)
            s = Stdio(db, key)
            check("full disk: the server answers before the disk fills", "result" in s.call("list_units", {}))
            rows_before = checks.every_row(db)
            fill(mount_point)
            refused_minutes("full disk", s.call("generate_minutes", {"meetingId": meeting, "draft": False}),
                            "STORAGE_FULL", mount_point, db, before)
            r = s.call("update_meeting", {"id": meeting, "status": "minutes-sent"})
            check("full disk: the meeting cannot be marked minutes-sent", error_of(r).get("message") is not None, r)
            r = s.call("create_unit", {"number": "9901", "type": "parking", "fractionPercent": 0})
            e = error_of(r)
            check("full disk: a database write is refused STORAGE_FULL naming the database",
                  e.get("message") == "STORAGE_FULL" and (e.get("data") or {}).get("file") == "syndic.db", r)
            check("full disk: the server is still up", "result" in (s.call("list_units", {}) or {}))
            s.close()
            os.remove(os.path.join(mount_point, "filler"))
            check("full disk: nothing changed in the database", checks.every_row(db) == rows_before)
            s = Stdio(db, key)
            r = s.call("generate_minutes", {"meetingId": meeting, "draft": False})
            check("full disk: once space is back the minutes are generated", "result" in (r or {}), r)
            if r and "result" in r:
                out = r["result"]["structuredContent"]
                with open(out["path"], "rb") as f:
                    pdf = f.read()
                check("full disk: the PDF is whole", pdf.startswith(b"%PDF-") and b"%%EOF" in pdf[-1024:] and
                      len(pdf) == out["sizeBytes"])
            s.close()
        finally:
            subprocess.run(["umount", "-l", mount_point])


def file_size_limit():
    """RLIMIT_FSIZE on the server: EFBIG (as a full disk gives ENOSPC), not a process killed by SIGXFSZ."""
    with tempfile.TemporaryDirectory() as folder:
        db, key = demo(folder)
        meeting = held_meeting(db, key)
        before = documents(db)
        rows_before = checks.every_row(db)
        s = Stdio(db, key, fsize=4096)  # set at start: the database's -shm (32 KiB) cannot be made
        r = s.call("list_units", {})
        check("RLIMIT_FSIZE at start: opening the database is STORAGE_FULL (EFBIG)",
              error_of(r).get("message") == "STORAGE_FULL" and "EFBIG" in json.dumps(r), r)
        s.close()
        s = Stdio(db, key)
        check("RLIMIT_FSIZE: the server opens the database", "result" in (s.call("list_units", {}) or {}))
        resource.prlimit(s.p.pid, resource.RLIMIT_FSIZE, (4096, 4096))  # below any PDF; the -wal is empty
        refused_minutes("RLIMIT_FSIZE", s.call("generate_minutes", {"meetingId": meeting, "draft": True}),
                        "STORAGE_FULL", folder, db, before)
        r = s.call("create_unit", {"number": "9902", "type": "parking", "fractionPercent": 0})
        check("RLIMIT_FSIZE: a database write past the limit is STORAGE_FULL", error_of(r).get("message") == "STORAGE_FULL", r)
        r = s.call("list_units", {})
        check("RLIMIT_FSIZE: the server is not killed by SIGXFSZ", r is not None and "result" in r, s.p.poll())
        code, err = s.close()
        check("RLIMIT_FSIZE: nothing changed in the database", checks.every_row(db) == rows_before)


def not_a_database():
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "notes.db")
        with open(db, "w") as f:
            f.write("These are meeting notes, not an SQLite database.\n" * 200)
        s = Stdio(db, "sk_" + "a" * 43)
        r = s.call("list_units", {})
        e = error_of(r)
        check("not a database: stdio refuses DATABASE_UNUSABLE, not -32603",
              e.get("code") == -32000 and e.get("message") == "DATABASE_UNUSABLE", r)
        check("not a database: the refusal names the file", "notes.db" in json.dumps(e), e)
        s.close()
        p = subprocess.run([BIN, "--db", db, "http", "--listen", "127.0.0.1:0"], capture_output=True, text=True, timeout=30)
        check("not a database: http exits non-zero at start", p.returncode != 0, p.returncode)
        check("not a database: http says which file and why on stderr",
              "notes.db" in p.stderr and "not a database" in p.stderr, p.stderr[-400:])


def read_only():
    """A database on a read-only file system (root: a tmpfs remounted read-only; else modes)."""
    with tempfile.TemporaryDirectory() as folder:
        mounted = can_mount()
        if mounted:
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", folder], check=True)
        try:
            db, key = demo(folder)
            if mounted:
                subprocess.run(["mount", "-o", "remount,ro", folder], check=True)
            else:
                os.chmod(db, 0o444)
                os.chmod(folder, 0o555)
            s = Stdio(db, key)
            r = s.call("create_unit", {"number": "9903", "type": "parking", "fractionPercent": 0})
            e = error_of(r)
            check("read-only: stdio refuses STORAGE_UNAVAILABLE, not -32603",
                  e.get("code") == -32000 and e.get("message") == "STORAGE_UNAVAILABLE", r)
            check("read-only: the refusal names the file", "syndic.db" in json.dumps(e), e)
            s.close()
            p = subprocess.run([BIN, "--db", db, "http", "--listen", "127.0.0.1:0"], capture_output=True, text=True,
                               timeout=30)
            check("read-only: http exits non-zero at start naming the file",
                  p.returncode != 0 and "syndic.db" in p.stderr and "read" in p.stderr.lower(), (p.returncode, p.stderr[-400:]))
        finally:
            if mounted:
                subprocess.run(["umount", "-l", folder])
            else:
                os.chmod(folder, 0o755)


def start_http(db):
    p = subprocess.Popen([BIN, "--db", db, "http", "--listen", "127.0.0.1:0"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    line, p.early = "", ""
    while time.monotonic() < DEADLINE:
        line = p.stderr.readline()
        p.early += line
        if "serving http://" in line or not line:
            break
    base = line.split("serving ", 1)[1].split(" ", 1)[0] if "serving http://" in line else None
    return p, base


def rest(base, key, method, path, body=None):
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def locked():
    """Another process holds a write transaction beyond the 5 s busy timeout: SERVER_BUSY."""
    with tempfile.TemporaryDirectory() as folder:
        db, key = demo(folder)
        http, base = start_http(db)
        check("locked: the bridge starts", base is not None)
        holder = sqlite3.connect(db, isolation_level=None, timeout=1)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            s = Stdio(db, key)
            started = time.monotonic()
            r = s.call("create_unit", {"number": "9904", "type": "parking", "fractionPercent": 0})
            e = error_of(r)
            check("locked: stdio refuses SERVER_BUSY, not -32603", e.get("message") == "SERVER_BUSY", r)
            check("locked: the refusal names the database", (e.get("data") or {}).get("file") == "syndic.db", e)
            check("locked: within the busy timeout and a little", time.monotonic() - started < 12)
            s.close()
            if base:
                status, body = rest(base, key, "POST", "/units", {"number": "9905", "type": "parking", "fractionPercent": 0})
                check("locked: REST answers 503 SERVER_BUSY", status == 503 and body["error"]["code"] == "SERVER_BUSY",
                      (status, body))
        finally:
            holder.execute("ROLLBACK")
            holder.close()
            http.send_signal(signal.SIGTERM)
            try:
                http.wait(timeout=20)
            except subprocess.TimeoutExpired:
                http.kill()
            http.stderr.close()


def http_full_disk():
    """Over REST, a full disk is 507 STORAGE_FULL and a read-only write 503 STORAGE_UNAVAILABLE."""
    with tempfile.TemporaryDirectory() as mount_point:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount_point], check=True)
        http = None
        try:
            db, key = demo(mount_point)
            meeting = held_meeting(db, key)
            http, base = start_http(db)
            check("http full disk: the bridge starts", base is not None)
            fill(mount_point)
            status, body = rest(base, key, "POST", "/units", {"number": "9906", "type": "parking", "fractionPercent": 0})
            check("http full disk: REST answers 507 STORAGE_FULL", status == 507 and body["error"]["code"] == "STORAGE_FULL",
                  (status, body))
            status, body = rest(base, key, "POST", f"/meetings/{meeting}/minutes", {"draft": False})
            check("http full disk: minutes over REST are 507 STORAGE_FULL",
                  status == 507 and body.get("error", {}).get("code") == "STORAGE_FULL", (status, body))
        finally:
            if http:
                http.send_signal(signal.SIGTERM)
                try:
                    http.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    http.kill()
                http.stderr.close()
            subprocess.run(["umount", "-l", mount_point])


def dead_pid():
    for pid in range(4_000_000, 4_100_000):
        if not os.path.exists(f"/proc/{pid}"):
            return pid
    return 4_194_303


def leftovers():
    """Temporaries of a killed writer (today's .part, the new .syndic-tmp-<pid>-...) go at start."""
    with tempfile.TemporaryDirectory() as folder:
        db, key = demo(folder)
        exp = os.path.join(folder, "exports")
        for command in ("serve", "http"):
            os.makedirs(exp, exist_ok=True)
            names = ["minutes-2026-12-23-abc-final-fr-1234.pdf.part", f".syndic-tmp-{dead_pid()}-0123456789abcdef-minutes.pdf"]
            live = f".syndic-tmp-{os.getpid()}-fedcba9876543210-minutes.pdf"  # its writer (this script) is alive
            for name in names + [live, "kept.pdf"]:
                with open(os.path.join(exp, name), "wb") as f:
                    f.write(b"%PDF-1.5 partial")
            if command == "serve":
                s = Stdio(db, key)
                s.call("list_units", {})
                _, err = s.close()
            else:
                http, base = start_http(db)
                http.send_signal(signal.SIGTERM)
                try:
                    _, err = http.communicate(timeout=20)
                except subprocess.TimeoutExpired:
                    http.kill()
                    _, err = http.communicate()
                err = http.early + err
            left = exports(folder)
            check(f"leftovers ({command}): the temporaries of dead writers are removed",
                  not any(n in left for n in names), left)
            check(f"leftovers ({command}): a finished file and a live writer's temporary are kept",
                  "kept.pdf" in left and live in left, left)
            check(f"leftovers ({command}): each removal is logged", all(n in err for n in names), err[-600:])
            os.remove(os.path.join(exp, live))


def exported_rows(db):
    """The file names of the documents recorded under exports/."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {os.path.basename(p) for (p,) in conn.execute("SELECT path FROM documents WHERE path LIKE '%/exports/%'")}
    finally:
        conn.close()


def killed_minutes(rounds=40):
    """SIGKILL at random moments of generate_minutes; then a server starts and settles what is left."""
    import random
    with tempfile.TemporaryDirectory() as folder:
        db, key = demo(folder)
        meeting = held_meeting(db, key)
        request = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                              "params": {"name": "generate_minutes", "arguments": {"meetingId": meeting, "draft": False}}}) + "\n"
        # How long one call takes here, to spread the kills over it.
        s = Stdio(db, key)
        s.call("list_units", {})
        started = time.monotonic()
        s.call("generate_minutes", {"meetingId": meeting, "draft": False})
        span = time.monotonic() - started
        s.close()
        temporaries = 0
        for _ in range(rounds):
            s = Stdio(db, key)
            s.call("list_units", {})  # opened and ready: the kill falls inside the call
            s.p.stdin.write(request)
            s.p.stdin.flush()
            time.sleep(random.uniform(0, span * 1.2))
            s.p.kill()
            s.close()
            temporaries += sum(1 for n in exports(folder) if n.startswith(".syndic-tmp-"))
        s = Stdio(db, key)  # the next start settles the leftovers
        s.call("list_units", {})
        _, err = s.close()
        files = {n for n in exports(folder) if not n.startswith(".")}
        rows = exported_rows(db)
        print(f"     ({rounds} kills over {span * 1000:.0f} ms calls: {temporaries} temporaries seen before the restart, "
              f"{len(rows)} minutes recorded)", flush=True)
        check(f"killed generate_minutes ({rounds} times): every file under a final name has its row",
              files <= rows, sorted(files - rows))
        check("...and every row its file", rows <= files, sorted(rows - files))
        check("...and no temporary is left", not any(n.startswith(".") for n in exports(folder)), exports(folder))

        # A server killed between its commit and its rename: the row is there, the file under its
        # temporary name. The next start puts it in place.
        s = Stdio(db, key)
        made = s.call("generate_minutes", {"meetingId": meeting, "draft": False})
        s.close()
        path = ((made or {}).get("result") or {}).get("structuredContent", {}).get("path", "")
        name = os.path.basename(path)
        temporary = os.path.join(folder, "exports", f".syndic-tmp-{dead_pid()}-0123456789abcdef-{name}")
        if check("final minutes generated", bool(name) and os.path.exists(path), made):
            os.rename(path, temporary)
            s = Stdio(db, key)
            s.call("list_units", {})
            _, err = s.close()
            check("a committed row's file left under its temporary name is put in place at the next start (and logged)",
                  os.path.exists(path) and not os.path.exists(temporary) and "put " in err and name in err, err[-400:])


def sigpipe():
    """stdout closed under the server: EPIPE, an orderly end, not death by SIGPIPE."""
    with tempfile.TemporaryDirectory() as folder:
        db, key = demo(folder)
        s = Stdio(db, key)
        s.p.stdout.close()
        try:
            for i in range(3):
                s.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                            "params": {"name": "list_units", "arguments": {}}}) + "\n")
                s.p.stdin.flush()
                time.sleep(0.1)
            s.p.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            code = s.p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            s.p.kill()
            code = s.p.wait()
        check("closed stdout: the server is not killed by SIGPIPE", code != -signal.SIGPIPE, code)
        s.p.stderr.close()


mountable = can_mount()
if mountable:
    full_disk_tmpfs()
    http_full_disk()
else:
    print("mount is not allowed here: the full disk is played with RLIMIT_FSIZE alone")
file_size_limit()
not_a_database()
read_only()
locked()
leftovers()
killed_minutes()
sigpipe()
finish()
