#!/usr/bin/env python3
"""The one error path through the real executable (issue 16, points 4, 5 and 6).

Usage: run_error_path_tests.py /path/to/syndic-mcp

- /mcp statuses chosen from the refusals as values: a batch is 401 or 403 (with the challenge)
  only when every message of it was refused for its credentials, else 200;
- a request refused before its message is read echoes the id read by the same bounded parser;
- every door (a stdio line, a /mcp body, a REST body, an OAuth registration body) refuses a key
  given twice, nesting past its limit and a raw NUL the same way as each other, per door;
- --tool-errors result (and SYNDIC_TOOL_ERRORS) over stdio and HTTP: isError results, protocol
  errors still JSON-RPC errors, credential refusals still 401/403 over HTTP;
- tools/list shows the caller's tools (stdio key, HTTP bearer), pages over them, and a hidden
  tool is still refused for its scope, not unknown.
"""
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402
checks.verbose = True

BIN = os.path.abspath(sys.argv[1])
TIMEOUT = 30
ENV = {k: v for k, v in os.environ.items() if k not in ("SYNDIC_API_KEY", "SYNDIC_DB", "SYNDIC_MODULES", "SYNDIC_TOOL_ERRORS")}
ENV["SYNDIC_MODULES"] = "all"  # every module (a server's --modules still overrides it)
CATALOGUE = checks.catalogue(BIN)
ALL_TOOLS = sorted(t["name"] for t in CATALOGUE)


def cli(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60, env=ENV)


def rpc(method, params=None, id_=1):
    m = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        m["params"] = params
    return m


def tool(name, arguments, id_=1):
    return rpc("tools/call", {"name": name, "arguments": arguments}, id_)


