"""What the HTTP bridge's black-box runners (tests/http/run_http_*.py) share: the harness (a
Bridge process on 127.0.0.1 port 0 read from its "serving" line, fetch and raw exchanges, the
REST/JSON-RPC helpers and expectations) and main(), which makes a demo database with an admin, a
member and a read-only key, starts the main bridge, runs a runner's groups of checks, then stops
every server and checks that none wrote a secret key to stderr or anything to stdout.

A runner imports it with `from http_support import *` and calls main(groups). Python 3 standard
library only; timeouts only keep a broken server from hanging the run.
"""
import gzip
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402
checks.verbose = True  # one line per check

BIN = os.path.abspath(sys.argv[1])
REQUEST_TIMEOUT = 30   # seconds for one HTTP exchange
START_TIMEOUT = 20     # for the "serving" line
STOP_TIMEOUT = 10      # from a signal to the exit
SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
TOOLS = sorted(t["name"] for t in checks.catalogue(BIN))  # from the registry: tools --json
# Every REST route of the contract: (method, path template).
ROUTES = [tuple(t["route"].split(" ", 1)) for t in checks.catalogue(BIN)]

# ---------------------------------------------------------------------------------------------
# Harness

print_lock = threading.Lock()



def section(title):
    with print_lock:
        print(f"# {title}", flush=True)


class Response:
    def __init__(self, status, headers, body):
        self.status = status          # 0 when the exchange itself failed
        self.headers = headers        # lower-case names; repeated headers joined with ", "
        self.body = body
        self._json = ...

    def header(self, name, default=None):
        return self.headers.get(name.lower(), default)

    @property
    def json(self):
        if self._json is ...:
            try:
                self._json = json.loads(self.body)
            except (ValueError, UnicodeDecodeError):
                self._json = None
        return self._json

    @property
    def media_type(self):
        return (self.header("content-type") or "").split(";")[0].strip().lower()

    def __str__(self):
        if self.status == 0:
            return f"no answer ({self.body.decode(errors='replace')})"
        text = self.body[:400].decode("utf-8", "replace")
        interesting = {k: v for k, v in self.headers.items()
                       if k in ("content-type", "www-authenticate", "allow", "retry-after",
                                "access-control-allow-origin", "mcp-session-id")}
        return f"{self.status} {interesting} {text!r}"


def fetch(addr, method, path, body=None, headers=None, key=None, content_type="application/json"):
    """One request on a fresh connection. `body`: bytes/str sent as is, anything else as JSON."""
    hdrs = {}
    if key:
        hdrs["Authorization"] = f"Bearer {key}"
    if body is not None and not isinstance(body, (bytes, str)) and not hasattr(body, "__next__"):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode()
    if body is not None and content_type:
        hdrs["Content-Type"] = content_type
    hdrs.update(headers or {})
    conn = http.client.HTTPConnection(addr[0], addr[1], timeout=REQUEST_TIMEOUT)
    try:
        conn.request(method, path, body=body, headers=hdrs)
        r = conn.getresponse()
        data = r.read()
        merged = {}
        for k, v in r.getheaders():
            k = k.lower()
            merged[k] = f"{merged[k]}, {v}" if k in merged else v
        return Response(r.status, merged, data)
    except (OSError, http.client.HTTPException) as e:
        return Response(0, {}, repr(e).encode())
    finally:
        conn.close()


def raw_exchange(addr, data):
    """Sends `data` (a whole HTTP/1.1 request, as bytes) on a fresh connection; the Response."""
    sock = socket.create_connection(addr, timeout=REQUEST_TIMEOUT)
    try:
        sock.sendall(data)
        resp = http.client.HTTPResponse(sock)
        resp.begin()
        body = resp.read()
        return Response(resp.status, {k.lower(): v for k, v in resp.getheaders()}, body)
    except (OSError, http.client.HTTPException) as e:
        return Response(0, {}, repr(e).encode())
    finally:
        sock.close()


def error_of(r):
    """The REST error object, or {}."""
    j = r.json
    if isinstance(j, dict) and isinstance(j.get("error"), dict):
        return j["error"]
    return {}


def rpc_error(r):
    """The JSON-RPC error object of a single answer, or {}."""
    j = r.json
    if isinstance(j, dict) and isinstance(j.get("error"), dict):
        return j["error"]
    return {}


def result_of(r):
    """The JSON-RPC result of a single answer, or {}."""
    j = r.json
    if isinstance(j, dict) and isinstance(j.get("result"), dict):
        return j["result"]
    return {}


def expect(what, r, status, code=None):
    ok = r.status == status and (code is None or error_of(r).get("code") == code)
    check(what, ok, f"expected {status}{' ' + code if code else ''}, got {r}")
    return ok


