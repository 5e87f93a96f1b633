#!/usr/bin/env python3
"""Secrets at rest and at start (issue 15, section 3), through the real executable: the modes of
every file and folder it makes (whatever the umask), the warning for a database or backup other
users can read, no token signing key in the database or its backups (a token signed with a key
read from a backup is refused by the live server), `signing-key rotate`, the refusal of a database
of a newer schema by every server and command, restore's exact-schema check, --api-key-file.

usage: run_secrets_tests.py SYNDIC_MCP
"""
import base64
import json
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check, every_row  # noqa: E402

BIN = sys.argv[1]
SCHEMA_8 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "schema_8.sql")
STARTED = []  # every bridge, stopped at the end whatever happened
ENV = {k: v for k, v in os.environ.items() if k not in ("SYNDIC_API_KEY", "SYNDIC_DB", "SYNDIC_MODULES")}
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def open_umask():
    os.umask(0)  # the most open umask: every mode checked below is the program's own doing


def run(*args, db, stdin=None, env=None):
    return subprocess.run([BIN, *args, "--db", db], capture_output=True, text=True, timeout=60,
                          env=dict(ENV, **(env or {})), input=stdin, preexec_fn=open_umask)


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def call_stdio(db, key, tool, arguments, *extra, env=None):
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    r = run("serve", *extra, db=db, stdin=request + "\n", env=dict(env or {}, **({"SYNDIC_API_KEY": key} if key else {})))
    lines = r.stdout.splitlines()
    return (json.loads(lines[0]) if lines else {}), r


class Bridge:
    """One `syndic-mcp http` process on a free port; its stderr collected."""

    def __init__(self, db):
        self.proc = subprocess.Popen([BIN, "http", "--db", db, "--listen", "127.0.0.1:0"], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, preexec_fn=open_umask)
        STARTED.append(self)
        self.lines = []
        self.base = None
        found = threading.Event()

        def pump():
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace")
                self.lines.append(line)
                m = re.search(r"serving (http\S+)", line)
                if m and not self.base:
                    self.base = m.group(1)
                    found.set()
            found.set()
        threading.Thread(target=pump, daemon=True).start()
        found.wait(20)

    def get(self, route, token=None):
        request = urllib.request.Request(self.base + route, headers={"Authorization": "Bearer " + token} if token else {})
        try:
            with urllib.request.urlopen(request, timeout=10) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return "".join(self.lines)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def es256(private_pem, signing_input, tmp):
    """An ES256 signature (r || s, low S) made with OpenSSL's command line."""
    key_path = os.path.join(tmp, "forge-" + uuid.uuid4().hex + ".pem")
    with open(key_path, "w") as f:
        f.write(private_pem)
    der = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key_path], input=signing_input.encode(),
                         capture_output=True, check=True).stdout
    os.remove(key_path)
    # SEQUENCE { INTEGER r, INTEGER s }
    at = 2 if der[1] < 0x80 else 3
    r_len = der[at + 1]
    r = int.from_bytes(der[at + 2:at + 2 + r_len], "big")
    at = at + 2 + r_len
    s = int.from_bytes(der[at + 2:at + 2 + der[at + 1]], "big")
    s = min(s, P256_N - s)
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def forge(private_pem, kid, claims, tmp):
    header = b64url(json.dumps({"alg": "ES256", "typ": "JWT", "kid": kid}).encode())
    payload = b64url(json.dumps(claims).encode())
    return header + "." + payload + "." + b64url(es256(private_pem, header + "." + payload, tmp))


def claims_for(base, user, client, syndicate):
    now = int(time.time())
    return {"iss": base, "sub": user, "aud": base, "exp": now + 600, "iat": now, "nbf": now, "jti": str(uuid.uuid4()),
            "scope": "read:co-owners", "client_id": client, "syndicate_id": syndicate, "role": "admin"}


def kept_key(db):
    """The key kept beside the database: (kid, private PEM), or None."""
    path = db + ".signing-key"
    if not os.path.exists(path):
        return None
    with open(path) as f:
        first, rest = f.readline(), f.read()
    return first.strip().split(" ", 1)[1], rest


def keys_in(db_file):
    """The private signing keys a database file holds: [(kid, pem)]."""
    con = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True)
    columns = [r[1] for r in con.execute("PRAGMA table_info(signing_keys)")]
    rows = con.execute("SELECT kid, private_pem FROM signing_keys").fetchall() if "private_pem" in columns else []
    con.close()
    return rows