class Bridge:
    def __init__(self, db, *options):
        self.proc = subprocess.Popen([BIN, "http", "--db", db, "--listen", "127.0.0.1:0", *options], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
        self.base = None
        deadline = time.monotonic() + 20
        for raw in self.proc.stderr:
            m = re.search(r"serving (http\S+)", raw.decode("utf-8", "replace"))
            if m:
                self.base = m.group(1)
                break
            if time.monotonic() > deadline:
                break
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()
        u = urllib.parse.urlsplit(self.base or "http://127.0.0.1:1/api")
        self.addr, self.prefix = ("127.0.0.1", u.port), u.path.rstrip("/")

    def post(self, path, body, key=None, content_type="application/json"):
        headers = {"Content-Type": content_type, "Accept": "application/json, text/event-stream"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        if not isinstance(body, (bytes, str)):
            body = json.dumps(body)
        conn = http.client.HTTPConnection(*self.addr, timeout=TIMEOUT)
        try:
            conn.request("POST", self.prefix + path, body=body, headers=headers)
            r = conn.getresponse()
            raw = r.read()
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = None
            return r.status, {k.lower(): v for k, v in r.getheaders()}, parsed
        finally:
            conn.close()

    def mcp(self, message, key=None):
        return self.post("/mcp", message, key)

    def stop(self):
        self.proc.terminate()
        return self.proc.wait(timeout=10)


def stdio(db, lines, key=None, *options, env=None):
    """The answers of a stdio server to `lines` (each a message, a str or bytes), parsed."""
    data = b"".join((x if isinstance(x, bytes) else (x if isinstance(x, str) else json.dumps(x)).encode()) + b"\n" for x in lines)
    e = dict(ENV, **(env or {}))
    if key:
        e["SYNDIC_API_KEY"] = key
    p = subprocess.run([BIN, "--db", db, "serve", *options], input=data, capture_output=True, timeout=TIMEOUT, env=e)
    return [json.loads(line) for line in p.stdout.decode().splitlines() if line.strip()]


def listed(pages):
    """Every tool name over the pages of tools/list answers [(answer)...]; None when a page failed."""
    names = []
    for a in pages:
        if not isinstance(a, dict) or "result" not in a:
            return None
        names += [t["name"] for t in a["result"]["tools"]]
    return names


def walk_http(bridge, key):
    names, cursor = [], None
    for i in range(100):
        status, _, a = bridge.mcp(rpc("tools/list", {"cursor": cursor} if cursor else None, id_=i), key)
        if status != 200:
            return None
        names += [t["name"] for t in a["result"]["tools"]]
        cursor = a["result"].get("nextCursor")
        if not cursor:
            return names
    return None


def test_batch_statuses(b, k):
    status, headers, a = b.mcp([tool("list_units", {}, "a"), tool("get_unit", {"id": "x"}, "b")])
    www = headers.get("www-authenticate", "")
    check("a batch of tool calls without credentials: 401 with the challenge, each refused in the array",
          status == 401 and www.startswith('Bearer realm="syndic-mcp"') and isinstance(a, list)
          and sorted(x["id"] for x in a) == ["a", "b"] and all(x["error"]["message"] == "NOT_AUTHENTICATED" for x in a),
          f"{status} {www} {a}")
    status, _, a = b.mcp([rpc("ping", id_="p"), tool("list_units", {}, "c")])
    answers = {x.get("id"): x for x in a} if isinstance(a, list) else {}
    check("a batch of a ping and a call without credentials: 200, the ping answered, the call refused",
          status == 200 and answers.get("p", {}).get("result") == {}
          and answers.get("c", {}).get("error", {}).get("message") == "NOT_AUTHENTICATED", f"{status} {a}")
    status, headers, a = b.mcp([tool("create_unit", {"number": "B-1", "type": "storage"}, 1),
                                tool("create_meeting", {"title": "x", "type": "board", "scheduledAt": "2030-01-01T10:00:00Z"}, 2)],
                               k["reader"])
    www = headers.get("www-authenticate", "")
    check("a batch where every call lacks a scope: 403, insufficient_scope naming both scopes",
          status == 403 and 'error="insufficient_scope"' in www and 'scope="write:co-owners write:meetings"' in www
          and isinstance(a, list) and len(a) == 2, f"{status} {www} {a}")
    status, headers, a = b.mcp([tool("list_units", {}, 1), tool("create_unit", {"number": "B-2", "type": "storage"}, 2)], k["reader"])
    check("a batch with a result and a scope refusal: 200, no challenge (the result is real work)",
          status == 200 and "www-authenticate" not in headers and isinstance(a, list) and len(a) == 2, f"{status} {a}")
    status, headers, a = b.mcp([tool("get_unit", {"id": "nope"}, 1), tool("delete_co_owner", {"id": "x"}, 2)], k["member"])
    check("a batch of refusals no token cures (UNIT_NOT_FOUND, ADMIN_REQUIRED): 200", status == 200 and "www-authenticate" not in headers,
          f"{status} {a}")
    status, headers, a = b.mcp(tool("delete_co_owner", {"id": "x"}, 3), k["member"])
    check("one ADMIN_REQUIRED: 200 with the JSON-RPC error", status == 200 and a["error"]["message"] == "ADMIN_REQUIRED", f"{status} {a}")


def test_refused_id_echo(b):
    bogus = "sk_" + "Q" * 43
    status, _, a = b.mcp(rpc("ping", id_=41), bogus)
    check("refused before the message is read (unknown key): 401, its id echoed", status == 401 and a.get("id") == 41, f"{status} {a}")
    status, _, a = b.mcp(b'{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}', bogus)
    check("...a body with the id twice: id null, as the message itself would be a parse error",
          status == 401 and a.get("id", "absent") is None, f"{status} {a}")
    status, _, a = b.mcp(b'{"jsonrpc":"2.0","id":3,"method":"ping"}\x00', bogus)
    check("...a body with a raw NUL: id null", status == 401 and a.get("id", "absent") is None, f"{status} {a}")


def hostile_bodies(wrap):
    """Three bodies each door must refuse: a key twice, nesting past 64, a raw NUL."""
    deep = b"[" * 70 + b"]" * 70
    return [("a key twice", wrap(b'"x":1,"x":2')), ("nesting 70 deep", wrap(b'"x":' + deep)), ("a raw NUL", wrap(b'"x":"a\x00b"'))]


def test_doors(db, b, k):
    def message(members):
        return b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_units","arguments":{' + members + b"}}}"

    answers = stdio(db, [body for _, body in hostile_bodies(message)], k["admin"])
    check("stdio: a key twice, nesting past the limit, a raw NUL: each -32700 with id null",
          len(answers) == 3 and all(x.get("error", {}).get("code") == -32700 and x.get("id", "absent") is None for x in answers),
          str(answers))
    for label, body in hostile_bodies(message):
        status, _, a = b.mcp(body, k["admin"])
        check(f"/mcp: {label}: 400, -32700, id null", status == 400 and a["error"]["code"] == -32700 and a["id"] is None, f"{status} {a}")
    for label, body in hostile_bodies(lambda m: b'{"number":"D-1","type":"storage",' + m + b"}"):
        status, _, a = b.post("/units", body, k["admin"])
        check(f"REST body: {label}: 400 INVALID_JSON", status == 400 and a["error"]["code"] == "INVALID_JSON", f"{status} {a}")
    for label, body in hostile_bodies(lambda m: b'{"redirect_uris":["http://127.0.0.1:9/cb"],' + m + b"}"):
        status, _, a = b.post("/oauth/register", body)
        check(f"OAuth registration body: {label}: 400 invalid_client_metadata",
              status == 400 and a.get("error") == "invalid_client_metadata", f"{status} {a}")


