#!/usr/bin/env python3
"""A stdio server keeps its API key's caller between calls (auth/key_caller_cache), and still
refuses a key on the very next call once `syndic-mcp keys revoke` has revoked it from another
process while the server runs. A key created or revoked beside it changes nothing for its own.

usage: run_revocation_tests.py SYNDIC_MCP
"""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402

BIN = sys.argv[1]


def run(*args, env):
    return subprocess.run([BIN, *args], env=env, capture_output=True, text=True, timeout=60)


class Server:
    def __init__(self, env, key):
        self.proc = subprocess.Popen([BIN, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=dict(env, SYNDIC_API_KEY=key))
        self.next_id = 1

    def call(self, tool, arguments):
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                   "params": {"name": tool, "arguments": arguments}}
        self.next_id += 1
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def refused(answer):
    return answer.get("error", {}).get("message") == "NOT_AUTHENTICATED"


with tempfile.TemporaryDirectory() as tmp:
    env = dict(os.environ, SYNDIC_DB=os.path.join(tmp, "s.db"))
    made = run("init", "--name", "Les Érables", "--json", env=env)
    check("init gives a key", made.returncode == 0, made.stderr)
    key = json.loads(made.stdout)["apiKey"]
    server = Server(env, key)
    for _ in range(3):
        answer = server.call("list_co_owners", {})
        check("the key is accepted call after call", "result" in answer, str(answer)[:300])

    other = json.loads(run("keys", "create", "--name", "other", "--json", env=env).stdout)
    answer = server.call("list_co_owners", {})
    check("a key created by another process leaves the server's key valid", "result" in answer, str(answer)[:300])
    revoked = run("keys", "revoke", other["apiKeyId"], env=env)
    check("keys revoke revokes the other key", revoked.returncode == 0, revoked.stderr)
    answer = server.call("list_co_owners", {})
    check("...and the server's own key stays valid", "result" in answer, str(answer)[:300])

    keys = json.loads(run("keys", "list", "--json", env=env).stdout)
    own = [k["apiKeyId"] for k in keys if k["apiKeyId"] != other["apiKeyId"]]
    check("keys list shows the server's key", len(own) == 1, str(keys))
    revoked = run("keys", "revoke", own[0], env=env)
    check("keys revoke, from another process while the server runs", revoked.returncode == 0, revoked.stderr)
    answer = server.call("list_co_owners", {})
    check("the revoked key is refused on the very next call", refused(answer), str(answer)[:300])
    answer = server.call("get_co_owner", {"id": "00000000-0000-4000-8000-000000000000"})
    check("...and on every call after it", refused(answer), str(answer)[:300])
    check("the server ends cleanly", server.close() == 0)

checks.finish()