def people(db):
    """A demo syndicate, an admin user and a registered application: what a token names."""
    demo = json.loads(run("demo", "--json", db=db).stdout)
    user = run("users", "create", "--email", "lise@example.ca", "--name", "Lise Gagnon", "--role", "admin", "--json",
               db=db, stdin="correct horse battery\n")
    client = run("clients", "create", "--name", "Gestion Plus", "--redirect-uri", "http://127.0.0.1:9/cb", db=db)
    return demo, json.loads(user.stdout)["userId"], client.stdout.strip()


def test_modes(tmp):
    folder = os.path.join(tmp, "modes", "data")
    db = os.path.join(folder, "syndic.db")
    key_file = os.path.join(tmp, "modes", "keys", "demo-admin.key")
    r = subprocess.run([BIN, "demo", "--json", "--key-file", key_file], capture_output=True, text=True, timeout=60,
                       env=dict(ENV, SYNDIC_DB=db), preexec_fn=open_umask)
    check("demo with umask 000 runs", r.returncode == 0, r.stderr)
    key = json.loads(r.stdout)["apiKey"] if r.returncode == 0 else ""
    check("the data folder made for the database is 0700", mode(folder) == 0o700, oct(mode(folder)))
    check("...and the folder above it, made too, is 0700", mode(os.path.dirname(folder)) == 0o700)
    check("the database is 0600", mode(db) == 0o600, oct(mode(db)))
    check("demo --key-file writes its key file 0600", mode(key_file) == 0o600, oct(mode(key_file)))

    bridge = Bridge(db)
    check("http starts", bridge.base is not None, "".join(bridge.lines))
    status, _ = bridge.get("/oauth/jwks.json")
    check("the JWKS answers (its key made)", status == 200)
    for suffix in ("-wal", "-shm", ".signing-key"):
        path = db + suffix
        check(f"while the server runs, {os.path.basename(path)} is 0600", os.path.exists(path) and mode(path) == 0o600,
              oct(mode(path)) if os.path.exists(path) else "missing")
    bridge.stop()

    meetings, _ = call_stdio(db, key, "list_meetings", {})
    meeting = meetings.get("result", {}).get("structuredContent", {}).get("data", [{}])[0].get("id")
    answer, r = call_stdio(db, key, "generate_minutes", {"meetingId": meeting, "draft": True})
    pdf = answer.get("result", {}).get("structuredContent", {}).get("path", "")
    check("generate_minutes writes the draft minutes", pdf and os.path.exists(pdf), json.dumps(answer)[:400] + r.stderr[-400:])
    if pdf and os.path.exists(pdf):
        check("the minutes PDF is 0600", mode(pdf) == 0o600, oct(mode(pdf)))
        check("the exports folder is 0700", mode(os.path.join(folder, "exports")) == 0o700)
        check("...and every folder under it too", all(mode(os.path.join(d)) == 0o700
                                                      for d, _, _ in os.walk(os.path.join(folder, "exports"))))

    backup = os.path.join(tmp, "modes", "syndic-backup.db")
    r = run("backup", "--to", backup, db=db)
    check("backup --to writes a 0600 copy", r.returncode == 0 and mode(backup) == 0o600, r.stderr)
    r = run("restore", "--from", backup, "--replace", "--json", db=db)
    saved = json.loads(r.stdout).get("savedAs", "") if r.returncode == 0 else ""
    check("restore saves the database it replaces as a 0600 copy", saved and mode(saved) == 0o600, r.stderr)
    restored = os.path.join(tmp, "modes", "elsewhere", "restored.db")
    r = run("restore", "--from", backup, db=restored)
    check("restore into a new place makes a 0600 database in a 0700 folder",
          r.returncode == 0 and mode(restored) == 0o600 and mode(os.path.dirname(restored)) == 0o700, r.stderr)

    # Found readable by others: a warning at start naming the file and the fix.
    os.chmod(db, 0o644)
    os.chmod(saved, 0o640)
    r = run("keys", "list", db=db)
    check("a command on a database readable by others warns, naming it and the fix",
          r.returncode == 0 and f"{db} is readable by other users" in r.stderr and f"chmod 600 {db}" in r.stderr, r.stderr)
    check("...and names the saved copy beside it too", f"chmod 600 {saved}" in r.stderr, r.stderr)
    _, r = call_stdio(db, key, "list_units", {})
    check("serve warns at start too", f"chmod 600 {db}" in r.stderr, r.stderr)
    bridge = Bridge(db)
    text = bridge.stop()
    check("http warns at start too", f"chmod 600 {db}" in text, text)
    os.chmod(backup, 0o604)
    r = run("restore", "--from", backup, db=os.path.join(tmp, "modes", "third.db"))
    check("restore warns of a backup readable by others", f"chmod 600 {backup}" in r.stderr, r.stderr)
    os.chmod(db, 0o600)
    os.chmod(saved, 0o600)
    r = run("keys", "list", db=db)
    check("no warning once the modes are fixed", "readable by other users" not in r.stderr, r.stderr)


