#!/usr/bin/env python3
"""Failures from others never lock a person out, and registrations are counted per client
(issue 28, point 5), through the real executable on loopback.

usage: run_sign_in_sources.py SYNDIC_MCP

A bridge behind a trusted proxy (--trusted-proxy 127.0.0.1: this script is the proxy and names
each client in X-Forwarded-For): a guesser with 12 addresses sends 60 wrong passwords for one
account; each address waits after its own failures (after its first once 50 have come from all of
them), and the account's owner signs in at once, from her usual address and from a new one. A
peer that is not a trusted proxy (127.0.0.2) cannot choose how it is counted with the header.
Registrations: 10 an hour per client, another client still registers; the day's 200 are reached,
then with the clock moved 16 minutes (Debian's faketime) the clients that never completed an
authorization are gone and no longer count, while one that did stays usable.

Python 3 standard library only.
"""
import base64
import hashlib
import html
import http.client
import json
import os
import re
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_support import *  # noqa: E402,F401,F403

PASSWORD = "correct horse battery"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
REDIRECT = "http://127.0.0.1:9/cb"
START = "2026-11-29 12:00:00"
LATER = "2026-11-29 12:16:00"  # 16 minutes on: past an unfinished client's 15


def fetch_from(source, b, method, path, body=None, headers=None):
    """One request from the local address `source` (all of 127.0.0.0/8 is loopback on Linux)."""
    conn = http.client.HTTPConnection(b.addr[0], b.addr[1], timeout=REQUEST_TIMEOUT, source_address=(source, 0))
    try:
        conn.request(method, b.prefix + path, body=body, headers=headers or {})
        r = conn.getresponse()
        return Response(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
    finally:
        conn.close()


def sign_in(b, email, password, client=None, source="127.0.0.1", extra=None):
    headers = dict(FORM, **({"X-Forwarded-For": client} if client else {}), **(extra or {}))
    return fetch_from(source, b, "POST", "/oauth/signin", urllib.parse.urlencode({"email": email, "password": password}), headers)


def register(b, client, name="Appli"):
    body = json.dumps({"client_name": name, "redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none"})
    return fetch_from("127.0.0.1", b, "POST", "/oauth/register", body, {"Content-Type": "application/json", "X-Forwarded-For": client})


def authorize(b, client_id, cookie, client):
    verifier = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "scope": "read:co-owners",
             "state": "s", "code_challenge": challenge, "code_challenge_method": "S256"}
    return fetch_from("127.0.0.1", b, "GET", "/oauth/authorize?" + urllib.parse.urlencode(query),
                      headers={"Cookie": cookie, "X-Forwarded-For": client})


def test_sign_in(b):
    section("sign-in: failures count for the source that made them")
    r = sign_in(b, "nadia@example.ca", PASSWORD, client="198.51.100.7")
    check("the owner signs in from her usual address (303)", r.status == 303, str(r))
    guesses = {}
    for i in range(12):
        address = f"203.0.113.{10 + i}"
        guesses[address] = [sign_in(b, "nadia@example.ca", f"guess-{i}-{j}", client=address).status for j in range(5)]
    first_ten = [guesses[f"203.0.113.{10 + i}"] for i in range(10)]
    check("a guesser's first 10 addresses: 5 wrong passwords each answered 401 (50 in all)",
          all(s == [401] * 5 for s in first_ten), str(first_ten))
    r = sign_in(b, "nadia@example.ca", "guess-6", client="203.0.113.10")
    check("...a sixth from one of them waits: 429 with Retry-After (at most a minute)", r.status == 429 and 0 < int(r.header("retry-after") or 0) <= 61,
          f"{r} {r.header('retry-after')}")
    late = [guesses["203.0.113.20"], guesses["203.0.113.21"]]
    check("...past 50 from all together, a new address waits after its first failure",
          late == [[401, 429, 429, 429, 429]] * 2, str(late))
    r = sign_in(b, "nadia@example.ca", PASSWORD, client="198.51.100.7")
    check("the owner still signs in at once from her usual address (303)", r.status == 303, str(r))
    r = sign_in(b, "nadia@example.ca", PASSWORD, client="192.0.2.44")
    check("...and from an address she never used: her first try is checked (303)", r.status == 303, str(r))
    r = sign_in(b, "nadia@example.ca", PASSWORD, client="203.0.113.10")
    check("...while a guessing address still waits, the right password included (429)", r.status == 429, str(r))

    section("sign-in: only a trusted proxy names the client")
    statuses = [sign_in(b, "omar@example.ca", f"wrong-{j}", client=f"198.18.0.{j}", source="127.0.0.2").status for j in range(6)]
    check("a peer that is not a trusted proxy is counted as itself whatever X-Forwarded-For says: 5 x 401, then 429",
          statuses == [401] * 5 + [429], str(statuses))
    r = sign_in(b, "omar@example.ca", PASSWORD, client="198.18.0.99", source="127.0.0.3")
    check("...and Omar signs in from elsewhere (303)", r.status == 303, str(r))
    r = sign_in(b, "omar@example.ca", "wrong", client="203.0.113.10, 127.0.0.1")
    check("the proxy's own address in the header is skipped: the client before it is counted (still waiting, 429)",
          r.status in (401, 429), str(r))