def test_tool_errors(db, k):
    def refused(a):
        r = a.get("result", {})
        content = r.get("content", [])
        return r.get("isError") is True and "structuredContent" not in r and len(content) == 2 and content[0]["text"]

    answers = stdio(db, [tool("get_unit", {"id": "nope"}, 1), tool("launch_rocket", {}, 2), tool("list_units", {}, 3)],
                    k["admin"], "--tool-errors", "result")
    text = refused(answers[0]) if answers else None
    check("stdio --tool-errors result: a refusal is an isError result, 'CODE: explanation (field ...)'",
          bool(text) and text.startswith("UNIT_NOT_FOUND: ") and "(field /id)" in text, str(answers[:1]))
    check("...its JSON (code, detail, field) in the second text block",
          bool(text) and json.loads(answers[0]["result"]["content"][1]["text"]).get("code") == "UNIT_NOT_FOUND", str(answers[:1]))
    check("...an unknown tool is still a JSON-RPC error (-32602)", len(answers) > 1 and answers[1].get("error", {}).get("code") == -32602,
          str(answers[1:2]))
    check("...a success is unchanged", len(answers) > 2 and "structuredContent" in answers[2].get("result", {}), str(answers[2:3]))
    answers = stdio(db, [tool("get_unit", {"id": "nope"})], k["admin"], env={"SYNDIC_TOOL_ERRORS": "result"})
    check("SYNDIC_TOOL_ERRORS=result does the same", bool(answers) and bool(refused(answers[0])), str(answers))
    answers = stdio(db, [tool("get_unit", {"id": "nope"})], k["admin"])
    check("by default a refusal stays a JSON-RPC error", bool(answers) and answers[0].get("error", {}).get("message") == "UNIT_NOT_FOUND",
          str(answers))
    p = subprocess.run([BIN, "--db", db, "serve", "--tool-errors", "text"], input=b"", capture_output=True, timeout=TIMEOUT, env=ENV)
    check("--tool-errors text: a usage error naming the choices", p.returncode != 0 and b"jsonrpc,result" in p.stderr, str(p.stderr))

    b = Bridge(db, "--tool-errors", "result")
    if not check("http --tool-errors result: the bridge starts", b.base is not None):
        return b.stop()
    try:
        status, headers, a = b.mcp(tool("get_unit", {"id": "nope"}), k["admin"])
        check("http --tool-errors result: a refusal is 200 with an isError result", status == 200 and bool(refused(a)), f"{status} {a}")
        status, headers, a = b.mcp(tool("delete_co_owner", {"id": "x"}), k["member"])
        check("...ADMIN_REQUIRED too (200, isError)", status == 200 and bool(refused(a)), f"{status} {a}")
        status, headers, a = b.mcp(tool("create_unit", {"number": "T-1", "type": "storage"}), k["reader"])
        check("...a missing scope stays 403 with the challenge and a JSON-RPC error",
              status == 403 and 'insufficient_scope' in headers.get("www-authenticate", "")
              and a.get("error", {}).get("message") == "INSUFFICIENT_SCOPE", f"{status} {a}")
        status, headers, a = b.mcp(tool("list_units", {}))
        check("...no credentials stays 401 with the challenge", status == 401 and "www-authenticate" in headers, f"{status} {a}")
    finally:
        b.stop()