def test_signing_key(tmp):
    db = os.path.join(tmp, "tokens", "syndic.db")
    demo, user, client = people(db)
    syndicate = demo["syndicateId"]
    bridge = Bridge(db)
    check("http starts for the token checks", bridge.base is not None, "".join(bridge.lines))
    status, body = bridge.get("/oauth/jwks.json")
    live_kid = json.loads(body)["keys"][0]["kid"] if status == 200 else ""

    backup = os.path.join(tmp, "tokens", "backup.db")
    run("backup", "--to", backup, db=db)
    with open(backup, "rb") as f:
        raw = f.read()
    check("a backup holds no private key (no PEM in its bytes)", b"PRIVATE KEY" not in raw)
    stolen = keys_in(backup)
    check("a backup holds no signing key in its tables", stolen == [], str([k for k, _ in stolen]))
    for kid, pem in stolen:
        token = forge(pem, kid, claims_for(bridge.base, user, client, syndicate), tmp)
        status, _ = bridge.get("/co-owners", token)
        check("a token signed with a key read from a backup is refused by the live server (401)", status == 401, str(status))

    # The key that signs is in the file beside the database: what it signs is accepted (so the
    # refusals here are the key's doing, not the forging's).
    kept = kept_key(db)
    check("the signing key is kept beside the database", kept is not None and kept[0] == live_kid, str(kept and kept[0]))
    if kept:
        token = forge(kept[1], kept[0], claims_for(bridge.base, user, client, syndicate), tmp)
        status, _ = bridge.get("/co-owners", token)
        check("a token signed with the kept key is accepted (the forging is sound)", status == 200, str(status))
        r = run("signing-key", "rotate", "--json", db=db)
        made = json.loads(r.stdout) if r.returncode == 0 else {}
        check("signing-key rotate makes a new key and says old tokens stop working",
              made.get("kid") not in (None, kept[0]) and "refused from now on" in r.stderr, r.stdout + r.stderr)
        check("...kept in the 0600 file beside the database", kept_key(db) and kept_key(db)[0] == made.get("kid")
              and mode(db + ".signing-key") == 0o600)
        status, _ = bridge.get("/co-owners", token)
        check("after rotate, a token signed by the old key is refused (401)", status == 401, str(status))
        status, body = bridge.get("/oauth/jwks.json")
        check("the JWKS publishes the new key alone", status == 200 and [k["kid"] for k in json.loads(body)["keys"]]
              == [made.get("kid")], body[:300])
    bridge.stop()

    # A database from before: schema version 8 as an old syndic-mcp made it (fixtures/schema_8.sql),
    # its signing key stored in signing_keys as that schema kept it, and the syndicate, user and
    # application a token names. A live server of this version moves the key out of use: retired,
    # erased from the file, never signing again.
    old = os.path.join(tmp, "tokens", "old.db")
    # The key: the one kept beside the database (or, from a program that kept it inside, that one).
    kid, pem = (kept[0], kept[1]) if kept else (stolen[0] if stolen else ("none", ""))
    jwk = sqlite3.connect(backup).execute("SELECT public_jwk FROM signing_keys WHERE kid = ?", (kid,)).fetchone()[0]
    kid = "old-" + str(uuid.uuid4())
    jwk = json.dumps(dict(json.loads(jwk), kid=kid))
    syndicate, user, client = (str(uuid.uuid4()) for _ in range(3))
    made = "2026-11-20T10:00:00.000Z"
    con = sqlite3.connect(old)
    with open(SCHEMA_8, encoding="utf-8") as f:
        con.executescript(f.read())
    con.execute("INSERT INTO syndicates (id, name, created_at) VALUES (?, 'Syndicat Les Trembles', ?)", (syndicate, made))
    con.execute("INSERT INTO users (id, syndicate_id, email, name, role, password_hash, created_at) "
                "VALUES (?, ?, 'avant@example.ca', 'Luc Avant', 'admin', 'not-a-password', ?)", (user, syndicate, made))
    con.execute("INSERT INTO oauth_clients (id, name, redirect_uris, auth_method, registered_by, created_at) "
                "VALUES (?, 'Gestion Avant', '[\"http://127.0.0.1:9/cb\"]', 'none', 'admin', ?)", (client, made))
    con.execute("INSERT INTO signing_keys VALUES (?, ?, ?, ?, NULL)", (kid, pem, jwk, made))
    con.commit()
    check("the old database has schema 8 and its key inside", con.execute("PRAGMA user_version").fetchone()[0] == 8
          and keys_in(old) == [(kid, pem)])
    con.close()
    untouched = os.path.join(tmp, "tokens", "old-untouched.db")
    shutil.copy(old, untouched)
    bridge = Bridge(old)
    check("http starts on a database of schema 8", bridge.base is not None, "".join(bridge.lines))
    status, body = bridge.get("/oauth/jwks.json")
    now_kept = kept_key(old)
    check("it signs with a new key kept beside the database", status == 200 and now_kept is not None, body[:300])
    if now_kept:
        token = forge(now_kept[1], now_kept[0], claims_for(bridge.base, user, client, syndicate), tmp)
        status, _ = bridge.get("/co-owners", token)
        check("a token for the old database's user signed by that key is accepted (the rows a token names are sound)",
              status == 200, str(status))
    token = forge(pem, kid, claims_for(bridge.base, user, client, syndicate), tmp)
    status, _ = bridge.get("/co-owners", token)
    check("a key the database held before is not trusted any more: its tokens are refused (401)", status == 401, str(status))
    status, body = bridge.get("/oauth/jwks.json")
    check("...and it left the JWKS", status == 200 and kid not in body.decode(), body[:300])
    bridge.stop()
    with open(old, "rb") as f:
        check("...and the database file itself no longer holds it (erased, not left in a free page)",
              b"PRIVATE KEY" not in f.read())
    recorded = sqlite3.connect(old).execute("SELECT count(*) FROM schema_migrations WHERE applied_at IS NULL").fetchone()[0]
    # 1..8 were 10 migrations once numbered by module: 002 was meetings 001, documents 001 and core 002.
    check("the upgrade recorded the migrations schema 8 had as applied before", recorded == 10, str(recorded))
    r = run("restore", "--from", untouched, db=os.path.join(tmp, "tokens", "restored-8.db"))
    check("a backup of schema 8 passes restore's exact-schema check", r.returncode == 0, r.stderr)
    after = os.path.join(tmp, "tokens", "after.db")
    run("backup", "--to", after, db=old)
    with open(after, "rb") as f:
        check("a backup made after the upgrade holds no private key", b"PRIVATE KEY" not in f.read())


