#!/usr/bin/env python3
"""The HTTP bridge's guards, as a black box through real HTTP on 127.0.0.1.

usage: run_http_limits.py SYNDIC_MCP

Origin and Host checks (DNS rebinding) and CORS preflights; REST credentials, routing and sizes
(401, 403, 404, 405, 413); the access log; hostile HTTP (ranges, chunked and compressed bodies,
HEAD, forged log lines, a lone worker); rate limiting on a second server; a third server with its
own base URL and allow lists. One line per check, then "N passed, M failed".
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_support import *  # noqa: E402,F401,F403 (the shared harness)


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


def groups(s, k, demo, tmp, db):
    run(test_origin_host, s, k)
    run(test_rest_protocol, s, k, tmp)
    run(test_access_log, s, k)
    k["unit_for_queue"] = demo["units"]["302"]["id"]
    run(test_hostile_http, s, k, db)
    return [run(test_rate_limit, db, k), run(test_base_url_and_allow_lists, db, k)]


main(groups)