def expect_rpc_error(what, r, status, message, rpc_code=-32000, id_=None):
    e = rpc_error(r)
    ok = (r.status == status and r.media_type == "application/json" and e.get("code") == rpc_code
          and e.get("message") == message and (id_ is None or r.json.get("id") == id_))
    check(what, ok, f"expected {status} with JSON-RPC error {rpc_code} {message}, got {r}")
    return ok


def rpc(method, params=None, id_=1):
    m = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        m["params"] = params
    return m


def tool(name, arguments, id_=1):
    return rpc("tools/call", {"name": name, "arguments": arguments}, id_)


def initialize(version="2025-11-25", id_=1):
    return rpc("initialize", {"protocolVersion": version, "capabilities": {},
                              "clientInfo": {"name": "run_http_tests", "version": "1.0"}}, id_)


def close(a, b):
    return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) < 1e-6


def iso_in(days):
    return (datetime.now(timezone.utc) + timedelta(days=days)).replace(microsecond=0).isoformat()


def clock_in(days, hours=0):
    """A faketime start "YYYY-MM-DD HH:MM:SS" (UTC) that far from now: a meeting's day."""
    return (datetime.now(timezone.utc) + timedelta(days=days, hours=hours)).strftime("%Y-%m-%d %H:%M:%S")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ENV = {k: v for k, v in os.environ.items() if k not in ("SYNDIC_API_KEY", "SYNDIC_DB", "SYNDIC_MODULES")}
ENV["SYNDIC_MODULES"] = "all"  # every module's routes (a server's --modules still overrides it)


def cli(*args, timeout=60, stdin=None):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout, env=ENV, input=stdin)


STARTED = []


def moved_clock_env(clock):
    """ENV for a process whose clock reads `clock` ("YYYY-MM-DD HH:MM:SS" UTC) at its start and
    runs on, as `faketime "<clock>"` would give it (the same library and offset form)."""
    at = datetime.strptime(clock, "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
    offset = round(at.timestamp() - time.time())
    return dict(ENV, LD_PRELOAD="/usr/$LIB/faketime/libfaketime.so.1", FAKETIME=f"{offset:+d}")


class Bridge:
    """One `syndic-mcp http` process; its stderr and stdout are collected line by line."""

    def __init__(self, label, db, *options, listen="127.0.0.1:0", connect_port=None, clock=None):
        self.label = label
        self.lines, self.out = [], []
        self.cond = threading.Condition()
        self.open_streams = 2
        # `clock`: the bridge's clock starts then ("YYYY-MM-DD HH:MM:SS" UTC) and runs on: Debian's
        # libfaketime preloaded into the bridge itself, as the faketime command does. Not through
        # that command: it forks the server and waits, so a signal meant for the server stops
        # faketime and leaves the server running, its port open, after the test.
        self.proc = subprocess.Popen([BIN, "http", "--db", db, "--listen", listen, *options],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=moved_clock_env(clock) if clock else ENV)
        STARTED.append(self)
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.lines), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.out), daemon=True).start()
        m = self.wait_for(r"serving (http\S+)", START_TIMEOUT)
        self.base = m.group(1) if m else None
        self.addr = self.prefix = self.hostport = None
        if self.base:
            u = urllib.parse.urlsplit(self.base)
            self.prefix = u.path.rstrip("/")
            self.hostport = u.netloc
            self.port = connect_port or u.port
            self.addr = ("127.0.0.1", self.port)

    def _pump(self, stream, sink):
        for raw in stream:
            with self.cond:
                sink.append(raw.decode("utf-8", "replace").rstrip("\r\n"))
                self.cond.notify_all()
        with self.cond:
            self.open_streams -= 1
            self.cond.notify_all()

    def wait_for(self, pattern, timeout, start=0):
        """The first match of `pattern` in stderr lines from index `start`, waiting up to `timeout`."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for line in self.lines[start:]:
                    m = re.search(pattern, line)
                    if m:
                        return m
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.open_streams == 0:
                    return None
                self.cond.wait(min(remaining, 0.2))

    def mark(self):
        with self.cond:
            return len(self.lines)

    def stderr_text(self):
        with self.cond:
            return "\n".join(self.lines)

    def stdout_text(self):
        with self.cond:
            return "\n".join(self.out)

    def rest(self, method, route, body=None, key=None, headers=None, **kw):
        return fetch(self.addr, method, self.prefix + route, body, headers, key, **kw)

    def mcp(self, message, key=None, headers=None, **kw):
        hdrs = {"Accept": "application/json, text/event-stream"}
        hdrs.update(headers or {})
        return fetch(self.addr, "POST", self.prefix + "/mcp", message, hdrs, key, **kw)

    def stop(self, sig=signal.SIGTERM):
        """Sends `sig` and waits for the exit; its status, or None when it did not exit in time."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def start(label, db, *options, **kw):
    b = Bridge(label, db, *options, **kw)
    ok = check(f"{label}: starts and prints 'serving <base url>' on stderr", b.base is not None,
               f"status {b.proc.poll()}, stderr: {b.stderr_text()[-800:]!r}")
    return b if ok else None


