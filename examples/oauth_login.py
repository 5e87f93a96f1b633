#!/usr/bin/env python3
"""Signs in to a syndic-mcp HTTP bridge the way a desktop application does (OAuth 2.1, PKCE S256,
a loopback redirect): prints an address to open in a browser, waits on 127.0.0.1 for the answer,
exchanges the code and prints the access token on stdout (messages go to stderr).

  TOKEN=$(python3 examples/oauth_login.py --api http://127.0.0.1:8080/api --client-id CLIENT_ID)
  curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/api/co-owners

The client must have been registered with the redirect URI http://127.0.0.1:<port>/callback
(`syndic-mcp clients create --name "..." --redirect-uri http://127.0.0.1:8765/callback`).
Python 3 standard library only.
"""
import argparse
import base64
import hashlib
import http.server
import json
import secrets
import sys
import urllib.parse
import urllib.request
import webbrowser


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--api", required=True, help="the bridge's base URL, e.g. http://127.0.0.1:8080/api")
    p.add_argument("--client-id", required=True, help="the client_id printed by `syndic-mcp clients create`")
    p.add_argument("--port", type=int, default=8765, help="the loopback port of the registered redirect URI (8765)")
    p.add_argument("--scope", default="", help="space-separated scopes (default: every scope)")
    p.add_argument("--no-browser", action="store_true", help="only print the address to open")
    p.add_argument("--json", action="store_true", help="print the whole token answer (with the refresh token)")
    args = p.parse_args()
    api = args.api.rstrip("/")
    redirect_uri = f"http://127.0.0.1:{args.port}/callback"

    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    state = secrets.token_urlsafe(16)
    query = {"response_type": "code", "client_id": args.client_id, "redirect_uri": redirect_uri, "state": state,
             "code_challenge": challenge, "code_challenge_method": "S256", "resource": api}
    if args.scope:
        query["scope"] = args.scope
    address = f"{api}/oauth/authorize?" + urllib.parse.urlencode(query)

    answer = {}

    class Callback(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            url = urllib.parse.urlparse(self.path)
            if url.path != "/callback":
                self.send_error(404)
                return
            answer.update(urllib.parse.parse_qsl(url.query))
            ok = answer.get("state") == state and "code" in answer
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            text = ("Connexion réussie : vous pouvez fermer cette page. / Signed in: you may close this page." if ok
                    else "La connexion a échoué. / Signing in failed: " + answer.get("error", "wrong state"))
            self.wfile.write(f"<!DOCTYPE html><meta charset=utf-8><p>{text}</p>".encode())

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", args.port), Callback)
    print(f"Open this address in your browser to sign in and allow access:\n{address}", file=sys.stderr, flush=True)
    if not args.no_browser:
        webbrowser.open(address)
    while not answer:
        server.handle_request()
    server.server_close()

    if answer.get("state") != state:
        sys.exit("oauth_login: the answer's state is not ours; nothing exchanged")
    if "error" in answer:
        sys.exit(f"oauth_login: {answer['error']}: {answer.get('error_description', '')}")
    if answer.get("iss", api) != api:
        sys.exit(f"oauth_login: the answer comes from {answer['iss']}, not {api}")
    form = urllib.parse.urlencode({"grant_type": "authorization_code", "code": answer["code"], "redirect_uri": redirect_uri,
                                   "client_id": args.client_id, "code_verifier": verifier}).encode()
    request = urllib.request.Request(f"{api}/oauth/token", data=form,
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request) as r:
            tokens = json.load(r)
    except urllib.error.HTTPError as e:
        sys.exit(f"oauth_login: the token endpoint refused: {e.read().decode()}")
    print(f"Signed in: scopes {tokens.get('scope')}, the access token lasts {tokens.get('expires_in')} s.", file=sys.stderr)
    print(json.dumps(tokens) if args.json else tokens["access_token"])


if __name__ == "__main__":
    main()