def test_tools_list(db, b, k):
    readable = sorted(t["name"] for t in CATALOGUE if t["scope"] == "read:co-owners" and not t.get("adminOnly"))
    answers = stdio(db, [rpc("tools/list")], k["reader"])
    check("stdio with a read:co-owners member key: tools/list shows only its tools",
          sorted(listed(answers) or []) == readable and readable, f"{listed(answers)} vs {readable}")
    answers = stdio(db, [rpc("tools/list")], k["admin"])
    check("stdio with an admin key: every tool", sorted(listed(answers) or []) == ALL_TOOLS, str(listed(answers)))
    answers = stdio(db, [rpc("tools/list")])
    check("stdio without a key: every tool", sorted(listed(answers) or []) == ALL_TOOLS, str(listed(answers)))
    answers = stdio(db, [rpc("tools/list")], "sk_" + "Z" * 43)
    check("stdio with an unknown key: every tool (the calls say NOT_AUTHENTICATED)", sorted(listed(answers) or []) == ALL_TOOLS)
    answers = stdio(db, [rpc("tools/list"), rpc("tools/list", {"cursor": "2"}, 2), tool("create_unit", {"number": "H", "type": "storage"}, 3)],
                    k["reader"], "--tools-page-size", "2")
    two_pages = listed(answers[:2]) or []
    check("stdio pages of 2 over the filtered list: the first two pages, four of its tools",
          len(answers) == 3 and answers[0]["result"].get("nextCursor") == "2" and len(two_pages) == 4
          and len(set(two_pages)) == 4 and set(two_pages) <= set(readable), str(answers[:2]))
    check("...a hidden tool called anyway: INSUFFICIENT_SCOPE, not UNKNOWN_TOOL",
          answers[2].get("error", {}).get("message") == "INSUFFICIENT_SCOPE", str(answers[2:]))

    check("http with a read:co-owners bearer: only its tools", sorted(walk_http(b, k["reader"]) or []) == readable)
    member = walk_http(b, k["member"]) or []
    check("http with a member bearer: no admin-only tool", "delete_co_owner" not in member and "get_unit" in member, str(member))
    check("http without Authorization: every tool", sorted(walk_http(b, None) or []) == ALL_TOOLS)
    paged = Bridge(db, "--tools-page-size", "3")
    if not check("http --tools-page-size 3: the bridge starts", paged.base is not None):
        return paged.stop()
    try:
        names = walk_http(paged, k["reader"])
        check("http pages of 3 over the filtered list: each tool once", names is not None and sorted(names) == readable
              and len(names) == len(set(names)), str(names))
    finally:
        paged.stop()


def main():
    tmp = tempfile.mkdtemp(prefix="syndic-errors-")
    db = os.path.join(tmp, "syndic.db")
    r = cli("demo", "--json", "--db", db)
    if not check("demo --json makes the database", r.returncode == 0, r.stderr):
        return
    k = {"admin": json.loads(r.stdout)["apiKey"]}
    k["member"] = json.loads(cli("keys", "create", "--db", db, "--role", "member", "--name", "member", "--json").stdout)["apiKey"]
    k["reader"] = json.loads(cli("keys", "create", "--db", db, "--role", "member", "--scopes", "read:co-owners",
                                 "--name", "reader", "--json").stdout)["apiKey"]
    cli("tick", "--db", db)  # the bridge's own tick at start then finds nothing new to write
    before = checks.every_row(db)
    b = Bridge(db)
    check("the bridge starts", b.base is not None)
    try:
        test_batch_statuses(b, k)
        test_refused_id_echo(b)
        test_doors(db, b, k)
        test_tool_errors(db, k)
        test_tools_list(db, b, k)
    finally:
        check("the bridge stops cleanly", b.stop() == 0)
    after = checks.every_row(db)
    changed = {t for t in set(before) | set(after) if before.get(t) != after.get(t) and not t.startswith("audit")}
    check("nothing refused changed the database (only keys' last use)", changed <= {"api_keys", "oauth_clients"}, str(changed))
    import shutil
    shutil.rmtree(tmp, ignore_errors=True)


main()
checks.finish()