def all_co_owners(server, key, search):
    """The ids of every co-owner (archived too) matching `search`, over all pages; None on error."""
    ids, page = [], 1
    while True:
        r = server.rest("GET", f"/co-owners?search={urllib.parse.quote(search)}&pageSize=200"
                               f"&page={page}&includeArchived=true", key=key)
        if r.status != 200:
            print(f"     (listing {search!r} page {page}: {r})", flush=True)
            return None
        ids += [c["id"] for c in r.json["data"]]
        if page * 200 >= r.json["pagination"]["total"]:
            return ids
        page += 1


def run(test, *args):
    """Runs one group of checks; an answer of an unexpected shape fails that group, not the run."""
    try:
        return test(*args)
    except Exception as e:
        import traceback
        traceback.print_exc()
        check(f"{test.__name__} ran to its end", False, repr(e))
        return None


def demo_facts(s, key):
    units = s.rest("GET", "/units?pageSize=200", key=key)
    people = s.rest("GET", "/co-owners?pageSize=200", key=key)
    meetings = s.rest("GET", "/meetings", key=key)
    if not (units.status == people.status == meetings.status == 200):
        raise RuntimeError(f"cannot read the demo through REST: {units} / {people} / {meetings}")
    return {"units": {u["number"]: u for u in units.json["data"]},
            "parking": [u for u in units.json["data"] if u["type"] == "parking"],
            "co_owners": people.json["data"],
            "meeting": meetings.json["data"][0]}



def _main(groups, before):
    tmp = tempfile.mkdtemp(prefix="syndic-http-")
    db = os.path.join(tmp, "syndic.db")
    servers = []
    try:
        if before:
            before(tmp, db)
        r = cli("demo", "--json", "--db", db)
        if not check("demo --json makes the database", r.returncode == 0, r.stderr):
            return
        k = {"db": db, "admin": json.loads(r.stdout)["apiKey"]}
        keys = json.loads(cli("keys", "list", "--json", "--db", db).stdout)
        k["admin_id"] = next(x["apiKeyId"] for x in keys if k["admin"].startswith(x["prefix"]))
        member = json.loads(cli("keys", "create", "--db", db, "--role", "member", "--name", "member", "--json").stdout)
        k["member"], k["member_id"] = member["apiKey"], member["apiKeyId"]
        reader = json.loads(cli("keys", "create", "--db", db, "--role", "member", "--scopes", "read:co-owners",
                                "--name", "reader", "--json").stdout)
        k["reader"] = reader["apiKey"]

        section("main bridge")
        s = start("bridge on 127.0.0.1 port 0", db)
        if not s:
            return
        servers.append(s)
        check("...base URL http://127.0.0.1:<actual port>/api",
              re.fullmatch(r"http://127\.0\.0\.1:(\d+)/api", s.base or "") is not None and s.port != 0, s.base)
        demo = demo_facts(s, k["admin"])
        check("the demo: 12 units, 8 co-owners, a draft meeting",
              len(demo["units"]) == 12 and len(demo["co_owners"]) == 8 and demo["meeting"]["status"] == "draft")

        servers += [x for x in (groups(s, k, demo, tmp, db) or []) if x]

        section("the end")
        for b in [x for x in servers if x]:
            code = b.stop()
            check(f"{b.label}: SIGTERM, exit status 0", code == 0, f"status {code}")
        secrets = [k["admin"], k["member"], k["reader"]]
        for b in STARTED:
            text = b.stderr_text()
            check(f"{b.label}: no secret key (sk_...) on stderr", "sk_" not in text and not any(x in text for x in secrets),
                  next((line for line in b.lines if "sk_" in line), ""))
            check(f"{b.label}: nothing on stdout", b.stdout_text() == "", b.stdout_text()[:300])
    except Exception as e:  # a broken answer must not hide the summary
        import traceback
        traceback.print_exc()
        check("the run completed", False, repr(e))
    finally:
        for b in STARTED:
            b.kill()
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


def main(groups, before=None):
    """Runs before(tmp, db) (before the demo exists), then groups(s, k, demo, tmp, db) on the main
    bridge (it returns the other servers it left running); then "N passed, M failed" and the exit."""
    _main(groups, before)
    checks.finish()