def test_registrations(b, db):
    section("registrations: per client, and unfinished ones expire")
    first = [register(b, "192.0.2.1").status for _ in range(11)]
    check("10 registrations an hour from one client, the 11th 429", first == [201] * 10 + [429], str(first))
    r = register(b, "192.0.2.2")
    check("...another client behind the same proxy still registers (201)", r.status == 201, str(r))
    kept = r.json.get("client_id") if r.status == 201 else None
    made = 11
    for i in range(3, 40):
        if made >= 200:
            break
        for _ in range(10):
            if made >= 200:
                break
            made += register(b, f"192.0.2.{i}").status == 201
    r = register(b, "192.0.2.250")
    check("the day's 200 registrations reached: the next is 429 temporarily_unavailable",
          made == 200 and r.status == 429 and r.json.get("error") == "temporarily_unavailable", f"{made} made, then {r}")
    # One client completes an authorization: the owner allows it on the consent page.
    signed = sign_in(b, "nadia@example.ca", PASSWORD, client="198.51.100.7")
    cookie = (signed.header("set-cookie") or "").split(";")[0]
    page = authorize(b, kept, cookie, "198.51.100.7")
    fields = {html.unescape(a): html.unescape(v) for a, v in re.findall(r'name="([^"]+)" value="([^"]*)"', page.body.decode())}
    allowed = fetch_from("127.0.0.1", b, "POST", "/oauth/authorize", urllib.parse.urlencode(dict(fields, decision="allow")),
                         dict(FORM, Cookie=cookie, **{"X-Forwarded-For": "198.51.100.7"}))
    check("one of them completes an authorization (a code)", "code=" in (allowed.header("location") or ""), str(allowed))
    return kept, cookie


def main_groups(s, k, demo, tmp, db):
    for email, name in (("nadia@example.ca", "Nadia Haddad"), ("omar@example.ca", "Omar Saïd")):
        cli("users", "create", "--db", db, "--email", email, "--name", name, "--role", "member", stdin=PASSWORD + "\n")
    b = start("bridge behind a trusted proxy, its clock at " + START, db, "--trusted-proxy", "127.0.0.1", clock=START)
    if not b:
        return [s]
    run(test_sign_in, b)
    got = run(test_registrations, b, db)
    code = b.stop()
    check("the bridge stops on SIGTERM (status 0)", code == 0, f"status {code}")
    if not got:
        return [s]
    kept, _ = got
    later = start("the same database 16 minutes later", db, "--trusted-proxy", "127.0.0.1", clock=LATER)
    if not later:
        return [s]
    r = register(later, "192.0.2.250")
    check("16 minutes on, the clients that never completed an authorization no longer count: a registration is 201",
          r.status == 201, str(r))
    listed = subprocess.run(["faketime", LATER, BIN, "clients", "list", "--db", db, "--json"], capture_output=True, text=True, env=ENV)
    ids = [c["clientId"] for c in json.loads(listed.stdout or "[]")] if listed.returncode == 0 else []
    check("clients list: the one that completed an authorization and the new one, not the 199 that never did (and no admin-registered one here)",
          listed.returncode == 0 and kept in ids and len(ids) == 2, f"{len(ids)} listed {listed.stderr[-300:]}")
    signed = sign_in(later, "nadia@example.ca", PASSWORD, client="198.51.100.7")
    cookie = (signed.header("set-cookie") or "").split(";")[0]
    page = authorize(later, kept, cookie, "198.51.100.7")
    check("...and it is still usable: its consent page (200)", page.status == 200 and 'name="decision"' in page.body.decode(), str(page))
    return [s, later]


if __name__ == "__main__":
    main(main_groups)
