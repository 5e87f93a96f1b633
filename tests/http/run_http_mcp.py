#!/usr/bin/env python3
"""The HTTP bridge's command line and MCP endpoint, as a black box through real HTTP on 127.0.0.1.

usage: run_http_mcp.py SYNDIC_MCP

`http --help`, a missing database, a bad --rate-limit; then on the demo's bridge: POST <base>/mcp
(initialize, ping, notifications, tools/list, tools/call, batches, parse errors, protocol-version
and Accept headers, GET) and the OpenAPI document. One line per check, then "N passed, M failed".
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_support import *  # noqa: E402,F401,F403 (the shared harness)


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
    check("a JSON answer says nosniff and no-store (issue 28, point 8)",
          r.header("X-Content-Type-Options") == "nosniff" and r.header("Cache-Control") == "no-store", str(r))
    g = s.rest("GET", "/units", key=k["admin"])
    check("...a REST answer too", g.header("X-Content-Type-Options") == "nosniff" and g.header("Cache-Control") == "no-store", str(g))
    r = s.mcp(rpc("ping", id_="p-1"), headers={"MCP-Protocol-Version": "2025-06-18"})
    check("MCP-Protocol-Version 2025-06-18 is accepted", r.status == 200 and isinstance(r.json, dict) and r.json.get("id") == "p-1", str(r))
    r = s.mcp(rpc("ping"), headers={"MCP-Protocol-Version": "1999-01-01"})
    check("MCP-Protocol-Version 1999-01-01: 400", r.status == 400, str(r))

    r = s.mcp(rpc("tools/list", id_=2))
    tools = result_of(r).get("tools", []) if r.status == 200 else []
    names = sorted(t.get("name") for t in tools)
    check("tools/list without credentials: every tool of the registry with its schema",
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


def groups(s, k, demo, tmp, db):
    run(test_mcp, s, k)
    run(test_openapi, s)


main(groups, before=test_command_line)
