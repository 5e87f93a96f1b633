"""The README's OAuth walk-through through the real executable: a user and a client are made with
the CLI, the bridge runs, examples/oauth_login.py waits for the answer, and this test plays the
person in the browser with plain HTTP (sign-in form, consent, the redirect to the loopback
callback). The token the example prints then calls a REST route and a tool.

Usage: python3 tests/examples/oauth_walkthrough.py <syndic-mcp> <examples/oauth_login.py>
"""
import html
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402
checks.verbose = True  # one line per check

BIN, LOGIN = sys.argv[1], sys.argv[2]



def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(url, method="GET", body=None, headers=None):
    u = urllib.parse.urlparse(url)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=20)
    c.request(method, u.path + ("?" + u.query if u.query else ""), body=body, headers=headers or {})
    r = c.getresponse()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode()


def fields(page):
    return {html.unescape(a): html.unescape(b) for a, b in re.findall(r'name="([^"]+)" value="([^"]*)"', page)}


tmp = tempfile.mkdtemp(prefix="syndic-oauth-walk-")
env = dict(os.environ, SYNDIC_DB=os.path.join(tmp, "syndic.db"), HOME=tmp)
run = lambda *a, stdin=None: subprocess.run([BIN, *a], env=env, input=stdin, capture_output=True, text=True, timeout=60)
run("demo")
r = run("users", "create", "--email", "marie@example.ca", "--name", "Marie Tremblay", "--role", "admin", stdin="correct horse battery\n")
check("users create", r.returncode == 0, r.stderr)
port = free_port()
r = run("clients", "create", "--name", "Mon intégration", "--redirect-uri", f"http://127.0.0.1:{port}/callback")
client = r.stdout.strip()
check("clients create prints the client_id", r.returncode == 0 and len(client) == 36, r.stderr)

bridge = subprocess.Popen([BIN, "http", "--listen", "127.0.0.1:0"], env=env, stderr=subprocess.PIPE, text=True)
api = None
for line in bridge.stderr:
    m = re.search(r"serving (http\S+)", line)
    if m:
        api = m.group(1)
        break
login = subprocess.Popen([sys.executable, LOGIN, "--api", api, "--client-id", client, "--port", str(port), "--no-browser"],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
try:
    address = None
    for line in login.stderr:
        if line.startswith("http"):
            address = line.strip()
            break
    check("oauth_login.py prints the address to open", address and "/oauth/authorize?" in address, address)
    origin = {"Origin": api.rsplit("/api", 1)[0], "Content-Type": "application/x-www-form-urlencoded"}
    status, _, page = request(address)
    check("the browser sees the sign-in page (French)", status == 200 and "Connexion" in page and "Mon intégration" in page, page[:300])
    status, headers, _ = request(api + "/oauth/signin", "POST",
                                 urllib.parse.urlencode(dict(fields(page), email="marie@example.ca", password="correct horse battery")),
                                 origin)
    cookie = headers.get("set-cookie", "").split(";")[0]
    check("signing in sets the session cookie", status == 303 and cookie.startswith("syndic_session="), headers)
    status, _, page = request(urllib.parse.urljoin(api, headers["location"]), headers={"Cookie": cookie})
    check("the consent page names the app and the scopes", status == 200 and "Autoriser" in page and "read:co-owners" in page, page[:300])
    status, headers, _ = request(api + "/oauth/authorize", "POST", urllib.parse.urlencode(dict(fields(page), decision="allow")),
                                 dict(origin, Cookie=cookie))
    callback = headers.get("location", "")
    check("Allow sends the browser to the loopback callback", status == 303 and callback.startswith(f"http://127.0.0.1:{port}/callback?code="), callback)
    status, _, page = request(callback)
    check("the example's callback page thanks the person", status == 200 and "Connexion réussie" in page, page)
    out, err = login.communicate(timeout=30)
    token = out.strip()
    check("oauth_login.py prints the access token", login.returncode == 0 and token.count(".") == 2, err)
    status, _, body = request(api + "/co-owners?pageSize=2", headers={"Authorization": "Bearer " + token})
    check("curl -H 'Authorization: Bearer $TOKEN' $API/co-owners works", status == 200 and json.loads(body)["pagination"]["total"] == 8, body[:200])
    status, _, body = request(api + "/mcp", "POST", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                                                "params": {"name": "get_fraction_sum", "arguments": {}}}),
                              {"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    check("...and tools/call on the MCP endpoint", status == 200 and json.loads(body)["result"]["structuredContent"]["sum"] == 100, body[:200])
finally:
    login.kill()
    bridge.terminate()
    bridge.wait(10)
checks.finish()
