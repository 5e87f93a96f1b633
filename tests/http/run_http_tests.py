#!/usr/bin/env python3
"""The HTTP bridge (`syndic-mcp http`) as a black box, through real HTTP on 127.0.0.1.

usage: run_http_tests.py SYNDIC_MCP

Makes a demo database in a temporary directory, starts the bridge on port 0 and reads its base URL
from stderr ("serving http://..."), then checks: every REST route with its real effect read back
by a later GET; each status code of the contract (400, 401, 403, 404, 405, 409, 413, 415, 422,
429); the MCP endpoint (initialize, ping, notifications, tools/list, tools/call, batches, parse
errors, protocol-version and Accept headers, GET); Origin and Host checks and CORS preflights;
rate limiting on a second server; a third server with its own base URL and allow lists; the access
log and that no secret key reaches stderr; parallel writers; a stdio server writing the same file
as HTTP clients; and graceful shutdown on SIGTERM and SIGINT. One line per check, then
"N passed, M failed"; exits non-zero on any failure.

Python 3 standard library only. Nothing here measures speed: timeouts only keep a broken server
from hanging the run.
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
TOOLS = sorted(t["name"] for t in checks.catalogue())
# Every REST route of the contract: (method, path template).
ROUTES = [tuple(t["route"].split(" ", 1)) for t in checks.catalogue()]

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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ENV = {k: v for k, v in os.environ.items() if k not in ("SYNDIC_API_KEY", "SYNDIC_DB", "SYNDIC_MODULES")}


def cli(*args, timeout=60, stdin=None):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout, env=ENV, input=stdin)


STARTED = []


class Bridge:
    """One `syndic-mcp http` process; its stderr and stdout are collected line by line."""

    def __init__(self, label, db, *options, listen="127.0.0.1:0", connect_port=None):
        self.label = label
        self.lines, self.out = [], []
        self.cond = threading.Condition()
        self.open_streams = 2
        self.proc = subprocess.Popen([BIN, "http", "--db", db, "--listen", listen, *options],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=ENV)
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


# ---------------------------------------------------------------------------------------------
# The command line


def test_command_line(tmp, db):
    section("command line")
    r = cli("http", "--help")
    options = ("--listen", "--base-url", "--allow-origin", "--allow-host", "--rate-limit", "--workers")
    check("http --help lists its options", r.returncode == 0 and all(o in r.stdout for o in options),
          f"status {r.returncode}, missing {[o for o in options if o not in r.stdout]}")

    missing = os.path.join(tmp, "nowhere", "missing.db")
    p = subprocess.Popen([BIN, "http", "--db", missing, "--listen", "127.0.0.1:0"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        out, err = p.communicate(timeout=STOP_TIMEOUT)
        check("a missing database: exit status 1 with a message", p.returncode == 1 and err.strip() != "",
              f"status {p.returncode}, stderr {err!r}")
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        check("a missing database: exit status 1 with a message", False, "it kept running (was it serving?)")
    check("...and no database is created", not os.path.exists(missing))

    p = subprocess.Popen([BIN, "http", "--db", db, "--listen", "127.0.0.1:0", "--rate-limit", "lots"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        p.communicate(timeout=STOP_TIMEOUT)
        check("--rate-limit lots is refused", p.returncode not in (0, None), f"status {p.returncode}")
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        check("--rate-limit lots is refused", False, "it started anyway")


# ---------------------------------------------------------------------------------------------
# MCP endpoint


def test_mcp(s, k):
    section("MCP endpoint (POST <base>/mcp)")
    r = s.mcp(initialize())
    res = result_of(r)
    check("initialize without credentials: 200 application/json",
          r.status == 200 and r.media_type == "application/json", str(r))
    check("...protocolVersion 2025-11-25, tools capability, serverInfo",
          res.get("protocolVersion") == "2025-11-25" and "tools" in res.get("capabilities", {})
          and bool(res.get("serverInfo", {}).get("name")), str(r))
    check("...stateless: no Mcp-Session-Id header", r.header("mcp-session-id") is None, str(r))
    r = s.mcp(initialize("2024-11-05"))
    check("initialize 2024-11-05 is answered with 2024-11-05",
          r.status == 200 and result_of(r).get("protocolVersion") == "2024-11-05", str(r))
    r = s.mcp(initialize("2099-01-01"))
    check("initialize with an unknown version: the server offers one it supports",
          r.status == 200 and result_of(r).get("protocolVersion") in SUPPORTED_VERSIONS, str(r))

    r = s.mcp({"jsonrpc": "2.0", "method": "notifications/initialized"})
    check("a notification: 202 with an empty body", r.status == 202 and r.body == b"", str(r))
    r = s.mcp({"jsonrpc": "2.0", "id": 99, "result": {}})
    check("a JSON-RPC response from the client: 202 with an empty body", r.status == 202 and r.body == b"", str(r))
    r = s.mcp(rpc("ping", id_=42))
    check("ping: 200, empty result, id echoed",
          r.status == 200 and isinstance(r.json, dict) and r.json.get("result") == {} and r.json.get("id") == 42, str(r))
    r = s.mcp(rpc("ping", id_="p-1"), headers={"MCP-Protocol-Version": "2025-06-18"})
    check("MCP-Protocol-Version 2025-06-18 is accepted", r.status == 200 and isinstance(r.json, dict) and r.json.get("id") == "p-1", str(r))
    r = s.mcp(rpc("ping"), headers={"MCP-Protocol-Version": "1999-01-01"})
    check("MCP-Protocol-Version 1999-01-01: 400", r.status == 400, str(r))

    r = s.mcp(rpc("tools/list", id_=2))
    tools = result_of(r).get("tools", []) if r.status == 200 else []
    names = sorted(t.get("name") for t in tools)
    check("tools/list without credentials: every tool of tests/catalogue.json with its schema",
          names == TOOLS and all("inputSchema" in t for t in tools), f"{r.status} {names}")

    r = s.mcp(tool("list_units", {"type": "parking"}, id_=3), key=k["admin"])
    ok = r.status == 200 and r.media_type == "application/json" and "result" in r.json
    check("tools/call list_units: 200 with a result", ok, str(r))
    if ok:
        res = r.json["result"]
        content = res.get("content", [{}])[0]
        check("...content[0].text is the JSON of structuredContent",
              content.get("type") == "text" and json.loads(content.get("text", "null")) == res.get("structuredContent"), str(r))
        check("...the 4 parking units of the demo", res["structuredContent"]["pagination"]["total"] == 4, str(r))

    r = s.mcp(tool("list_units", {}, id_=7))
    expect_rpc_error("tools/call without Authorization: 401 NOT_AUTHENTICATED, id echoed", r, 401, "NOT_AUTHENTICATED", id_=7)
    check("...WWW-Authenticate: Bearer realm=\"syndic-mcp\"",
          (r.header("www-authenticate") or "").startswith('Bearer realm="syndic-mcp"'), str(r))
    bogus = "sk_" + "Z" * 43
    r = s.mcp(tool("list_units", {}, id_=8), key=bogus)
    check("tools/call with an unknown key: 401, error=\"invalid_token\"",
          r.status == 401 and 'error="invalid_token"' in (r.header("www-authenticate") or "")
          and rpc_error(r).get("code") == -32000, str(r))
    r = s.mcp(initialize(id_=9), key=bogus)
    check("initialize with an unknown key: 401 as well", r.status == 401, str(r))
    r = s.mcp(tool("list_units", {}), headers={"Authorization": "Basic dXNlcjpwYXNz"})
    check("tools/call with Basic credentials: 401", r.status == 401, str(r))

    r = s.mcp(tool("create_unit", {"number": "X-1", "type": "storage"}, id_=10), key=k["reader"])
    expect_rpc_error("tools/call lacking the scope: 403 INSUFFICIENT_SCOPE", r, 403, "INSUFFICIENT_SCOPE", id_=10)
    www = r.header("www-authenticate") or ""
    check("...WWW-Authenticate names insufficient_scope and write:co-owners",
          www.startswith("Bearer") and 'error="insufficient_scope"' in www and 'scope="write:co-owners"' in www, www)

    r = s.mcp(tool("delete_co_owner", {"id": "someone"}, id_=16), key=k["member"])
    check("tools/call delete_co_owner by a member: JSON-RPC error ADMIN_REQUIRED (status 200 or 403)",
          r.status in (200, 403) and rpc_error(r).get("message") == "ADMIN_REQUIRED" and r.json.get("id") == 16, str(r))
    r = s.mcp(tool("get_unit", {"id": "no-such-unit"}, id_=11), key=k["admin"])
    expect_rpc_error("tools/call failing (UNIT_NOT_FOUND): 200 with a JSON-RPC error", r, 200, "UNIT_NOT_FOUND", id_=11)
    check("...with data.detail", isinstance(rpc_error(r).get("data", {}).get("detail"), str), str(r))
    r = s.mcp(tool("create_unit", {"type": "storage"}, id_=12), key=k["admin"])
    expect_rpc_error("tools/call with a missing argument: 200 VALIDATION_FAILED", r, 200, "VALIDATION_FAILED", id_=12)
    r = s.mcp(tool("launch_rocket", {}, id_=13), key=k["admin"])
    check("tools/call of an unknown tool: 200, JSON-RPC -32602",
          r.status == 200 and rpc_error(r).get("code") == -32602, str(r))
    r = s.mcp(rpc("server/discover", {}, id_=14))
    check("an unknown method: 200, JSON-RPC -32601", r.status == 200 and rpc_error(r).get("code") == -32601, str(r))

    when = iso_in(60)
    r = s.mcp(tool("create_meeting", {"title": "Réunion du conseil (MCP)", "type": "board",
                                      "scheduledAt": when, "location": "Salle 2"}, id_=15), key=k["admin"])
    created = result_of(r).get("structuredContent", {}) if r.status == 200 else {}
    check("tools/call create_meeting over MCP", bool(created.get("id")), str(r))
    if created.get("id"):
        g = s.rest("GET", f"/meetings/{created['id']}", key=k["admin"])
        check("...the REST route reads the meeting it created",
              g.status == 200 and g.json.get("title") == "Réunion du conseil (MCP)", str(g))

    r = s.mcp([rpc("ping", id_=1), rpc("tools/list", id_=2), {"jsonrpc": "2.0", "method": "notifications/initialized"}])
    ok = r.status == 200 and isinstance(r.json, list)
    check("a batch (ping, tools/list, notification): 200 with two answers",
          ok and sorted(a.get("id") for a in r.json) == [1, 2] and all("result" in a for a in r.json), str(r))
    r = s.mcp([tool("list_units", {}, id_="a"), tool("get_unit", {"id": "nope"}, id_="b")], key=k["admin"])
    answers = {a.get("id"): a for a in r.json} if r.status == 200 and isinstance(r.json, list) else {}
    check("a batch of two tool calls: one result, one UNIT_NOT_FOUND",
          "result" in answers.get("a", {}) and answers.get("b", {}).get("error", {}).get("message") == "UNIT_NOT_FOUND", str(r))
    r = s.mcp([{"jsonrpc": "2.0", "method": "notifications/initialized"},
               {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}}])
    check("a batch of notifications only: 202, empty body", r.status == 202 and r.body == b"", str(r))

    r = s.mcp("{not json")
    e = rpc_error(r)
    check("invalid JSON: 400, JSON-RPC -32700 with id null",
          r.status == 400 and e.get("code") == -32700 and "id" in r.json and r.json["id"] is None, str(r))
    r = s.mcp(json.dumps(rpc("ping")), content_type="text/plain")
    check("Content-Type text/plain: 415", r.status == 415, str(r))
    r = s.mcp(rpc("ping"), headers={"Accept": "text/html"})
    check("Accept: text/html: 406", r.status == 406, str(r))
    r = s.mcp(rpc("ping"), headers={"Accept": "*/*"})
    check("Accept: */*: 200", r.status == 200, str(r))
    r = s.mcp(rpc("ping"), headers={"Accept": "application/json"})
    check("Accept: application/json: 200", r.status == 200, str(r))
    for method in ("GET", "PUT", "DELETE"):
        r = fetch(s.addr, method, s.prefix + "/mcp", key=k["admin"], headers={"Accept": "application/json, text/event-stream"})
        check(f"{method} /mcp: 405 with Allow: POST",
              r.status == 405 and "POST" in (r.header("allow") or ""), str(r))


# ---------------------------------------------------------------------------------------------
# Origin, Host, CORS


def test_origin_host(s, k):
    section("Origin and Host (DNS rebinding), CORS")
    port = s.port
    evil = "http://evil.example.com"
    r = s.mcp(initialize(), headers={"Origin": evil})
    check("MCP from Origin http://evil.example.com: 403", r.status == 403, str(r))
    r = s.rest("GET", "/units", key=k["admin"], headers={"Origin": evil})
    expect("REST from a foreign Origin: 403 ORIGIN_NOT_ALLOWED", r, 403, "ORIGIN_NOT_ALLOWED")
    other = port + 1 if port < 65535 else port - 1
    for origin in (f"http://localhost:{other}", "null", f"http://localhost.evil.example.com:{port}"):
        r = s.rest("GET", "/units", key=k["admin"], headers={"Origin": origin})
        expect(f"Origin {origin}: 403 ORIGIN_NOT_ALLOWED", r, 403, "ORIGIN_NOT_ALLOWED")
    for origin in (f"http://localhost:{port}", f"http://127.0.0.1:{port}", f"http://[::1]:{port}"):
        r = s.rest("GET", "/units", key=k["admin"], headers={"Origin": origin})
        check(f"Origin {origin}: 200 with Access-Control-Allow-Origin",
              r.status == 200 and r.header("access-control-allow-origin") == origin, str(r))
    r = s.mcp(rpc("ping"), headers={"Origin": f"http://localhost:{port}"})
    check("MCP from the loopback origin: 200 with Access-Control-Allow-Origin",
          r.status == 200 and r.header("access-control-allow-origin") == f"http://localhost:{port}", str(r))

    for host in ("evil.example.com", f"evil.example.com:{port}", f"localhost.evil.example.com:{port}"):
        r = s.rest("GET", "/units", key=k["admin"], headers={"Host": host})
        expect(f"Host {host}: 403 HOST_NOT_ALLOWED", r, 403, "HOST_NOT_ALLOWED")
    r = s.mcp(initialize(), headers={"Host": "evil.example.com"})
    check("MCP with Host evil.example.com: 403", r.status == 403, str(r))
    r = s.mcp(initialize(), headers={"Host": "evil.example.com", "Origin": evil})
    check("MCP with Host and Origin evil.example.com (a rebinding attack): 403", r.status == 403, str(r))
    for host in ("localhost", f"localhost:{port}", "127.0.0.1", f"127.0.0.1:{port}", f"[::1]:{port}", "[::1]"):
        r = s.rest("GET", "/units", key=k["admin"], headers={"Host": host})
        expect(f"Host {host}: 200", r, 200)

    origin = f"http://localhost:{port}"
    r = fetch(s.addr, "OPTIONS", s.prefix + "/units", headers={
        "Origin": origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type"})
    methods = (r.header("access-control-allow-methods") or "").upper()
    allowed = (r.header("access-control-allow-headers") or "").lower()
    check("CORS preflight of POST /units from the loopback origin: 204 without credentials", r.status == 204, str(r))
    check("...Access-Control-Allow-Origin/-Methods/-Headers",
          r.header("access-control-allow-origin") == origin and "POST" in methods
          and "authorization" in allowed and "content-type" in allowed, str(r))
    r = fetch(s.addr, "OPTIONS", s.prefix + "/mcp", headers={
        "Origin": origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, authorization, mcp-protocol-version"})
    allowed = (r.header("access-control-allow-headers") or "").lower()
    check("CORS preflight of POST /mcp: 204, allows the MCP headers",
          r.status == 204 and r.header("access-control-allow-origin") == origin
          and all(h in allowed for h in ("content-type", "authorization", "mcp-protocol-version")), str(r))
    r = fetch(s.addr, "OPTIONS", s.prefix + "/units", headers={
        "Origin": evil, "Access-Control-Request-Method": "POST"})
    check("CORS preflight from a foreign origin: 403, no Access-Control-Allow-Origin",
          r.status == 403 and r.header("access-control-allow-origin") is None, str(r))


# ---------------------------------------------------------------------------------------------
# REST routes


def test_openapi(s):
    section("OpenAPI document")
    r = fetch(s.addr, "GET", s.prefix + "/openapi.json")
    doc = r.json if r.status == 200 and isinstance(r.json, dict) else {}
    check("GET /openapi.json without credentials: 200 application/json, OpenAPI 3.1",
          r.media_type == "application/json" and str(doc.get("openapi", "")).startswith("3.1"), str(r))
    paths = doc.get("paths", {})
    missing = []
    for method, template in ROUTES:
        found = [p for p in paths if p == template or p.endswith(template)]
        if not any(method.lower() in paths[p] for p in found):
            missing.append(f"{method} {template}")
    check("...documents every REST route", doc and not missing, f"missing {missing}")


def test_co_owners(s, k, demo):
    section("REST: co-owners")
    a = k["admin"]
    r = s.rest("GET", "/co-owners", key=a)
    ok = expect("GET /co-owners: 200", r, 200)
    check("...application/json, the 8 co-owners of the demo in a page",
          ok and r.media_type == "application/json" and r.json["pagination"]["total"] == 8 and len(r.json["data"]) == 8, str(r))
    r = s.rest("GET", "/co-owners?search=" + urllib.parse.quote("côté"), key=a)
    check("GET /co-owners?search=côté (percent-encoded UTF-8): the two Côté",
          r.status == 200 and sorted(c["lastName"] for c in r.json["data"]) == ["Côté", "Côté"], str(r))
    r = s.rest("GET", "/co-owners?pageSize=3&page=2", key=a)
    check("GET /co-owners?pageSize=3&page=2: integers from the query string",
          r.status == 200 and r.json["pagination"] == {"page": 2, "pageSize": 3, "total": 8} and len(r.json["data"]) == 3, str(r))
    r = s.rest("GET", "/co-owners?hasPortalAccess=true", key=a)
    check("GET /co-owners?hasPortalAccess=true: a boolean from the query string",
          r.status == 200 and r.json["data"] and all(c["hasPortalAccess"] is True for c in r.json["data"])
          and r.json["pagination"]["total"] < 8, str(r))
    r = s.rest("GET", "/co-owners?pageSize=many", key=a)
    expect("GET /co-owners?pageSize=many: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    r = s.rest("GET", "/co-owners?hasPortalAccess=yes", key=a)
    expect("GET /co-owners?hasPortalAccess=yes: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    r = s.rest("GET", "/co-owners?colour=blue", key=a)
    expect("GET /co-owners?colour=blue (unknown argument): 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")

    unit = demo["units"]["102"]
    body = {"firstName": "Roxanne", "lastName": "Théberge", "email": "roxanne.theberge@example.ca",
            "unitId": unit["id"], "fractionPercent": 2.5, "language": "fr"}
    r = s.rest("POST", "/co-owners", body, key=a)
    expect("POST /co-owners beyond what the unit's co-owners may hold: 422 CO_OWNER_FRACTION_EXCEEDS_UNIT", r, 422,
           "CO_OWNER_FRACTION_EXCEEDS_UNIT")
    isabelle = next(c for c in demo["co_owners"] if c["unitNumber"] == "102" and not c["isPrimary"])
    r = s.rest("PATCH", f"/co-owners/{isabelle['id']}", {"fractionPercent": isabelle["fractionPercent"] - 2.5}, key=a)
    expect("PATCH a co-owner of 102 down by 2.5, leaving room in the unit: 200", r, 200)
    r = s.rest("POST", "/co-owners", body, key=a)
    ok = expect("POST /co-owners: 201", r, 201)
    cid = r.json.get("id") if ok else None
    check("...the created co-owner", ok and bool(cid) and r.json.get("lastName") == "Théberge"
          and r.json.get("unitNumber") == "102", str(r))
    if not cid:
        return
    r = s.rest("GET", f"/co-owners/{cid}", key=a)
    check("GET /co-owners/{id}: 200, the record as created",
          r.status == 200 and r.json.get("email") == body["email"] and close(r.json.get("fractionPercent"), 2.5), str(r))
    r = s.rest("POST", "/co-owners", dict(body, firstName="Roxanne-bis", fractionPercent=0),
               key=a, content_type="application/json; charset=utf-8")
    expect("POST with Content-Type application/json; charset=utf-8: 201", r, 201)

    r = s.rest("PATCH", f"/co-owners/{cid}", {"phone": "+15145550999", "hasPortalAccess": True}, key=a)
    expect("PATCH /co-owners/{id}: 200", r, 200)
    r = s.rest("GET", f"/co-owners/{cid}", key=a)
    check("...a later GET shows the change",
          r.status == 200 and r.json.get("phone") == "+15145550999" and r.json.get("hasPortalAccess") is True, str(r))
    r = s.rest("PATCH", f"/co-owners/{cid}", {"id": "another-id", "phone": "+15145550000"}, key=a)
    expect("PATCH with a body id that contradicts the path: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    r = s.rest("PATCH", f"/co-owners/{cid}", {"id": cid, "isResident": True}, key=a)
    expect("PATCH with a body id equal to the path: 200", r, 200)
    r = s.rest("PATCH", f"/co-owners/{cid}?phone=%2B15145550000", {}, key=a)
    expect("PATCH with a query string: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    r = s.rest("GET", f"/co-owners/{cid}", key=a)
    check("...and nothing changed", r.status == 200 and r.json.get("phone") == "+15145550999", str(r))

    r = s.rest("DELETE", f"/co-owners/{cid}", key=k["member"])
    expect("DELETE /co-owners/{id} by a member: 403 ADMIN_REQUIRED", r, 403, "ADMIN_REQUIRED")
    r = s.rest("DELETE", f"/co-owners/{cid}", key=a)
    ok = expect("DELETE /co-owners/{id} by an admin: 200", r, 200)
    check("...archived, portal access revoked",
          ok and r.json.get("coOwner", {}).get("deletedAt") and r.json.get("portalAccessRevoked") is True, str(r))
    r = s.rest("GET", "/co-owners?search=" + urllib.parse.quote("Théberge"), key=a)
    check("...no longer listed", r.status == 200 and cid not in [c["id"] for c in r.json["data"]], str(r))
    r = s.rest("GET", f"/co-owners/{cid}", key=a)
    check("...GET /co-owners/{id} shows deletedAt", r.status == 200 and r.json.get("deletedAt"), str(r))
    r = s.rest("POST", f"/co-owners/{cid}/restore", key=a)
    expect("POST /co-owners/{id}/restore with an empty body and no Content-Type: 200", r, 200)
    r = s.rest("GET", f"/co-owners/{cid}", key=a)
    check("...a later GET shows it active", r.status == 200 and r.json.get("deletedAt") is None, str(r))
    r = s.rest("POST", f"/co-owners/{cid}/restore", {}, key=a)
    expect("restoring an active co-owner: 409 NOT_ARCHIVED", r, 409, "NOT_ARCHIVED")

    rows = [{"firstName": "Anne", "lastName": "Lot-Import", "unitId": demo["units"]["202"]["id"]},
            {"firstName": "Marc", "lastName": "Lot-Import", "unitId": demo["units"]["202"]["id"], "email": "pas-un-courriel"},
            {"firstName": "Lise", "lastName": "Lot-Import", "unitId": demo["units"]["302"]["id"]}]
    r = s.rest("POST", "/co-owners/bulk", {"coOwners": rows}, key=a)
    ok = expect("POST /co-owners/bulk: 200", r, 200)
    created = [c["id"] for c in r.json.get("created", [])] if ok else []
    check("...two created, the bad e-mail in errors",
          ok and r.json.get("createdCount") == 2 and [e.get("index") for e in r.json.get("errors", [])] == [1]
          and r.json["errors"][0].get("code") == "INVALID_EMAIL", str(r))
    r = s.rest("GET", "/co-owners?search=Lot-Import", key=a)
    check("...a later GET lists exactly those two",
          r.status == 200 and sorted(c["id"] for c in r.json["data"]) == sorted(created) and len(created) == 2, str(r))

    # Refusals.
    r = s.rest("POST", "/co-owners", dict(body, email="roxanne@"), key=a)
    expect("POST /co-owners with a bad e-mail: 400 INVALID_EMAIL", r, 400, "INVALID_EMAIL")
    check("...the error has a message and names the field",
          isinstance(error_of(r).get("message"), str) and "email" in str(error_of(r).get("field", "")), str(r))
    r = s.rest("POST", "/co-owners", dict(body, fractionPercent=150), key=a)
    expect("POST /co-owners with fractionPercent 150: 400 FRACTION_OUT_OF_RANGE", r, 400, "FRACTION_OUT_OF_RANGE")
    r = s.rest("POST", "/co-owners", {"lastName": "Sans-Prénom", "unitId": unit["id"]}, key=a)
    ok = expect("POST /co-owners without firstName: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    check("...with errors listing the field", ok and isinstance(error_of(r).get("errors"), list) and error_of(r)["errors"], str(r))
    r = s.rest("POST", "/co-owners", dict(body, unitId="no-such-unit"), key=a)
    expect("POST /co-owners in an unknown unit: 404 UNIT_NOT_FOUND", r, 404, "UNIT_NOT_FOUND")
    primary_unit = next(c["unitId"] for c in demo["co_owners"] if c["isPrimary"])
    r = s.rest("POST", "/co-owners", dict(body, firstName="Deuxième", unitId=primary_unit, isPrimary=True), key=a)
    expect("a second primary co-owner for a unit: 409 DUPLICATE_PRIMARY", r, 409, "DUPLICATE_PRIMARY")
    r = s.rest("GET", "/co-owners/no-such-co-owner", key=a)
    expect("GET /co-owners/{unknown}: 404 CO_OWNER_NOT_FOUND", r, 404, "CO_OWNER_NOT_FOUND")
    r = s.rest("POST", "/co-owners", "{\"firstName\": ", key=a)
    expect("POST /co-owners with broken JSON: 400 INVALID_JSON", r, 400, "INVALID_JSON")
    r = s.rest("POST", "/co-owners", [body], key=a)
    check("POST /co-owners with a JSON array body: 400", r.status == 400 and error_of(r).get("code"), str(r))
    r = s.rest("POST", "/co-owners", json.dumps(body), key=a, content_type="text/plain")
    expect("POST /co-owners as text/plain: 415 UNSUPPORTED_MEDIA_TYPE", r, 415, "UNSUPPORTED_MEDIA_TYPE")
    before = s.rest("GET", "/co-owners?search=Intrus", key=a)
    r = s.rest("POST", "/co-owners?unitId=" + unit["id"], {"firstName": "Paul", "lastName": "Intrus", "unitId": unit["id"]}, key=a)
    expect("POST /co-owners with a query string: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    after = s.rest("GET", "/co-owners?search=Intrus", key=a)
    check("...and nothing was created", before.status == after.status == 200
          and after.json["pagination"]["total"] == before.json["pagination"]["total"] == 0, str(after))
    def chunks():
        yield b'{"firstName": "Chantal", '
        yield ('"lastName": "Par-Morceaux", "unitId": "' + unit["id"] + '"}').encode()
    r = fetch(s.addr, "POST", s.prefix + "/co-owners", chunks(), None, a)  # http.client sends it chunked
    ok = expect("POST /co-owners with a chunked body (Transfer-Encoding: chunked): 201", r, 201)
    check("...read whole", ok and r.json.get("lastName") == "Par-Morceaux", str(r))
    r = s.rest("GET", f"/co-owners?unitId={demo['units']['301']['id']}", key=a)
    check("GET /co-owners?unitId=<unit 301>: a string filter from the query string",
          r.status == 200 and r.json["data"] and all(c["unitNumber"] == "301" for c in r.json["data"]), str(r))

    r = s.rest("POST", "/co-owners/bulk", {"coOwners": [{"firstName": f"P{i}", "lastName": "Trop", "unitId": unit["id"]}
                                                        for i in range(501)]}, key=a)
    expect("POST /co-owners/bulk with 501 rows: 422 BULK_LIMIT_EXCEEDED", r, 422, "BULK_LIMIT_EXCEEDED")
    r = s.rest("GET", "/co-owners?search=Trop", key=a)
    check("...and nothing was created", r.status == 200 and r.json["pagination"]["total"] == 0, str(r))


def test_units(s, k, demo):
    section("REST: units and the declaration")
    a = k["admin"]
    r = s.rest("GET", "/units", key=a)
    check("GET /units: 200, the 12 units of the demo", r.status == 200 and r.json["pagination"]["total"] == 12, str(r))
    r = s.rest("GET", "/units?type=parking&includeLinked=true", key=a)
    check("GET /units?type=parking&includeLinked=true: 4 parking units with their links",
          r.status == 200 and len(r.json["data"]) == 4 and all(u["type"] == "parking" for u in r.json["data"])
          and any(u.get("linked") for u in r.json["data"]), str(r))
    r = s.rest("GET", "/units?floor=1", key=a)
    check("GET /units?floor=1: an integer filter",
          r.status == 200 and r.json["data"] and all(u["floor"] == 1 for u in r.json["data"]), str(r))
    r = s.rest("GET", "/units?floor=first", key=a)
    expect("GET /units?floor=first: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")

    r = s.rest("POST", "/units", {"number": "R-9", "type": "storage", "floor": -1, "areaSqFt": 40}, key=a)
    ok = expect("POST /units: 201", r, 201)
    uid = r.json.get("id") if ok else None
    if uid:
        r = s.rest("GET", f"/units/{uid}", key=a)
        check("GET /units/{id}: the new unit", r.status == 200 and r.json.get("number") == "R-9"
              and r.json.get("floor") == -1 and close(r.json.get("fractionPercent"), 0), str(r))
        r = s.rest("GET", f"/units/{uid}?includeLinked=true", key=a)
        expect("GET /units/{id}?includeLinked=true: 200", r, 200)
        r = s.rest("PATCH", f"/units/{uid}", {"cadastralLot": "6123499", "floor": -2}, key=a)
        expect("PATCH /units/{id}: 200", r, 200)
        r = s.rest("GET", f"/units/{uid}", key=a)
        check("...a later GET shows the change", r.status == 200 and r.json.get("cadastralLot") == "6123499"
              and r.json.get("floor") == -2, str(r))
        r = s.rest("POST", "/units", {"number": "r-9", "type": "storage"}, key=a)
        expect("POST /units with a number in use: 409 DUPLICATE_UNIT_NUMBER", r, 409, "DUPLICATE_UNIT_NUMBER")
        r = s.rest("DELETE", f"/units/{uid}?force=true", key=a)
        expect("DELETE /units/{id}?force=true (unknown argument): 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
        r = s.rest("GET", f"/units/{uid}", key=a)
        check("...the unit is still there", r.status == 200 and not r.json.get("deletedAt"), str(r))
        r = s.rest("DELETE", f"/units/{uid}", key=a)
        ok = expect("DELETE /units/{id}: 200", r, 200)
        check("...the result is the unit with deletedAt", ok and r.json.get("deletedAt"), str(r))
        r = s.rest("GET", "/units?search=R-9", key=a)
        check("...a later GET /units no longer lists it", r.status == 200 and r.json["pagination"]["total"] == 0, str(r))

    u101 = demo["units"]["101"]
    r = s.rest("GET", f"/units/{u101['id']}?includeLinked=true", key=a)
    m = s.mcp(tool("get_unit", {"id": u101["id"], "includeLinked": True}), key=a)
    check("GET /units/{id} answers the same object as the MCP structuredContent of get_unit",
          r.status == 200 and m.status == 200 and r.json == result_of(m).get("structuredContent"), f"{r} / {m}")
    r = s.rest("GET", "/units/no-such-unit", key=a)
    expect("GET /units/{unknown}: 404 UNIT_NOT_FOUND", r, 404, "UNIT_NOT_FOUND")
    r = s.rest("DELETE", f"/units/{demo['units']['101']['id']}", key=a)
    expect("DELETE a unit with co-owners: 409 UNIT_IN_USE", r, 409, "UNIT_IN_USE")
    parking = next((u for u in demo["parking"] if u["linkedUnits"]), None)
    other_apartment = next(u for n, u in demo["units"].items() if u["type"] == "apartment"
                           and parking and u["id"] not in parking["linkedUnits"])
    r = s.rest("PATCH", f"/units/{parking['id']}", {"linkedUnits": [other_apartment["id"]]}, key=a)
    expect("linking a linked parking unit to another apartment: 409 LINK_CONFLICT", r, 409, "LINK_CONFLICT")
    r = s.rest("POST", "/units", {"number": "C-1", "type": "commercial", "fractionPercent": 5}, key=a)
    ok = expect("POST /units taking the sum to 105: 422 FRACTION_SUM_OUT_OF_RANGE", r, 422, "FRACTION_SUM_OUT_OF_RANGE")
    check("...with resultingSum 105", ok and close(error_of(r).get("resultingSum"), 105), str(r))
    r = s.rest("GET", "/units?search=C-1", key=a)
    check("...and no unit was created", r.status == 200 and r.json["pagination"]["total"] == 0, str(r))

    r = s.rest("GET", "/declaration/fraction-sum", key=a)
    check("GET /declaration/fraction-sum: 200, sum 100 over 12 units",
          r.status == 200 and close(r.json.get("sum"), 100) and r.json.get("unitCount") == 12 and r.json.get("balanced") is True, str(r))
    u101 = demo["units"]["101"]
    r = s.rest("PATCH", f"/units/{u101['id']}", {"fractionPercent": u101["fractionPercent"] + 0.2}, key=a)
    expect("PATCH a unit's fraction (+0.2, still within 99.5..100.5): 200", r, 200)
    r = s.rest("GET", "/declaration/fraction-sum", key=a)
    check("...a later GET /declaration/fraction-sum: 100.2", r.status == 200 and close(r.json.get("sum"), 100.2), str(r))
    r = s.rest("POST", "/declaration/rebalance", {"dryRun": True}, key=a)
    check("POST /declaration/rebalance {dryRun: true}: 200, changes previewed",
          r.status == 200 and r.json.get("dryRun") is True and r.json.get("changes") and close(r.json.get("previousSum"), 100.2), str(r))
    r = s.rest("GET", "/declaration/fraction-sum", key=a)
    check("...nothing saved", r.status == 200 and close(r.json.get("sum"), 100.2), str(r))
    r = s.rest("POST", "/declaration/rebalance", b"", key=a)
    check("POST /declaration/rebalance with an empty body: 200, sum 100",
          r.status == 200 and close(r.json.get("sum"), 100) and r.json.get("dryRun") is False, str(r))
    r = s.rest("GET", "/declaration/fraction-sum", key=a)
    check("...a later GET: sum 100", r.status == 200 and close(r.json.get("sum"), 100), str(r))
    r = raw_exchange(s.addr, (f"POST {s.prefix}/declaration/rebalance HTTP/1.1\r\nHost: {s.hostport}\r\n"
                              f"Authorization: Bearer {a}\r\nConnection: close\r\n\r\n").encode())
    check("POST /declaration/rebalance with no body and no Content-Length (curl -X POST): 200",
          r.status == 200 and r.json.get("dryRun") is False, str(r))
    r = s.rest("POST", "/declaration/rebalance", {}, key=k["reader"])
    ok = expect("POST /declaration/rebalance with a read-only key: 403 INSUFFICIENT_SCOPE", r, 403, "INSUFFICIENT_SCOPE")
    check("...requiredScope write:declaration", ok and error_of(r).get("requiredScope") == "write:declaration", str(r))


def test_meetings(s, k, demo, tmp):
    section("REST: meetings")
    a = k["admin"]
    r = s.rest("GET", "/meetings?status=draft&type=aga", key=a)
    check("GET /meetings?status=draft&type=aga: the demo meeting",
          r.status == 200 and [m["id"] for m in r.json["data"]] == [demo["meeting"]["id"]], str(r))
    r = s.rest("GET", "/meetings?status=cancelled", key=a)
    expect("GET /meetings?status=cancelled: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")

    body = {"title": "Assemblée générale annuelle (HTTP)", "type": "aga", "scheduledAt": iso_in(40),
            "location": "Salle communautaire", "agenda": ["Ouverture", "Budget"]}
    r = s.rest("POST", "/meetings", body, key=a)
    ok = expect("POST /meetings: 201", r, 201)
    mid = r.json.get("id") if ok else None
    if not mid:
        return
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("GET /meetings/{id}: the new draft", r.status == 200 and r.json.get("status") == "draft"
          and r.json.get("agenda") == ["Ouverture", "Budget"], str(r))
    r = s.rest("GET", "/meetings", key=a)
    check("GET /meetings lists it", r.status == 200 and mid in [m["id"] for m in r.json["data"]], str(r))
    r = s.rest("PATCH", f"/meetings/{mid}", {"location": "Sous-sol, salle B"}, key=a)
    expect("PATCH /meetings/{id}: 200", r, 200)
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("...a later GET shows the new location", r.status == 200 and r.json.get("location") == "Sous-sol, salle B", str(r))
    r = s.rest("DELETE", f"/meetings/{mid}", key=a)
    allow = (r.header("allow") or "").upper()
    ok = expect("DELETE /meetings/{id}: 405 METHOD_NOT_ALLOWED", r, 405, "METHOD_NOT_ALLOWED")
    check("...Allow: GET, PATCH", ok and "GET" in allow and "PATCH" in allow and "DELETE" not in allow, str(r))

    r = s.rest("POST", f"/meetings/{mid}/resolutions",
               {"title": "Adoption du budget", "description": "Le budget 2027 est adopté.", "majorityRequired": "simple"}, key=a)
    ok = expect("POST /meetings/{id}/resolutions: 201", r, 201)
    rid = r.json.get("id") if ok else None
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("...a later GET shows the resolution, pending",
          r.status == 200 and [(x["id"], x["outcome"]) for x in r.json.get("resolutions", [])] == [(rid, "pending")], str(r))
    r = s.rest("POST", f"/meetings/{mid}/resolutions", {"meetingId": demo["meeting"]["id"], "title": "X",
                                                          "majorityRequired": "simple"}, key=a)
    expect("POST resolutions with a body meetingId that contradicts the path: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")

    soon = s.rest("POST", "/meetings", dict(body, title="Trop tôt", scheduledAt=iso_in(5)), key=a)
    if expect("POST /meetings five days ahead: 201", soon, 201):
        r = s.rest("POST", f"/meetings/{soon.json['id']}/notice", {}, key=a)
        expect("POST /meetings/{id}/notice five days ahead: 422 NOTICE_PERIOD_TOO_SHORT", r, 422, "NOTICE_PERIOD_TOO_SHORT")

    r = s.rest("POST", f"/meetings/{mid}/attendance",
               {"attendees": [{"coOwnerId": demo["co_owners"][0]["id"], "attendance": "present"}]}, key=a)
    check("attendance before the notice is refused (4xx)", 400 <= r.status < 500 and error_of(r).get("code"), str(r))
    r = s.rest("POST", f"/meetings/{mid}/notice", {"sendBy": "email", "includeAgenda": True}, key=a)
    ok = expect("POST /meetings/{id}/notice: 200", r, 200)
    check("...messages queued", ok and isinstance(r.json.get("queued"), int) and r.json["queued"] > 0, str(r))
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("...a later GET shows notice-sent", r.status == 200 and r.json.get("status") == "notice-sent", str(r))
    r = s.rest("PATCH", f"/meetings/{mid}", {"status": "draft"}, key=a)
    expect("PATCH a meeting back to draft: 409 INVALID_STATUS_TRANSITION", r, 409, "INVALID_STATUS_TRANSITION")

    # The co-owners as they are now: unit changes above scaled their shares of their units.
    now = s.rest("GET", "/co-owners?pageSize=200", key=a).json["data"]
    present = now[:3]
    proxy = now[3]
    attendees = [{"coOwnerId": c["id"], "attendance": "present"} for c in present]
    attendees.append({"coOwnerId": proxy["id"], "attendance": "proxy", "proxyHolder": "Jeanne Roy"})
    r = s.rest("POST", f"/meetings/{mid}/attendance", {"attendees": attendees}, key=a)
    expect("POST /meetings/{id}/attendance: 200", r, 200)
    expected_present = sum(c["fractionPercent"] for c in present)
    r = s.rest("GET", f"/meetings/{mid}/quorum", key=a)
    check("GET /meetings/{id}/quorum: the fractions just recorded",
          r.status == 200 and close(r.json.get("present"), expected_present)
          and close(r.json.get("proxied"), proxy["fractionPercent"])
          and close(r.json.get("total"), expected_present + proxy["fractionPercent"]), str(r))
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("...a later GET /meetings/{id} shows four attendees", r.status == 200 and len(r.json.get("attendees", [])) == 4, str(r))

    if rid:
        votes = {"votesFor": 10, "votesAgainst": 2, "votesAbstain": 0}
        r = s.rest("PUT", f"/meetings/{mid}/resolutions/{rid}/votes", votes, key=a)
        ok = expect("PUT /meetings/{id}/resolutions/{rid}/votes: 200", r, 200)
        check("...outcome passed", ok and r.json.get("outcome") == "passed", str(r))
        r = s.rest("GET", f"/meetings/{mid}", key=a)
        res = [x for x in r.json.get("resolutions", [])] if r.status == 200 else []
        check("...a later GET shows the votes", res and close(res[0].get("votesFor"), 10) and res[0].get("outcome") == "passed", str(r))
        r = s.rest("PUT", f"/meetings/{demo['meeting']['id']}/resolutions/{rid}/votes", votes, key=a)
        check("PUT votes under the wrong meeting: refused (4xx)", 400 <= r.status < 500 and error_of(r).get("code"), str(r))
        r = s.rest("PUT", f"/meetings/{mid}/resolutions/{rid}/votes", dict(votes, resolutionId="other"), key=a)
        expect("PUT votes with a body resolutionId that contradicts the path: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
        r = s.rest("PUT", f"/meetings/{mid}/resolutions/no-such-resolution/votes", votes, key=a)
        expect("PUT votes on an unknown resolution: 404 RESOLUTION_NOT_FOUND", r, 404, "RESOLUTION_NOT_FOUND")

    r = s.rest("PATCH", f"/meetings/{mid}", {"status": "held"}, key=a)
    expect("PATCH /meetings/{id} {status: held}: 200", r, 200)
    r = s.rest("POST", f"/meetings/{mid}/minutes", {"draft": True, "language": "en"}, key=a)
    ok = expect("POST /meetings/{id}/minutes: 201", r, 201)
    doc = r.json if ok else {}
    url = doc.get("downloadUrl", "")
    check("...a remote caller gets a download address, never the server's path", ok and doc.get("draft") is True
          and doc.get("pages", 0) >= 1 and "path" not in doc
          and url == f"{s.base}/documents/{doc.get('documentId')}/content", str(r))
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("...a later GET lists the document, with its download address and no path", r.status == 200
          and [(d.get("documentId"), d.get("downloadUrl"), "path" in d) for d in r.json.get("documents", [])]
          == [(doc.get("documentId"), url, False)], str(r))
    test_document_download(s, k, doc, url[len(s.base):] if url.startswith(s.base) else f"/documents/{doc.get('documentId')}/content")
    r = s.rest("GET", "/meetings/no-such-meeting", key=a)
    expect("GET /meetings/{unknown}: 404 MEETING_NOT_FOUND", r, 404, "MEETING_NOT_FOUND")
    r = s.rest("GET", "/meetings/no-such-meeting/quorum", key=a)
    expect("GET /meetings/{unknown}/quorum: 404 MEETING_NOT_FOUND", r, 404, "MEETING_NOT_FOUND")


def test_document_download(s, k, doc, route):
    """GET <base>/documents/{id}/content: the PDF itself, to a caller of its syndicate who may read meetings."""
    import hashlib
    r = s.rest("GET", route, key=k["admin"])
    check("GET /documents/{id}/content: 200 application/pdf, the very file (size and SHA-256)", r.status == 200
          and r.media_type == "application/pdf" and r.body[:5] == b"%PDF-" and len(r.body) == doc.get("sizeBytes")
          and hashlib.sha256(r.body).hexdigest() == doc.get("sha256"), str(r)[:200])
    disposition = r.header("content-disposition") or ""
    check("...Content-Disposition: attachment with the file's name",
          re.fullmatch(r'attachment; filename="minutes-[0-9a-z.-]+\.pdf"', disposition) is not None, disposition)
    expect("...without credentials: 401 NOT_AUTHENTICATED", s.rest("GET", route), 401, "NOT_AUTHENTICATED")
    expect("...with a key without read:meetings: 403 INSUFFICIENT_SCOPE", s.rest("GET", route, key=k["reader"]),
           403, "INSUFFICIENT_SCOPE")
    # Another syndicate's caller is DOCUMENT_NOT_FOUND: tests/unit/meetings_test.cpp (document_file).
    expect("GET /documents/{unknown}/content: 404 DOCUMENT_NOT_FOUND",
           s.rest("GET", "/documents/no-such-document/content", key=k["admin"]), 404, "DOCUMENT_NOT_FOUND")


def test_audit(s, k, demo):
    section("REST: the audit trail")
    unit = demo["units"]["201"]
    r = s.rest("PATCH", "/units/" + unit["id"], {"bedrooms": 3}, key=k["admin"])
    expect("PATCH /units/{id} (a write to find in the trail)", r, 200)
    r = s.rest("GET", "/audit-events?recordId=" + unit["id"] + "&action=update", key=k["admin"])
    events = r.json.get("data", []) if r.status == 200 else []
    check("GET /audit-events?recordId=..: newest first, the write, by the admin key, through update_unit, with the change",
          events and events[0]["actor"] == {"kind": "api-key", "id": k["admin_id"], "clientId": None}
          and events[0]["tool"] == "update_unit" and events[0]["changes"].get("bedrooms", {}).get("after") == 3, str(r))
    r = s.rest("GET", "/audit-events?recordType=co-owner&pageSize=5", key=k["admin"])
    check("...the demo's co-owners were recorded as they were created",
          r.status == 200 and r.json["pagination"]["total"] >= 8 and len(r.json["data"]) == 5, str(r))
    expect("GET /audit-events with a member key: 403 ADMIN_REQUIRED", s.rest("GET", "/audit-events", key=k["member"]), 403, "ADMIN_REQUIRED")
    expect("GET /audit-events?from=yesterday: 400 VALIDATION_FAILED", s.rest("GET", "/audit-events?from=yesterday", key=k["admin"]),
           400, "VALIDATION_FAILED")


def test_registers(s, k, demo):
    section("REST: water heaters, insurance, contractors")
    a = k["admin"]
    unit = demo["units"]["202"]
    r = s.rest("POST", "/water-heaters", {"unitId": unit["id"], "manufactureDate": "2014-02-01", "capacityLitres": 151}, key=a)
    ok = expect("POST /water-heaters: 201", r, 201)
    heater = r.json if ok else {}
    check("...replaceBy ten years after manufacture, overdue, in unit 202",
          ok and heater["replaceBy"] == "2024-02-01" and heater["status"] == "overdue" and heater["unitNumber"] == "202", str(r))
    r = s.rest("GET", "/water-heaters?status=overdue&unitId=" + unit["id"], key=a)
    check("GET /water-heaters?status=overdue&unitId=..: that heater",
          r.status == 200 and [w["id"] for w in r.json["data"]] == [heater.get("id")], str(r))
    r = s.rest("PATCH", "/water-heaters/" + heater.get("id", "x"), {"installDate": "2013-01-01"}, key=a)
    expect("PATCH /water-heaters/{id} installed before made: 400 INVALID_DATE_RANGE", r, 400, "INVALID_DATE_RANGE")
    r = s.rest("DELETE", "/water-heaters/" + heater.get("id", "x"), key=a)
    check("DELETE /water-heaters/{id}: 200, archived", r.status == 200 and "deletedAt" in r.json, str(r))
    expect("DELETE /water-heaters/{id} again: 404 WATER_HEATER_NOT_FOUND",
           s.rest("DELETE", "/water-heaters/" + heater.get("id", "x"), key=a), 404, "WATER_HEATER_NOT_FOUND")

    r = s.rest("POST", "/insurance-policies", {"kind": "civil-liability", "insurer": "Promutuel", "policyNumber": "RC-7",
                                               "startDate": "2026-01-01", "endDate": "2027-01-01",
                                               "coverages": [{"peril": "responsabilité civile", "amountCents": 1000000000}]}, key=a)
    ok = expect("POST /insurance-policies: 201", r, 201)
    policy = r.json if ok else {}
    r = s.rest("GET", "/insurance-policies?kind=civil-liability&appraisalOutdated=false", key=a)
    check("GET /insurance-policies?kind=civil-liability&appraisalOutdated=false: the policy (booleans from the query)",
          r.status == 200 and policy.get("id") in [p["id"] for p in r.json["data"]], str(r))
    r = s.rest("PATCH", "/insurance-policies/" + policy.get("id", "x"),
               {"coverages": [{"peril": "Feu", "amountCents": 1}, {"peril": "feu", "amountCents": 2}]}, key=a)
    expect("PATCH /insurance-policies/{id} with a peril twice: 409 DUPLICATE_PERIL", r, 409, "DUPLICATE_PERIL")
    r = s.rest("DELETE", "/insurance-policies/" + policy.get("id", "x"), key=a)
    check("DELETE /insurance-policies/{id}: 200, archived", r.status == 200 and "deletedAt" in r.json, str(r))

    r = s.rest("POST", "/contractors", {"name": "Couvertures Pelletier", "trade": "Couvreur", "neq": "2234567890"}, key=a)
    ok = expect("POST /contractors: 201", r, 201)
    contractor = r.json if ok else {}
    r = s.rest("GET", "/contractors?search=" + urllib.parse.quote("pelletier"), key=a)
    check("GET /contractors?search=pelletier: the contractor",
          r.status == 200 and [c["id"] for c in r.json["data"]] == [contractor.get("id")], str(r))
    expect("POST /contractors with the same NEQ: 409 DUPLICATE_NEQ",
           s.rest("POST", "/contractors", {"name": "Autre", "trade": "x", "neq": "2234567890"}, key=a), 409, "DUPLICATE_NEQ")
    expect("PATCH /contractors/{id} with a 9-digit NEQ: 400 INVALID_NEQ",
           s.rest("PATCH", "/contractors/" + contractor.get("id", "x"), {"neq": "223456789"}, key=a), 400, "INVALID_NEQ")
    expect("GET /contractors with a key without read:contractors: 403 INSUFFICIENT_SCOPE",
           s.rest("GET", "/contractors", key=k["reader"]), 403, "INSUFFICIENT_SCOPE")
    r = s.rest("DELETE", "/contractors/" + contractor.get("id", "x"), key=a)
    check("DELETE /contractors/{id}: 200, archived", r.status == 200 and "deletedAt" in r.json, str(r))


def test_rest_protocol(s, k, tmp):
    section("REST: credentials, routing, sizes")
    a = k["admin"]
    r = s.rest("GET", "/units")
    ok = expect("GET /units without credentials: 401 NOT_AUTHENTICATED", r, 401, "NOT_AUTHENTICATED")
    check("...WWW-Authenticate: Bearer realm=\"syndic-mcp\"",
          ok and (r.header("www-authenticate") or "").startswith('Bearer realm="syndic-mcp"'), str(r))
    r = s.rest("GET", "/units", key="sk_" + "Q" * 43)
    ok = expect("GET /units with an unknown key: 401", r, 401)
    check("...error=\"invalid_token\" in WWW-Authenticate", ok and 'error="invalid_token"' in (r.header("www-authenticate") or ""), str(r))
    r = s.rest("GET", "/units", key="not-even-a-key")
    expect("GET /units with a malformed bearer: 401", r, 401)
    r = s.rest("GET", "/units", headers={"Authorization": "Bearer"})
    expect("GET /units with an empty bearer: 401", r, 401)

    made = cli("keys", "create", "--db", k["db"], "--role", "member", "--name", "short-lived", "--json")
    temp = json.loads(made.stdout) if made.returncode == 0 else {}
    if check("keys create for a key to revoke", "apiKey" in temp, made.stderr):
        r = s.rest("GET", "/units", key=temp["apiKey"])
        expect("...the new key works at once on the running bridge", r, 200)
        rv = cli("keys", "revoke", "--db", k["db"], temp["apiKeyId"])
        r = s.rest("GET", "/units", key=temp["apiKey"])
        ok = rv.returncode == 0 and r.status == 401
        check("...revoked, it is refused at once: 401 invalid_token",
              ok and 'error="invalid_token"' in (r.header("www-authenticate") or ""), f"revoke {rv.returncode}, {r}")
        r = s.mcp(rpc("tools/list"), key=temp["apiKey"])
        check("...also on the MCP endpoint, even for tools/list: 401", r.status == 401, str(r))

    r = s.rest("POST", "/units", {"number": "X-1", "type": "storage"}, key=k["reader"])
    ok = expect("POST /units with a read-only key: 403 INSUFFICIENT_SCOPE", r, 403, "INSUFFICIENT_SCOPE")
    check("...requiredScope write:co-owners", ok and error_of(r).get("requiredScope") == "write:co-owners", str(r))
    r = s.rest("GET", "/meetings", key=k["reader"])
    expect("GET /meetings with a co-owners-only key: 403 INSUFFICIENT_SCOPE", r, 403, "INSUFFICIENT_SCOPE")
    r = s.rest("GET", "/units", key=k["reader"])
    expect("GET /units with the read-only key: 200", r, 200)

    r = s.rest("GET", "/parking-spots", key=a)
    expect("GET /parking-spots: 404 ROUTE_NOT_FOUND", r, 404, "ROUTE_NOT_FOUND")
    r = s.rest("GET", "/co-owners/x/y/z", key=a)
    expect("GET /co-owners/x/y/z: 404 ROUTE_NOT_FOUND", r, 404, "ROUTE_NOT_FOUND")
    r = fetch(s.addr, "GET", "/elsewhere/units", key=a)
    check("GET outside the base path: 404", r.status == 404, str(r))
    r = s.rest("PUT", "/co-owners", {}, key=a)
    allow = (r.header("allow") or "").upper()
    ok = expect("PUT /co-owners: 405 METHOD_NOT_ALLOWED", r, 405, "METHOD_NOT_ALLOWED")
    check("...Allow: GET, POST", ok and "GET" in allow and "POST" in allow, str(r))

    # 413: a body over 4 MiB.
    big = json.dumps({"coOwners": [{"firstName": "x" * 1000, "lastName": "Gros", "unitId": "u"}] * 4300}).encode()
    r = fetch(s.addr, "POST", s.prefix + "/co-owners/bulk", big, key=a)
    expect(f"POST /co-owners/bulk with a {len(big) // 1024} KiB body: 413 PAYLOAD_TOO_LARGE", r, 413, "PAYLOAD_TOO_LARGE")
    r = s.rest("GET", "/units", key=a)
    expect("...the bridge still answers afterwards", r, 200)
    just = json.dumps({"coOwners": [{"firstName": "Petit", "lastName": "Juste", "unitId": "no-such-unit",
                                     "phone": "1" * 20}]}).encode()
    r = fetch(s.addr, "POST", s.prefix + "/co-owners/bulk", just, key=a)
    expect("...a small bulk body is read (200 with per-row errors)", r, 200)


def test_access_log(s, k):
    section("access log and secrets")
    mark = s.mark()
    r = s.rest("GET", "/units?type=parking&search=P", key=k["member"])
    expect("a GET with a query string (for the access log)", r, 200)
    m = s.wait_for(r"GET /api/units 200 \d+(\.\d+)?ms key=" + re.escape(k["member_id"]), 5, start=mark)
    check("access log: 'GET /api/units 200 <ms>ms key=<key id>'", m is not None, s.stderr_text()[-600:])
    check("...without the query string", m is not None and "type=parking" not in m.string, m.string if m else "")
    mark = s.mark()
    s.mcp(rpc("tools/list"))
    m = s.wait_for(r"POST /api/mcp 200 \d+(\.\d+)?ms key=-", 5, start=mark)
    check("access log: 'POST /api/mcp 200 <ms>ms key=-' without credentials", m is not None, s.stderr_text()[-600:])
    mark = s.mark()
    s.mcp(tool("get_unit", {"id": "nope"}), key=k["admin"])
    m = s.wait_for(r"POST /api/mcp 200 \d+(\.\d+)?ms key=" + re.escape(k["admin_id"]), 5, start=mark)
    check("access log: 'POST /api/mcp 200 <ms>ms key=<admin key id>' for a tool call", m is not None, s.stderr_text()[-600:])
    mark = s.mark()
    s.rest("GET", "/units", key=k["reader"], headers={"Origin": "http://evil.example.com"})
    m = s.wait_for(r"GET /api/units 403 \d+(\.\d+)?ms key=", 5, start=mark)
    check("access log: refused requests are logged too (403)", m is not None, s.stderr_text()[-600:])


def test_hostile_http(s, k, db):
    section("hostile HTTP: ranges, chunked and compressed bodies, HEAD, forged log lines, a lone worker")
    a = k["admin"]
    plain = s.rest("GET", "/openapi.json")
    ranges = "bytes=" + ",".join(["0-"] * 1000)
    r = s.rest("GET", "/openapi.json", headers={"Range": ranges})
    check("Range with 1000 ranges is ignored: 200 with the document once",
          r.status == 200 and len(r.body) == len(plain.body) and r.body == plain.body, f"{r.status} {len(r.body)} bytes")
    r = s.rest("GET", "/nowhere", key=a, headers={"Range": ranges})
    check("...also on an error answer", r.status == 404 and len(r.body) < 500, f"{r.status} {len(r.body)} bytes")

    r = fetch(s.addr, "HEAD", s.prefix + "/units", key=a)
    check("HEAD /units: 200 without a body", r.status == 200 and r.body == b"", str(r))

    def chunked(total):
        yield b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'
        for _ in range(total // 65536):
            yield b"a" * 65536
        yield b'"}}'
    conn = http.client.HTTPConnection(s.addr[0], s.addr[1], timeout=REQUEST_TIMEOUT)
    try:
        conn.request("POST", s.prefix + "/mcp", body=chunked(8 * 1024 * 1024), encode_chunked=True,
                     headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
        resp = conn.getresponse()
        status = resp.status
    except (OSError, http.client.HTTPException):
        status = "closed"  # the server answered 413 and closed while the client was still sending
    finally:
        conn.close()
    check("a chunked body of 8 MiB: refused (413, or closed while sending), never read whole", status in (413, "closed"), str(status))
    conn = http.client.HTTPConnection(s.addr[0], s.addr[1], timeout=REQUEST_TIMEOUT)
    conn.request("POST", s.prefix + "/mcp", body=chunked(65536), encode_chunked=True,
                 headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
    resp = conn.getresponse()
    check("a small chunked body is read: 200", resp.status == 200, str(resp.status))
    conn.close()

    bomb = gzip.compress(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"a" * (64 * 1024 * 1024) + b'"}}')
    r = fetch(s.addr, "POST", s.prefix + "/mcp", bomb, headers={"Content-Encoding": "gzip"})
    check(f"a gzip body of {len(bomb) // 1024} KiB that inflates to 64 MiB: 413 PAYLOAD_TOO_LARGE",
          r.status == 413 and rpc_error(r).get("message") == "PAYLOAD_TOO_LARGE", str(r))
    r = fetch(s.addr, "POST", s.prefix + "/mcp", gzip.compress(json.dumps(rpc("ping", id_=5)).encode()),
              headers={"Content-Encoding": "gzip"})
    check("a small gzip body is read: 200", r.status == 200 and r.json.get("id") == 5, str(r))

    mark = s.mark()
    fetch(s.addr, "GET", s.prefix + "/x%0D%0A2026-01-01T00:00:00.000Z%20access%20127.0.0.1%20DELETE%20/api/co-owners/abc%20200%201.0ms%20key=k")
    s.wait_for(r"GET /api/x", 5, start=mark)
    forged = [line for line in s.lines[mark:] if line.startswith("2026-01-01T00:00:00.000Z")]
    check("a %0D%0A in the path cannot forge an access-log line", not forged and any("\\x0d\\x0a" in line for line in s.lines[mark:]),
          "\n".join(s.lines[mark:])[-400:])

    section("a lone worker: a failed database open, then requests queued behind a slow client at SIGTERM")
    lone = start("bridge with one worker", db, "--workers", "1")
    if not lone:
        return
    moved = db + ".away"
    os.rename(db, moved)
    os.mkdir(db)
    r = lone.mcp(rpc("ping", id_=3))
    os.rmdir(db)
    os.rename(moved, db)
    check("the database cannot be opened: 503 STORAGE_UNAVAILABLE as a JSON-RPC error (-32000, id echoed)",
          r.status == 503 and rpc_error(r).get("code") == -32000 and rpc_error(r).get("message") == "STORAGE_UNAVAILABLE"
          and r.json.get("id") == 3, str(r))
    r = lone.mcp(rpc("ping", id_=4))
    check("...the same worker serves once it can: 200 with the ping's result",
          r.status == 200 and r.json.get("result") == {}, str(r))
    r = lone.rest("GET", "/units", key=a)
    check("...REST too: 200", r.status == 200, str(r))

    slow = socket.create_connection(lone.addr, timeout=REQUEST_TIMEOUT)
    body = json.dumps(rpc("ping", id_=9)).encode()
    slow.sendall(b"POST " + lone.prefix.encode() + b"/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    answers = []
    def queued(i):
        r = lone.rest("POST", "/co-owners", {"firstName": f"Queued{i}", "lastName": "Avant-Arret", "unitId": k["unit_for_queue"]}, key=a)
        answers.append(r.status)
    threads = [threading.Thread(target=queued, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    lone.proc.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    slow.sendall(body)
    for t in threads:
        t.join(REQUEST_TIMEOUT)
    slow.close()
    code = lone.proc.wait(REQUEST_TIMEOUT)
    check("requests queued behind a busy worker at SIGTERM are all answered 201", sorted(answers) == [201, 201, 201], str(answers))
    check("...and exit 0", code == 0, str(code))
    found = all_co_owners(s, a, "Avant-Arret")
    check("...their three co-owners are in the database", len(found) == 3, str(len(found)))


def test_oauth(s, k, db):
    """The authorization server over HTTP: discovery, registration, authorize, token, the resource side."""
    import base64, hashlib, html
    section("OAuth: discovery, registration, sign-in, consent, tokens, refusals")
    password = "correct horse battery"
    made = cli("users", "create", "--db", db, "--email", "lise@example.ca", "--name", "Lise Gagnon", "--role", "member",
               stdin=password + "\n")
    check("users create for the OAuth checks", made.returncode == 0, made.stderr)
    r = fetch(s.addr, "GET", "/.well-known/oauth-protected-resource" + s.prefix + "/mcp")
    check("protected-resource metadata (RFC 9728) names the MCP endpoint and the issuer",
          r.status == 200 and r.json.get("resource") == s.base + "/mcp" and r.json.get("authorization_servers") == [s.base], str(r))
    r = fetch(s.addr, "GET", "/.well-known/oauth-authorization-server" + s.prefix)
    meta = r.json if r.status == 200 else {}
    check("authorization-server metadata (RFC 8414): S256 only, the scopes",
          meta.get("issuer") == s.base and meta.get("code_challenge_methods_supported") == ["S256"]
          and "write:meetings" in meta.get("scopes_supported", []), str(r))
    r = s.rest("GET", "/units")
    check("a 401 names the resource metadata", 'resource_metadata="' in (r.header("www-authenticate") or ""), str(r))

    r = s.rest("POST", "/oauth/register", {"client_name": "Evil", "redirect_uris": ["http://evil.example.com/cb"]})
    check("registration refuses an http redirect URI off loopback: invalid_redirect_uri",
          r.status == 400 and r.json.get("error") == "invalid_redirect_uri", str(r))
    r = s.rest("POST", "/oauth/register", {"client_name": "Gestion Plus", "redirect_uris": ["http://127.0.0.1:9/cb"],
                                            "token_endpoint_auth_method": "none"})
    client = r.json.get("client_id") if r.status == 201 else None
    check("dynamic registration of a public client: 201 with a client_id, no secret",
          client and "client_secret" not in r.json, str(r))
    redirect = "http://127.0.0.1:9/cb"
    verifier = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    base_q = {"response_type": "code", "client_id": client, "redirect_uri": redirect, "scope": "read:co-owners",
              "state": "s-42", "code_challenge": challenge, "code_challenge_method": "S256"}

    def fields_of(page):
        return {html.unescape(a): html.unescape(b) for a, b in re.findall(r'name="([^"]+)" value="([^"]*)"', page)}

    def authorize(params, cookie=None):
        return fetch(s.addr, "GET", s.prefix + "/oauth/authorize?" + urllib.parse.urlencode(params),
                     headers={"Cookie": cookie} if cookie else None)

    def redirected(r):
        loc = r.header("location") or ""
        return dict(urllib.parse.parse_qsl(urllib.parse.urlparse(loc).query)) if loc.startswith(redirect) else {}

    r = authorize(dict(base_q, client_id="no-such-client"))
    check("authorize: an unknown client gets an error page, not a redirect", r.status == 400 and not r.header("location"), str(r))
    r = authorize(dict(base_q, redirect_uri="http://127.0.0.1:9/other"))
    check("authorize: a redirect URI not registered gets an error page, not a redirect", r.status == 400 and not r.header("location"), str(r))
    r = authorize(dict(base_q, response_type="token"))
    check("authorize: a self-registered client's bad request before sign-in is a page, never a redirect (RFC 9700, 4.11.2)",
          r.status == 400 and not r.header("location"), str(r))

    r = authorize(base_q)
    fields = {html.unescape(a): html.unescape(b) for a, b in re.findall(r'name="([^"]+)" value="([^"]*)"', r.body.decode())}
    check("authorize without a session: the sign-in page, saying the app registered itself",
          r.status == 200 and 'name="password"' in r.body.decode() and "inscrite elle-même" in html.unescape(r.body.decode()), str(r))
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    r = fetch(s.addr, "POST", s.prefix + "/oauth/signin", urllib.parse.urlencode(dict(fields, email="lise@example.ca", password="wrong")),
              headers=form, content_type=None)
    check("sign-in with a wrong password: 401, the page again, no cookie", r.status == 401 and not r.header("set-cookie"), str(r))
    statuses = []
    for _ in range(6):
        r = fetch(s.addr, "POST", s.prefix + "/oauth/signin",
                  urllib.parse.urlencode(dict(fields, email="guess@example.ca", password="guess-" + str(len(statuses)))),
                  headers=form, content_type=None)
        statuses.append(r.status)
    check("five failed sign-ins lock that address: the sixth is 429 with Retry-After, before any password is checked",
          statuses == [401] * 5 + [429] and int(r.header("retry-after") or 0) >= 55, f"{statuses} {r.header('retry-after')}")
    r = fetch(s.addr, "POST", s.prefix + "/oauth/signin", urllib.parse.urlencode(dict(fields, email="lise@example.ca", password=password)),
              headers=form, content_type=None)
    cookie = (r.header("set-cookie") or "").split(";")[0]
    check("sign-in: 303 back to authorize, an HttpOnly SameSite=Lax cookie",
          r.status == 303 and "HttpOnly" in (r.header("set-cookie") or "") and "SameSite=Lax" in (r.header("set-cookie") or ""), str(r))
    for change in ({"code_challenge": ""}, {"code_challenge_method": "plain"}, {"resource": "https://elsewhere.example.org/api"},
                   {"scope": "read:everything"}, {"response_type": "token"}):
        r = authorize(dict(base_q, **change), cookie)
        check(f"authorize (signed in) with {change}: a self-registered app gets an error page, never a redirect",
              r.status == 400 and not r.header("location"), str(r))
    admin_made = cli("clients", "create", "--db", db, "--name", "Appli du syndicat", "--redirect-uri", redirect, "--json")
    admin_client = json.loads(admin_made.stdout)["clientId"] if admin_made.returncode == 0 else ""
    for change, error in (({"code_challenge": ""}, "invalid_request"), ({"code_challenge_method": "plain"}, "invalid_request"),
                          ({"resource": "https://elsewhere.example.org/api"}, "invalid_target"),
                          ({"scope": "read:everything"}, "invalid_scope"), ({"response_type": "token"}, "unsupported_response_type")):
        got = redirected(authorize(dict(base_q, client_id=admin_client, **change), cookie))
        check(f"authorize (signed in) for an app an administrator registered, with {change}: redirected with error={error}",
              got.get("error") == error and got.get("state") == "s-42", str(got))
    r = authorize(base_q, cookie)
    check("consent page: its forms may lead only here and to the application's origin (CSP form-action)",
          "form-action 'self' http://127.0.0.1:9;" in (r.header("content-security-policy") or ""), r.header("content-security-policy"))
    consent = {html.unescape(a): html.unescape(b) for a, b in re.findall(r'name="([^"]+)" value="([^"]*)"', r.body.decode())}
    check("consent page names the app, without script", r.status == 200 and "Gestion Plus" in r.body.decode() and "<script" not in r.body.decode(), str(r))
    text = html.unescape(r.body.decode())
    check("...tells a member that admin-only acts stay refused, and how long access lasts",
          "Dans les limites de votre rôle" in text and "pendant 30 jours" in text and "http://127.0.0.1:9" in text, text[-900:])
    r = fetch(s.addr, "POST", s.prefix + "/oauth/authorize", urllib.parse.urlencode(dict(consent, csrf_token="forged", decision="allow")),
              headers=dict(form, Cookie=cookie), content_type=None)
    check("consent with a forged CSRF token: 403, no code", r.status == 403 and not r.header("location"), str(r))

    def allow():
        r = fetch(s.addr, "POST", s.prefix + "/oauth/authorize", urllib.parse.urlencode(dict(consent, decision="allow")),
                  headers=dict(form, Cookie=cookie), content_type=None)
        return redirected(r).get("code")

    def token(fields):
        return fetch(s.addr, "POST", s.prefix + "/oauth/token", urllib.parse.urlencode(fields), headers=form, content_type=None)

    code = allow()
    check("Allow: a code on the redirect", bool(code))
    good = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect, "client_id": client, "code_verifier": verifier}
    r = token(dict(good, code_verifier="x" * 43))
    check("token: a wrong verifier is invalid_grant (and spends the code)", r.status == 400 and r.json.get("error") == "invalid_grant", str(r))
    r = token(good)
    check("...the code is spent: invalid_grant", r.status == 400 and r.json.get("error") == "invalid_grant", str(r))
    code = allow()
    r = token(dict(good, code=code, redirect_uri=redirect + "x"))
    check("token: another redirect URI is invalid_grant", r.json.get("error") == "invalid_grant", str(r))
    r = token(dict(good, code=allow(), grant_type="password"))
    check("token: an unsupported grant type", r.json.get("error") == "unsupported_grant_type", str(r))
    r = fetch(s.addr, "POST", s.prefix + "/oauth/token", json.dumps(good))
    check("token: a JSON body is invalid_request", r.json.get("error") == "invalid_request", str(r))
    r = token(dict(good, code=allow()))
    tokens = r.json if r.status == 200 else {}
    check("token: an access token (ES256 JWT), a refresh token, the scope, no-store",
          tokens.get("token_type") == "Bearer" and tokens.get("scope") == "read:co-owners" and r.header("cache-control") == "no-store"
          and json.loads(base64.urlsafe_b64decode(tokens["access_token"].split(".")[0] + "==")).get("alg") == "ES256", str(r))
    access = tokens.get("access_token", "")
    r = s.mcp(tool("get_fraction_sum", {}), key=access)
    check("the access token calls a tool on /mcp", r.status == 200 and result_of(r).get("structuredContent", {}).get("sum") == 100, str(r))
    r = s.rest("GET", "/units", key=access)
    check("...and a REST route", r.status == 200, str(r))
    r = s.rest("POST", "/units", {"number": "Z-1", "type": "storage"}, key=access)
    check("a write outside the token's scope: 403 insufficient_scope with the scope",
          r.status == 403 and 'error="insufficient_scope"' in (r.header("www-authenticate") or "")
          and 'scope="write:co-owners"' in (r.header("www-authenticate") or ""), str(r))
    head, body, sig = access.split(".")
    r = s.rest("GET", "/units", key=head + "." + body + "." + ("A" if sig[0] != "A" else "B") + sig[1:])
    check("a tampered signature: 401 invalid_token", r.status == 401 and 'error="invalid_token"' in (r.header("www-authenticate") or ""), str(r))
    r = token({"grant_type": "refresh_token", "refresh_token": tokens.get("refresh_token", ""), "client_id": client})
    check("refresh: a new pair", r.status == 200 and r.json.get("refresh_token") not in (None, tokens.get("refresh_token")), str(r))
    newer = r.json if r.status == 200 else {}
    r = token({"grant_type": "refresh_token", "refresh_token": tokens.get("refresh_token", ""), "client_id": client})
    check("refresh with the spent token: invalid_grant", r.json.get("error") == "invalid_grant", str(r))
    r = token({"grant_type": "refresh_token", "refresh_token": newer.get("refresh_token", ""), "client_id": client})
    check("...and its successor is revoked with the family", r.json.get("error") == "invalid_grant", str(r))
    r = fetch(s.addr, "POST", s.prefix + "/oauth/revoke", urllib.parse.urlencode({"token": newer.get("access_token", ""), "client_id": client}),
              headers=form, content_type=None)
    r2 = s.rest("GET", "/units", key=newer.get("access_token", ""))
    check("revocation (RFC 7009): 200, then the access token is refused", r.status == 200 and r2.status == 401, f"{r} / {r2}")
    replayed = dict(good, code=allow())
    first = token(replayed).json
    works = s.rest("GET", "/units", key=first.get("access_token", "")).status
    token(replayed)
    r = s.rest("GET", "/units", key=first.get("access_token", ""))
    check("a replayed code revokes the access token it gave, not only the refresh token",
          works == 200 and r.status == 401, f"{works} then {r}")
    r = token({"grant_type": "refresh_token", "refresh_token": "nope", "client_id": client})
    check("refresh with an unknown token: invalid_grant", r.json.get("error") == "invalid_grant", str(r))
    grant = token(dict(good, code=allow())).json
    narrow = token({"grant_type": "refresh_token", "refresh_token": grant.get("refresh_token", ""), "client_id": client, "scope": "read:co-owners"}).json
    wide = token({"grant_type": "refresh_token", "refresh_token": narrow.get("refresh_token", ""), "client_id": client}).json
    check("narrowing on refresh is for that access token only (RFC 6749, 6)", narrow.get("scope") == "read:co-owners" and wide.get("scope") == "read:co-owners", f"{narrow} {wide}")
    r = s.rest("POST", "/oauth/register", {"client_name": "Gestion\u202eKLJ", "redirect_uris": [redirect]})
    check("registration refuses text-direction characters in the name", r.status == 400 and r.json.get("error") == "invalid_client_metadata", str(r))
    r = s.rest("POST", "/oauth/register", {"client_name": 5, "redirect_uris": [redirect]})
    check("registration with a name that is not text: 400 invalid_client_metadata", r.status == 400, str(r))
    r = s.rest("POST", "/oauth/register", {"client_name": "X", "redirect_uris": ["http://127.attacker.example/cb"]})
    check("registration: a name beginning with 127. is not loopback", r.status == 400 and r.json.get("error") == "invalid_redirect_uri", str(r))
    r = fetch(s.addr, "GET", s.prefix + "/oauth/signout", headers={"Cookie": cookie})
    check("GET signout while signed in: a button, not a sign-out", r.status == 200 and "csrf_token" in r.body.decode(), str(r))
    r = fetch(s.addr, "POST", s.prefix + "/oauth/signout", "csrf_token=forged", headers=dict(form, Cookie=cookie), content_type=None)
    still = authorize(base_q, cookie)
    check("POST signout with a forged token: 403, still signed in", r.status == 403 and "decision" in still.body.decode(), str(r))
    # A second person, so that disabling the client and disabling a user are each seen alone.
    cli("users", "create", "--db", db, "--email", "paul@example.ca", "--name", "Paul Roy", stdin=password + "\n")
    page = authorize(base_q).body.decode()
    r = fetch(s.addr, "POST", s.prefix + "/oauth/signin",
              urllib.parse.urlencode(dict(fields_of(page), email="paul@example.ca", password=password)), headers=form, content_type=None)
    paul_cookie = (r.header("set-cookie") or "").split(";")[0]
    page = authorize(dict(base_q, scope="read:co-owners write:co-owners"), paul_cookie).body.decode()
    r = fetch(s.addr, "POST", s.prefix + "/oauth/authorize", urllib.parse.urlencode(dict(fields_of(page), decision="allow")),
              headers=dict(form, Cookie=paul_cookie), content_type=None)
    paul = token(dict(good, code=redirected(r).get("code", ""))).json.get("access_token", "")
    r = s.rest("POST", "/units", {"number": "Z-2", "type": "storage"}, key=paul)
    made = r.json.get("id") if r.status == 201 else None
    r = s.rest("GET", "/audit-events?recordId=" + str(made), key=k["admin"])
    events = r.json.get("data", []) if r.status == 200 else []
    check("a user's write through an application is in the audit trail as that user and that application",
          made and len(events) == 1 and events[0]["actor"]["kind"] == "user" and events[0]["actor"]["clientId"] == client
          and events[0]["tool"] == "create_unit" and events[0]["action"] == "create", str(r))
    access = grant.get("access_token", "")
    before = (s.rest("GET", "/units", key=access).status, s.rest("GET", "/units", key=paul).status)
    cli("users", "disable", "--db", db, "paul@example.ca")
    after = (s.rest("GET", "/units", key=access).status, s.rest("GET", "/units", key=paul).status)
    check("a disabled user's access token is refused at once, another user's is not", before == (200, 200) and after == (200, 401), f"{before} {after}")
    r = cli("clients", "disable", "--db", db, client)
    r2 = s.rest("GET", "/units", key=access)
    check("a disabled client's access token is refused at once", r.returncode == 0 and r2.status == 401, str(r2))
    cli("users", "disable", "--db", db, "lise@example.ca")


def test_oauth_hardening(db, k):
    """Issue 15, section 4, on a bridge of its own (its sign-in and registration counts start at zero)."""
    import base64, hashlib, html
    section("OAuth hardening: throttle per account and address, consent-only redirects, registration, low-S, duplicate keys")
    s = start("bridge for the OAuth hardening checks", db)
    if not s:
        return None
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    password = "correct horse battery"
    for email, name in (("nadia@example.ca", "Nadia Haddad"), ("omar@example.ca", "Omar Saïd")):
        cli("users", "create", "--db", db, "--email", email, "--name", name, "--role", "member", stdin=password + "\n")

    def sign_in(email, secret):
        return fetch(s.addr, "POST", s.prefix + "/oauth/signin", urllib.parse.urlencode({"email": email, "password": secret}),
                     headers=form, content_type=None)

    # Throttle: one count per account however the e-mail is spelled.
    statuses = [sign_in("nadia@example.ca", "wrong-" + str(i)).status for i in range(5)]
    padded = [sign_in(spelling, "wrong-again").status for spelling in ("  nadia@example.ca ", "NADIA@Example.CA", "\tNadia@example.ca")]
    check("throttle: five failures lock the account; padding or casing the e-mail gives no extra try",
          statuses == [401] * 5 and padded == [429] * 3, f"{statuses} {padded}")
    omar = sign_in("omar@example.ca", password)
    check("...a person who signs in from this address", omar.status == 303, str(omar))
    # One guesser behind a shared address (a proxy): 5 failures on each of 9 more accounts (50 in all).
    failures = [sign_in(f"guess{i}@example.ca", f"guess-{j}").status for i in range(9) for j in range(5)]
    stranger = sign_in("stranger@example.ca", "anything-at-all")
    again = sign_in("omar@example.ca", password)
    check("throttle: 50 failures from one address lock it for accounts never signed in from there (429)",
          failures == [401] * 45 and stranger.status == 429 and int(stranger.header("retry-after") or 0) > 60,
          f"{failures.count(401)} x 401, then {stranger}")
    check("...but not for the people who use that address: they still sign in", again.status == 303, str(again))
    cookie = (again.header("set-cookie") or "").split(";")[0]

    # Registration: wrong types are 400 invalid_client_metadata, never 500; invisible characters refused.
    redirect = "http://127.0.0.1:9/cb"
    registrations = []

    def register(body, **kw):
        r = s.rest("POST", "/oauth/register", body, **kw)
        registrations.append(r.status)
        return r

    r = register({"client_name": "Appli Auto", "redirect_uris": [redirect], "token_endpoint_auth_method": "none"})
    client = r.json.get("client_id") if r.status == 201 else None
    check("a self-registered public client", bool(client), str(r))
    for label, body in (("token_endpoint_auth_method a number", {"redirect_uris": [redirect], "token_endpoint_auth_method": 5}),
                        ("redirect_uris a string", {"redirect_uris": redirect}),
                        ("redirect_uris holding a number", {"redirect_uris": [redirect, 7]}),
                        ("client_name null", {"redirect_uris": [redirect], "client_name": None})):
        r = register(body)
        check(f"registration with {label}: 400 invalid_client_metadata", r.status == 400 and r.json.get("error") == "invalid_client_metadata", str(r))
    for label, name in (("a zero-width space (U+200B)", "Gestion\u200bPlus"), ("a byte-order mark (U+FEFF)", "\ufeffGestion"),
                        ("a tag character (U+E0041)", "Gestion\U000e0041")):
        r = register({"client_name": name, "redirect_uris": [redirect]})
        check(f"registration refuses {label} in the name", r.status == 400 and r.json.get("error") == "invalid_client_metadata", str(r))
    r = register(b'{"client_name":"Gestion Plus","redirect_uris":["' + redirect.encode() + b'"],"client_name":"Banque"}')
    check("registration refuses a key given twice (which name would be shown?)", r.status == 400 and r.json.get("error") == "invalid_client_metadata", str(r))
    while len(registrations) < 12:
        register({"client_name": "Encore", "redirect_uris": [redirect]})
    check("registration is rate limited: 10 per hour from one address, then 429 with Retry-After",
          registrations[9] == 201 and registrations[10] == 429 and 400 not in registrations[10:] and registrations.count(201) >= 1
          and int(s.rest("POST", "/oauth/register", {"redirect_uris": [redirect]}).header("retry-after") or 0) > 0, str(registrations))

    # A self-registered application gets no redirect without a click on the consent page.
    verifier = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = {"response_type": "code", "client_id": client, "redirect_uri": redirect, "scope": "read:co-owners",
             "state": "s-1", "code_challenge": challenge, "code_challenge_method": "S256"}

    def authorize(params):
        return fetch(s.addr, "GET", s.prefix + "/oauth/authorize?" + urllib.parse.urlencode(params), headers={"Cookie": cookie})

    for change in ({"scope": "read:everything"}, {"response_type": "token"}, {"code_challenge": ""},
                   {"resource": "https://elsewhere.example.org/api"}):
        r = authorize(dict(query, **change))
        check(f"authorize (signed in) for a self-registered app with {change}: an error page, no redirect (RFC 9700, 4.11.2)",
              r.status == 400 and not r.header("location") and "text/html" in (r.header("content-type") or ""), str(r))
    page = authorize(query)
    consent = {html.unescape(a): html.unescape(b) for a, b in re.findall(r'name="([^"]+)" value="([^"]*)"', page.body.decode())}
    r = fetch(s.addr, "POST", s.prefix + "/oauth/authorize", urllib.parse.urlencode(dict(consent, decision="allow")),
              headers=dict(form, Cookie=cookie), content_type=None)
    code = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(r.header("location") or "").query)).get("code")
    check("...after the click on Allow, the redirect with a code", r.status == 303 and bool(code), str(r))
    tokens = fetch(s.addr, "POST", s.prefix + "/oauth/token",
                   urllib.parse.urlencode({"grant_type": "authorization_code", "code": code or "", "redirect_uri": redirect,
                                           "client_id": client, "code_verifier": verifier}), headers=form, content_type=None)
    access = tokens.json.get("access_token", "") if tokens.status == 200 else ""

    # JWT: one spelling per signature. (r, n - s) verifies too; only s <= n/2 is accepted and written.
    n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
    head, body, sig = (access.split(".") + ["", "", ""])[:3]
    raw = base64.urlsafe_b64decode(sig + "=" * (-len(sig) % 4)) if sig else b""
    r_part, s_part = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    other = base64.urlsafe_b64encode(raw[:32] + (n - s_part).to_bytes(32, "big")).rstrip(b"=").decode()
    works = s.rest("GET", "/units", key=access)
    high = s.rest("GET", "/units", key=f"{head}.{body}.{other}" if s_part <= n // 2 else access)
    check("JWT: the token is signed low-S and works", len(raw) == 64 and s_part <= n // 2 and works.status == 200, f"{works} s>n/2: {s_part > n // 2}")
    check("JWT: the same signature spelled high-S (n - s) is refused: 401 invalid_token",
          high.status == 401 and 'error="invalid_token"' in (high.header("www-authenticate") or ""), str(high))
    more = [fetch(s.addr, "POST", s.prefix + "/oauth/token",
                  urllib.parse.urlencode({"grant_type": "refresh_token", "refresh_token": tokens.json.get("refresh_token", ""),
                                          "client_id": client}), headers=form, content_type=None)]
    for _ in range(7):
        more.append(fetch(s.addr, "POST", s.prefix + "/oauth/token",
                          urllib.parse.urlencode({"grant_type": "refresh_token", "refresh_token": more[-1].json.get("refresh_token", ""),
                                                  "client_id": client}), headers=form, content_type=None))
    sigs = [t.json.get("access_token", "..").split(".")[2] for t in more if t.status == 200]
    lows = [int.from_bytes(base64.urlsafe_b64decode(x + "=" * (-len(x) % 4))[32:], "big") <= n // 2 for x in sigs]
    check("JWT: every token signed is low-S (8 refreshes)", len(lows) == 8 and all(lows), str(lows))

    # Duplicate keys at every door over HTTP.
    r = s.mcp(b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_units","arguments":{},"name":"get_fraction_sum"}}',
              key=k["admin"])
    check("/mcp: a key twice in one object is a parse error (400, -32700), nothing run",
          r.status == 400 and r.json.get("error", {}).get("code") == -32700, str(r))
    r = s.mcp(b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_unit","arguments":{"number":"DUP-1","type":"storage","number":"DUP-2"}}}',
              key=k["admin"])
    check("/mcp: a key twice in the tool arguments is a parse error", r.status == 400 and r.json.get("error", {}).get("code") == -32700, str(r))
    r = s.rest("POST", "/units", b'{"number":"DUP-3","type":"storage","number":"DUP-4"}', key=k["admin"])
    listed = s.rest("GET", "/units?search=DUP", key=k["admin"])
    check("REST: a key twice in the body is 400 INVALID_JSON, and nothing was created",
          r.status == 400 and r.json.get("error", {}).get("code") == "INVALID_JSON" and listed.json.get("data") == [], f"{r} / {listed}")
    return s


# ---------------------------------------------------------------------------------------------
# Concurrency


def test_parallel(s, k, demo):
    section("parallel requests")
    threads, per_thread = 8, 50
    acked, problems = [], []
    lock = threading.Lock()
    unit = demo["units"]["201"]["id"]

    def worker(t):
        for i in range(per_thread):
            r = s.rest("POST", "/co-owners", {"firstName": f"T{t}N{i}", "lastName": "Parallèle", "unitId": unit}, key=k["member"])
            with lock:
                if r.status == 201:
                    acked.append(r.json["id"])
                else:
                    problems.append(str(r))
            if i % 10 == 0:
                g = s.rest("GET", "/co-owners?search=Parall%C3%A8le&pageSize=1", key=k["member"])
                if g.status != 200:
                    with lock:
                        problems.append(f"GET: {g}")

    ts = [threading.Thread(target=worker, args=(t,)) for t in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(REQUEST_TIMEOUT * per_thread)
    check(f"{threads} threads x {per_thread} POST /co-owners: all 201, no error", not problems and len(acked) == threads * per_thread,
          f"{len(acked)} created, {len(problems)} problems, first: {problems[:2]}")
    ids = all_co_owners(s, k["admin"], "Parallèle")
    check("...every one of them is in the database, once", ids is not None and sorted(ids) == sorted(acked)
          and len(set(ids)) == len(ids), f"{len(ids or [])} listed, {len(acked)} acknowledged")


def test_with_stdio(s, k, demo, db):
    section("a stdio server and HTTP clients writing the same database")
    rows = 150
    env = dict(ENV, SYNDIC_API_KEY=k["admin"])
    serve = subprocess.Popen([BIN, "serve", "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env)
    stdio_answers, stdio_err = [], []
    unit = demo["units"]["301"]["id"]

    # The two sides are made to overlap, whatever the machine's speed: HTTP starts once stdio has
    # answered its first write, and stdio writes the rest once HTTP has answered its first.
    stdio_first, http_first = threading.Event(), threading.Event()

    def feed():
        try:
            for i in range(rows):
                if i == 1:
                    http_first.wait(60)
                line = json.dumps(tool("create_co_owner", {"firstName": f"S{i}", "lastName": "Stdio-Mixte", "unitId": unit}, id_=i))
                serve.stdin.write(line.encode() + b"\n")
                serve.stdin.flush()
            serve.stdin.close()
        except OSError as e:
            stdio_err.append(repr(e))

    times = {"stdio": [], "http": []}

    def read():
        for raw in serve.stdout:
            stdio_answers.append(json.loads(raw))
            times["stdio"].append(time.monotonic())
            stdio_first.set()

    def drain():
        for raw in serve.stderr:
            if b"error" in raw.lower() or b"busy" in raw.lower() or b"locked" in raw.lower():
                stdio_err.append(raw.decode(errors="replace").strip())

    http_acked, http_problems = [], []
    lock = threading.Lock()

    def http_worker(t):
        stdio_first.wait(60)
        for i in range(40):
            r = s.rest("POST", "/co-owners", {"firstName": f"H{t}N{i}", "lastName": "Http-Mixte", "unitId": unit}, key=k["member"])
            with lock:
                times["http"].append(time.monotonic())
                http_first.set()
                (http_acked.append(r.json["id"]) if r.status == 201 else http_problems.append(str(r)))
            if i % 8 == 0:
                p = s.rest("PATCH", f"/units/{unit}", {"bedrooms": 2 + i % 3}, key=k["member"])
                if p.status != 200:
                    with lock:
                        http_problems.append(f"PATCH: {p}")

    ts = [threading.Thread(target=f) for f in (feed, read, drain)]
    ts += [threading.Thread(target=http_worker, args=(t,)) for t in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    try:
        serve.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        serve.kill()
        serve.wait()
    errors = [a for a in stdio_answers if "error" in a]
    overlap = (times["stdio"] and times["http"] and min(times["stdio"]) < max(times["http"])
               and min(times["http"]) < max(times["stdio"]))
    check("(the stdio and HTTP writes overlapped in time)", overlap,
          "the test did not make them concurrent: the rest of this group proves less than it says")
    check(f"stdio: {rows} create_co_owner answered, no error", len(stdio_answers) == rows and not errors,
          f"{len(stdio_answers)} answers, errors {errors[:2]} {stdio_err[:2]}")
    check("stdio server exits 0 at end of input", serve.returncode == 0, f"status {serve.returncode}")
    check("HTTP at the same time: 160 creates (and unit updates), no error", not http_problems and len(http_acked) == 160,
          f"{len(http_acked)} created, problems {http_problems[:2]}")
    stdio_ids = sorted(a["result"]["structuredContent"]["id"] for a in stdio_answers if "result" in a)
    listed_s = all_co_owners(s, k["admin"], "Stdio-Mixte")
    listed_h = all_co_owners(s, k["admin"], "Http-Mixte")
    check("...no write lost: every stdio row is in the database", listed_s is not None and sorted(listed_s) == stdio_ids,
          f"{len(listed_s or [])} listed, {len(stdio_ids)} answered")
    check("...no write lost: every HTTP row is in the database", listed_h is not None and sorted(listed_h) == sorted(http_acked),
          f"{len(listed_h or [])} listed, {len(http_acked)} acknowledged")


# ---------------------------------------------------------------------------------------------
# Other servers: rate limiting, allow lists, shutdown


def test_rate_limit(db, k):
    section("rate limiting (a second server, --rate-limit 5/min --workers 2)")
    s = start("rate-limited bridge", db, "--rate-limit", "5/min", "--workers", "2")
    if not s:
        return None
    statuses = [s.rest("GET", "/units", key=k["admin"]).status for _ in range(5)]
    check("five requests with one key: 200 each", statuses == [200] * 5, str(statuses))
    r = s.rest("GET", "/units", key=k["admin"])
    ok = expect("the sixth: 429 RATE_LIMITED", r, 429, "RATE_LIMITED")
    retry = r.header("retry-after") or ""
    check("...Retry-After: whole seconds, at least 1 and at most 60",
          ok and retry.isdigit() and 1 <= int(retry) <= 60, str(r))
    check("...retryAfterSeconds in the error", ok and isinstance(error_of(r).get("retryAfterSeconds"), (int, float)), str(r))
    r = s.mcp(tool("list_units", {}, id_=5), key=k["admin"])
    expect_rpc_error("MCP with the same key: 429, JSON-RPC error RATE_LIMITED", r, 429, "RATE_LIMITED", id_=5)
    check("...with Retry-After", (r.header("retry-after") or "").isdigit(), str(r))
    r = s.rest("GET", "/units", key=k["member"])
    expect("another key is unaffected: 200", r, 200)
    statuses = [s.mcp(rpc("tools/list", id_=i)).status for i in range(5)]
    check("five requests without credentials: 200 each (a bucket of their own)", statuses == [200] * 5, str(statuses))
    r = s.mcp(rpc("tools/list", id_=6))
    check("the sixth without credentials: 429 with Retry-After",
          r.status == 429 and (r.header("retry-after") or "").isdigit(), str(r))

    # 14 requests so far, 429s included: one access-log line each.
    access = r"(GET|POST) /api/(units|mcp) (200|429) \d+(\.\d+)?ms key=\S+"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and sum(bool(re.search(access, x)) for x in s.lines) < 14:
        time.sleep(0.1)
    logged = [x for x in s.lines if re.search(access, x)]
    check("access log: one line per request, 429s included (14)", len(logged) == 14,
          f"{len(logged)} lines: {logged[-3:]}")
    check("...the 429s are logged as such", sum(" 429 " in x for x in logged) == 3, str(logged))

    t = start("bridge with --rate-limit 1/s", k["db"], "--rate-limit", "1/s")
    if t:
        first = t.rest("GET", "/units", key=k["admin"])
        second = t.rest("GET", "/units", key=k["admin"])
        check("1/s: a request, then at once another: 200 then 429 with Retry-After: 1",
              first.status == 200 and second.status == 429 and second.header("retry-after") == "1", f"{first} / {second}")
        time.sleep(1.2)
        r = t.rest("GET", "/units", key=k["admin"])
        expect("...after Retry-After seconds, the bucket has refilled: 200", r, 200)
        check("bridge with --rate-limit 1/s: SIGTERM, exit status 0", t.stop() == 0, t.stderr_text()[-300:])
    return s


def test_base_url_and_allow_lists(db, k):
    section("a third server: --base-url, --allow-origin, --allow-host, --modules")
    port = free_port()
    base = "https://syndic.example.org/api"
    s = start("bridge with its own base URL", db, "--base-url", base, "--allow-origin", "https://app.example.org",
              "--allow-origin", "https://board.example.org", "--allow-host", "alias.example.org",
              "--modules", "units", "--rate-limit", "1000/h", listen=f"127.0.0.1:{port}", connect_port=port)
    if not s:
        return None
    check("the serving line shows the given base URL", s.base == base, s.base)
    for host in ("syndic.example.org", "alias.example.org", "localhost", f"127.0.0.1:{port}"):
        r = s.rest("GET", "/units", key=k["admin"], headers={"Host": host})
        expect(f"Host {host}: 200", r, 200)
    r = s.rest("GET", "/units", key=k["admin"], headers={"Host": "other.example.org"})
    expect("Host other.example.org: 403 HOST_NOT_ALLOWED", r, 403, "HOST_NOT_ALLOWED")
    for origin in ("https://syndic.example.org", "https://app.example.org", "https://board.example.org", f"http://localhost:{port}"):
        r = s.rest("GET", "/units", key=k["admin"], headers={"Origin": origin, "Host": "syndic.example.org"})
        check(f"Origin {origin}: 200 with Access-Control-Allow-Origin",
              r.status == 200 and r.header("access-control-allow-origin") == origin, str(r))
    r = s.rest("GET", "/units", key=k["admin"], headers={"Origin": "http://syndic.example.org"})
    expect("Origin http://syndic.example.org (another scheme): 403", r, 403, "ORIGIN_NOT_ALLOWED")
    r = fetch(s.addr, "OPTIONS", "/api/mcp", headers={"Origin": "https://app.example.org",
                                                      "Access-Control-Request-Method": "POST",
                                                      "Access-Control-Request-Headers": "content-type"})
    check("CORS preflight from an --allow-origin: 204",
          r.status == 204 and r.header("access-control-allow-origin") == "https://app.example.org", str(r))
    r = s.mcp(rpc("tools/list"), headers={"Host": "syndic.example.org"})
    tools = result_of(r).get("tools", []) if r.status == 200 else []
    check("--modules units: tools/list offers the 5 unit tools", len(tools) == 5 and all("unit" in t["name"] for t in tools), str(r))
    return s


def test_shutdown(db, k, demo, main):
    section("graceful shutdown")
    s = start("bridge to stop with SIGTERM", db, "--workers", "4")
    if not s:
        return
    acked, problems = [], []
    lock = threading.Lock()
    stop = threading.Event()
    unit = demo["units"]["302"]["id"]

    def worker(t):
        for i in range(400):
            if stop.is_set():
                return
            r = s.rest("POST", "/co-owners", {"firstName": f"A{t}N{i}", "lastName": "Arrêt", "unitId": unit}, key=k["member"])
            with lock:
                if r.status == 201:
                    acked.append(r.json["id"])
                elif r.status != 0:
                    problems.append(str(r))
            if r.status == 0 and s.proc.poll() is not None:
                return

    ts = [threading.Thread(target=worker, args=(t,)) for t in range(6)]
    for t in ts:
        t.start()
    deadline = time.monotonic() + 30
    while len(acked) < 30 and time.monotonic() < deadline and any(t.is_alive() for t in ts):
        time.sleep(0.05)

    # A request whose body is still on its way when the signal arrives.
    body = json.dumps({"firstName": "Lente", "lastName": "Arrêt", "unitId": unit}).encode()
    slow = socket.create_connection(s.addr, timeout=REQUEST_TIMEOUT)
    slow.sendall((f"POST {s.prefix}/co-owners HTTP/1.1\r\nHost: {s.hostport}\r\nAuthorization: Bearer {k['member']}\r\n"
                  f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
                 + body[:10])
    time.sleep(0.5)
    in_flight = len(acked)
    s.proc.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    slow_status, slow_id = None, None
    try:
        slow.sendall(body[10:])
        resp = http.client.HTTPResponse(slow)
        resp.begin()
        data = resp.read()
        slow_status = resp.status
        if resp.status == 201:
            slow_id = json.loads(data)["id"]
    except (OSError, http.client.HTTPException) as e:
        slow_status = repr(e)
    finally:
        slow.close()
    try:
        code = s.proc.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        code = None
    stop.set()
    for t in ts:
        t.join(REQUEST_TIMEOUT)
    check(f"SIGTERM during writes ({in_flight} acknowledged before it): exit status 0 within {STOP_TIMEOUT} s",
          code == 0, f"status {code}, stderr {s.stderr_text()[-400:]!r}")
    if code is None:
        s.kill()
    check("...no request answered with an error", not problems, str(problems[:3]))
    check("...a request whose body was still arriving at the signal is finished: 201", slow_status == 201, str(slow_status))
    r = fetch(s.addr, "GET", s.prefix + "/units", key=k["admin"])
    check("...it no longer accepts connections", r.status == 0, str(r))
    if slow_id:
        acked.append(slow_id)
    ids = all_co_owners(main, k["admin"], "Arrêt")
    check(f"...every one of the {len(acked)} writes answered 2xx is in the database",
          ids is not None and set(acked) <= set(ids), f"{len(set(acked) - set(ids or []))} missing")

    s2 = start("bridge to stop with SIGINT", db)
    if s2:
        r = s2.rest("GET", "/units", key=k["admin"])
        expect("...it serves", r, 200)
        code = s2.stop(signal.SIGINT)
        check("SIGINT: exit status 0", code == 0, f"status {code}")


# ---------------------------------------------------------------------------------------------


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


def main():
    tmp = tempfile.mkdtemp(prefix="syndic-http-")
    db = os.path.join(tmp, "syndic.db")
    servers = []
    try:
        test_command_line(tmp, db)
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

        run(test_mcp, s, k)
        run(test_origin_host, s, k)
        run(test_openapi, s)
        run(test_co_owners, s, k, demo)
        run(test_units, s, k, demo)
        run(test_meetings, s, k, demo, tmp)
        run(test_audit, s, k, demo)
        run(test_registers, s, k, demo)
        run(test_rest_protocol, s, k, tmp)
        run(test_access_log, s, k)
        k["unit_for_queue"] = demo["units"]["302"]["id"]
        run(test_hostile_http, s, k, db)
        run(test_oauth, s, k, db)
        run(test_parallel, s, k, demo)
        run(test_with_stdio, s, k, demo, db)
        servers.append(run(test_oauth_hardening, db, k))
        servers.append(run(test_rate_limit, db, k))
        servers.append(run(test_base_url_and_allow_lists, db, k))
        run(test_shutdown, db, k, demo, s)

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


main()
checks.finish()
