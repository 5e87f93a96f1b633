#!/usr/bin/env python3
"""The HTTP bridge under concurrent writers and at shutdown, as a black box on 127.0.0.1.

usage: run_http_concurrency.py SYNDIC_MCP

Parallel requests; a stdio server and HTTP clients writing the same database; graceful shutdown on
SIGTERM and SIGINT with requests in flight. One line per check, then "N passed, M failed".
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_support import *  # noqa: E402,F401,F403 (the shared harness)


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


def groups(s, k, demo, tmp, db):
    run(test_parallel, s, k, demo)
    run(test_with_stdio, s, k, demo, db)
    run(test_shutdown, db, k, demo, s)


main(groups)
