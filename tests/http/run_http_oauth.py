#!/usr/bin/env python3
"""The HTTP bridge's OAuth 2.1, as a black box through real HTTP on 127.0.0.1.

usage: run_http_oauth.py SYNDIC_MCP

Discovery, registration, sign-in, consent, tokens and their refusals on the demo's bridge; then a
second server for the hardening (throttles per account and address, consent-only redirects,
registration limits, low-S signatures, duplicate keys). One line per check, then "N passed, M failed".
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_support import *  # noqa: E402,F401,F403 (the shared harness)


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


def groups(s, k, demo, tmp, db):
    run(test_oauth, s, k, db)
    return [run(test_oauth_hardening, db, k)]


main(groups)