def test_newer_schema(tmp):
    db = os.path.join(tmp, "newer", "syndic.db")
    key = json.loads(run("init", "--name", "Syndicat Les Érables", "--json", db=db).stdout)["apiKey"]
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    state = every_row(db)
    answer, r = call_stdio(db, key, "list_units", {})
    check("serve refuses a database of a newer schema at start, naming both versions",
          r.returncode != 0 and "schema version 99" in r.stderr and re.search(r"schema version \d+\)", r.stderr)
          and answer == {}, r.stderr + r.stdout)
    bridge = Bridge(db)
    text = bridge.stop()
    check("http refuses it, naming both versions", bridge.base is None and bridge.proc.returncode != 0
          and "schema version 99" in text, text)
    for command in (["keys", "list"], ["quorum"], ["demo"], ["init", "--name", "Autre"], ["signing-key", "rotate"]):
        r = run(*command, db=db)
        check(f"`{' '.join(command)}` refuses it", r.returncode != 0 and "schema version 99" in r.stderr, r.stderr)
    check("...and nothing was changed", every_row(db) == state)
    check("...its version neither", sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == 99)


def test_restore_schema(tmp):
    db = os.path.join(tmp, "exact", "syndic.db")
    run("demo", db=db)
    backup = os.path.join(tmp, "exact", "good.db")
    run("backup", "--to", backup, db=db)
    state = every_row(db)
    cases = {
        "an extra table": ("CREATE TABLE notes (x TEXT)", "notes"),
        "an extra trigger": ("CREATE TRIGGER spy AFTER INSERT ON units BEGIN SELECT 1; END", "spy"),
        "an extra view": ("CREATE VIEW everything AS SELECT * FROM co_owners", "everything"),
        "an extra index": ("CREATE INDEX extra_idx ON units (syndicate_id)", "extra_idx"),
        "a missing index": (None, "index"),
        "a changed trigger": (None, "trigger"),
    }
    con = sqlite3.connect(backup)
    index = con.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL LIMIT 1").fetchone()[0]
    trigger, trigger_sql = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' LIMIT 1").fetchone()
    con.close()
    for what, (sql, named) in cases.items():
        bad = os.path.join(tmp, "exact", "bad.db")
        shutil.copy(backup, bad)
        con = sqlite3.connect(bad)
        if what == "a missing index":
            sql, named = f'DROP INDEX "{index}"', index
        if what == "a changed trigger":
            con.execute(f'DROP TRIGGER "{trigger}"')
            sql, named = trigger_sql.replace("BEGIN", "BEGIN SELECT 1;", 1), trigger
        con.execute(sql)
        con.commit()
        con.close()
        r = run("restore", "--from", bad, "--replace", db=db)
        check(f"restore refuses a backup with {what}, naming it", r.returncode != 0 and named in r.stderr
              and "schema" in r.stderr, r.stderr)
        os.remove(bad)
    check("...and no refusal changed the database", every_row(db) == state)
    r = run("restore", "--from", backup, "--replace", db=db)
    check("a backup of exactly this version's schema is restored", r.returncode == 0, r.stderr)


def test_api_key_file(tmp):
    db = os.path.join(tmp, "apikey", "syndic.db")
    key = json.loads(run("init", "--name", "Syndicat", "--json", db=db).stdout)["apiKey"]
    key_file = os.path.join(tmp, "apikey", "key.txt")
    with open(key_file, "w") as f:
        f.write(f"  {key}  \nsecond line ignored\n")
    os.chmod(key_file, 0o600)
    answer, r = call_stdio(db, None, "list_units", {}, "--api-key-file", key_file)
    check("serve --api-key-file: the first line, trimmed, is the key", "result" in answer and not answer["result"].get("isError"),
          json.dumps(answer)[:300] + r.stderr[-300:])
    check("...with no warning", "warning" not in r.stderr, r.stderr)
    answer, r = call_stdio(db, None, "list_units", {}, "--api-key", key)
    check("--api-key still works", "result" in answer and not answer["result"].get("isError"), r.stderr)
    check("...with a warning that other local users see it, naming the better ways",
          "process list" in r.stderr and "SYNDIC_API_KEY" in r.stderr and "--api-key-file" in r.stderr, r.stderr)
    # Once parsed, the key leaves the arguments other local users read (issue 28, point 8).
    for form in (["--api-key", key], [f"--api-key={key}"]):
        proc = subprocess.Popen([BIN, "serve", "--db", db, *form], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=ENV, text=True)
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}) + "\n")
        proc.stdin.flush()
        proc.stdout.readline()  # answered: its arguments are parsed
        with open(f"/proc/{proc.pid}/cmdline", "rb") as f:
            shown = f.read()
        proc.stdin.close()
        proc.wait(timeout=30)
        check(f"serve {form[0].split('=')[0]}: /proc/PID/cmdline no longer shows the key", key.encode() not in shown,
              repr(shown[:200]))
    answer, r = call_stdio(db, key, "list_units", {})
    check("SYNDIC_API_KEY: the key, no warning", "result" in answer and "warning" not in r.stderr, r.stderr)
    os.chmod(key_file, 0o644)
    _, r = call_stdio(db, None, "list_units", {}, "--api-key-file", key_file)
    check("a key file readable by others is warned of, with the fix", f"chmod 600 {key_file}" in r.stderr, r.stderr)
    _, r = call_stdio(db, None, "list_units", {}, "--api-key-file", os.path.join(tmp, "none.txt"))
    check("a key file that cannot be read is refused", r.returncode != 0 and "none.txt" in r.stderr, r.stderr)
    _, r = call_stdio(db, None, "list_units", {}, "--api-key-file", key_file, "--api-key", key)
    check("--api-key and --api-key-file together are refused", r.returncode != 0 and "not both" in r.stderr, r.stderr)
    r = run("serve", "--help", db=db)
    check("serve --help offers --api-key-file and names SYNDIC_API_KEY",
          "--api-key-file" in r.stdout and "SYNDIC_API_KEY" in r.stdout, r.stdout)


def main():
    tmp = tempfile.mkdtemp(prefix="syndic-secrets-")
    try:
        for test in (test_modes, test_signing_key, test_newer_schema, test_restore_schema, test_api_key_file):
            try:
                test(tmp)
            except Exception as e:  # one part's failure does not hide the others'
                check(f"{test.__name__} ran to its end", False, repr(e))
    finally:
        for bridge in STARTED:
            bridge.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    checks.finish()


main()
