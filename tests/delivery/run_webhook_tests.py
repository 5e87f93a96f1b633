#!/usr/bin/env python3
"""Webhooks to a local receiver (issue 18): co_owner.created events posted by `syndic-mcp deliver` and
by the HTTP bridge, each signed (Syndic-Signature verified with the secret create_webhook showed
once), retried on 500 in order per record, nothing for a refused call, a webhook paused after 50
failures in a row, a rotated secret signing beside the old one for a day, and the SSRF refusals.

usage: run_webhook_tests.py SYNDIC_MCP"""
import hashlib
import hmac
import http.server
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, finish  # noqa: E402

BIN = os.path.abspath(sys.argv[1])


class Receiver:
    """A real HTTP server on loopback that keeps every POST; answers `status` (200 unless told)."""

    def __init__(self):
        self.posts = []
        self.status = 200
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.posts.append({"headers": dict(self.headers), "body": body, "answered": outer.status})
                self.send_response(outer.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path="/hook"):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def events(self):
        return [json.loads(p["body"]) for p in self.posts]


def run(env, *args):
    return subprocess.run([BIN, *args], env=env, capture_output=True, text=True, timeout=120)


def call(env, key, tool, arguments, *options):
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    out = subprocess.run([BIN, "serve", "--modules", "all", *options], env=dict(env, SYNDIC_API_KEY=key),
                         input=request + "\n", capture_output=True, text=True, timeout=60).stdout
    answer = json.loads(out.splitlines()[0])
    if "result" in answer:
        return json.loads(answer["result"]["content"][0]["text"])
    return {"error": answer["error"]["message"], "data": answer["error"].get("data", {})}


def signed_by(post, secret):
    header = post["headers"]["Syndic-Signature"]
    parts = dict(p.split("=", 1) for p in header.split(",") if p.startswith("t="))
    given = [p.split("=", 1)[1] for p in header.split(",") if p.startswith("v1=")]
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + post["body"], hashlib.sha256).hexdigest()
    return expected in given


def deliveries(db, where="1"):
    with sqlite3.connect(db) as c:
        return [dict(zip(("event_type", "status", "attempt", "response_status"), r)) for r in
                c.execute("SELECT event_type, status, attempt, response_status FROM webhook_deliveries WHERE %s "
                          "ORDER BY event_seq" % where)]


def main():
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "syndic.db")
        # The receiver is on this machine: the operator's opt-in (--allow-loopback-webhooks).
        env = dict(os.environ, SYNDIC_DB=db, SYNDIC_ALLOW_LOOPBACK_WEBHOOKS="1")
        key = run(env, "demo").stdout.strip()
        units = call(env, key, "list_units", {})["data"]
        receiver = Receiver()

        made = call(env, key, "create_webhook", {"url": receiver.url(), "events": ["co-owners.*"], "description": "test"})
        secret = made.get("secret", "")
        check("create_webhook shows the secret once (whsec_...)", secret.startswith("whsec_") and len(secret) > 40, json.dumps(made))
        hook = made["webhook"]
        check("...the webhook keeps only its prefix", hook["secretPrefix"] == secret[:12] and
              secret not in json.dumps(call(env, key, "list_webhooks", {})))

        people = [call(env, key, "create_co_owner", {"unitId": units[0]["id"], "firstName": "Nouvelle%d" % i,
                                                    "lastName": "Copropriétaire"}) for i in range(3)]
        refused = call(env, key, "create_co_owner", {"unitId": units[0]["id"], "firstName": "X", "lastName": "Y",
                                                    "email": "not-an-address"})
        check("a refused call is refused", refused.get("error") == "INVALID_EMAIL", json.dumps(refused))
        check("...and queues no delivery", len(deliveries(db)) == 3, str(deliveries(db)))

        r = run(env, "deliver", "--once")
        check("deliver --once posts the three events and exits 0", r.returncode == 0 and "3 delivered" in r.stdout,
              r.stdout + r.stderr)
        events = receiver.events()
        check("the receiver got three co_owner.created, in order",
              [e["type"] for e in events] == ["co_owner.created"] * 3 and
              [e["recordId"] for e in events] == [p["id"] for p in people], str([e.get("type") for e in events]))
        check("each is signed with the secret (HMAC-SHA256 of t.body)", all(signed_by(p, secret) for p in receiver.posts))
        check("...and not with another secret", not signed_by(receiver.posts[0], secret + "x"))
        first = receiver.posts[0]
        check("Syndic-Event-Id and Syndic-Event-Type name the event",
              first["headers"]["Syndic-Event-Id"] == events[0]["id"] and first["headers"]["Syndic-Event-Type"] == "co_owner.created")
        check("the envelope: apiVersion, syndicate, actor, tool, the record as created",
              events[0]["apiVersion"] == "2026-11" and events[0]["actor"]["kind"] == "api-key" and
              events[0]["tool"] == "create_co_owner" and events[0]["data"]["firstName"] == "Nouvelle0", json.dumps(events[0]))

        # A receiver that fails: retried later, and a later event of the same record waits its turn.
        receiver.status = 500
        call(env, key, "update_co_owner", {"id": people[0]["id"], "phone": "+15145550199"})
        call(env, key, "update_co_owner", {"id": people[0]["id"], "phone": "+15145550198"})
        run(env, "deliver", "--once")
        rows = deliveries(db, "event_type = 'co_owner.updated'")
        check("a 500 leaves the delivery failed (attempt 1, status 500), a retry due",
              rows[0]["status"] == "failed" and rows[0]["attempt"] == 1 and rows[0]["response_status"] == 500, str(rows))
        check("...and the record's next event is not posted before it", rows[1]["status"] == "pending" and
              len(receiver.posts) == 4, str(rows))
        run(env, "deliver", "--once")
        check("...nor retried before its time", len(receiver.posts) == 4)
        receiver.status = 200
        with sqlite3.connect(db) as c:
            c.execute("UPDATE webhook_deliveries SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE status = 'failed'")
        run(env, "deliver", "--once")
        phones = [e["data"]["phone"] for e in receiver.events()[4:]]
        check("once the receiver answers, both go, in the record's order (same event id retried)",
              phones == ["+15145550199", "+15145550198"] and receiver.posts[3]["headers"]["Syndic-Event-Id"] ==
              receiver.posts[4]["headers"]["Syndic-Event-Id"], str(phones))
        listed = call(env, key, "list_webhook_deliveries", {"webhookId": hook["id"], "status": "succeeded"})
        check("list_webhook_deliveries shows them succeeded", listed["pagination"]["total"] == 5, json.dumps(listed)[:300])

        # 50 failures in a row pause the webhook.
        receiver.status = 503
        with sqlite3.connect(db) as c:
            c.execute("UPDATE webhooks SET consecutive_failures = 49 WHERE id = ?", (hook["id"],))
        call(env, key, "update_co_owner", {"id": people[1]["id"], "phone": "+15145550111"})
        run(env, "deliver", "--once")
        hooks = [h for h in call(env, key, "list_webhooks", {})["data"] if h["id"] == hook["id"]]
        check("the 50th failure in a row pauses the webhook", hooks and hooks[0]["active"] is False and hooks[0]["pausedAt"],
              json.dumps(hooks))
        failed = call(env, key, "list_webhook_deliveries", {"status": "failed"})["data"][0]
        check("redelivering to a paused webhook is refused (WEBHOOK_INACTIVE)",
              call(env, key, "redeliver_webhook_delivery", {"id": failed["id"]}).get("error") == "WEBHOOK_INACTIVE")
        resumed = call(env, key, "update_webhook", {"id": hook["id"], "active": True, "rotateSecret": True})
        check("resuming resets the failures; rotating shows a new secret once",
              resumed["webhook"]["active"] and resumed["webhook"]["consecutiveFailures"] == 0 and
              resumed.get("secret", secret) != secret, json.dumps(resumed))
        receiver.status = 200
        with sqlite3.connect(db) as c:
            c.execute("UPDATE webhook_deliveries SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE status = 'failed'")
        run(env, "deliver", "--once")
        last = receiver.posts[-1]
        check("for a day after rotation, a delivery is signed with both secrets",
              signed_by(last, resumed["secret"]) and signed_by(last, secret), last["headers"].get("Syndic-Signature"))

        # The HTTP bridge posts too.
        # The bridge also runs the daily tick when it starts: the demo's policies nearing their end.
        call(env, key, "update_webhook", {"id": hook["id"], "events": ["co-owners.*", "insurance.*"]})
        before = len(receiver.posts)
        bridge = subprocess.Popen([BIN, "http", "--listen", "127.0.0.1:0", "--delivery-interval", "1"], env=env,
                                  stderr=subprocess.PIPE, text=True)
        base = None
        for line in bridge.stderr:
            if "serving" in line:
                base = line.split("serving ")[1].split(" ")[0]
                break
        request = urllib.request.Request(base + "/co-owners", method="POST", headers={
            "Authorization": "Bearer " + key, "Content-Type": "application/json"},
            data=json.dumps({"unitId": units[1]["id"], "firstName": "Par", "lastName": "REST"}).encode())
        urllib.request.urlopen(request).read()
        for _ in range(100):
            types = [e["type"] for e in receiver.events()[before:]]
            if "co_owner.created" in types and types.count("insurance_policy.expiring") >= 2:
                break
            time.sleep(0.1)
        bridge.terminate()
        bridge.wait(timeout=30)
        created = [e for e in receiver.events()[before:] if e["type"] == "co_owner.created"]
        check("the HTTP bridge's delivery thread posts co_owner.created for a REST call",
              len(created) == 1 and created[0]["data"]["lastName"] == "REST" and
              all(signed_by(p, resumed["secret"]) for p in receiver.posts[before:]), json.dumps(created)[:300])
        expiring = [e for e in receiver.events()[before:] if e["type"] == "insurance_policy.expiring"]
        check("the bridge's tick at start emits insurance_policy.expiring for the demo's policies ending soon",
              len(expiring) == 2 and all(e["data"]["expiringSoon"] and e["actor"]["kind"] == "system" for e in expiring),
              json.dumps([e["type"] for e in receiver.events()[before:]]))
        again = run(env, "tick")
        check("syndic-mcp tick afterwards: nothing new (once per record and state, whichever process ticked)",
              again.returncode == 0 and "0 derived event(s)" in again.stdout, again.stdout)

        # SSRF and the other refusals.
        for url, why in [("http://example.org/hook", "plain http to another machine"),
                         ("https://10.1.2.3/hook", "a private address"),
                         ("https://169.254.169.254/latest/meta-data", "the metadata address"),
                         ("https://[::ffff:192.168.1.10]/hook", "a private address written as IPv6"),
                         ("https://user:pw@127.0.0.1/hook", "credentials in the URL")]:
            answer = call(env, key, "create_webhook", {"url": url, "events": ["co_owner.created"]})
            check("create_webhook refuses %s (INVALID_WEBHOOK_URL)" % why, answer.get("error") == "INVALID_WEBHOOK_URL",
                  json.dumps(answer))
        allowed = call(env, key, "create_webhook", {"url": "https://10.1.2.3/hook", "events": ["co_owner.created"]},
                       "--allow-private-webhooks")
        check("a server started with --allow-private-webhooks accepts a private address", "webhook" in allowed,
              json.dumps(allowed))
        meta = call(env, key, "create_webhook", {"url": "https://169.254.169.254/", "events": ["co_owner.created"]},
                    "--allow-private-webhooks")
        check("...but never the metadata address", meta.get("error") == "INVALID_WEBHOOK_URL", json.dumps(meta))
        # Issue 28, point 6: this machine only with the operator's opt-in; IPv6 forms that carry an
        # IPv4 address are that address.
        plain = {k: v for k, v in env.items() if k != "SYNDIC_ALLOW_LOOPBACK_WEBHOOKS"}
        for url, why in [(receiver.url(), "a receiver on this machine (127.0.0.1)"),
                         ("http://localhost:9/hook", "localhost"),
                         ("https://[64:ff9b::7f00:1]/hook", "127.0.0.1 through NAT64 (64:ff9b::/96)"),
                         ("https://[2002:7f00:1::1]/hook", "127.0.0.1 through 6to4 (2002::/16)"),
                         ("https://[::7f00:1]/hook", "127.0.0.1 as an IPv4-compatible address")]:
            answer = call(plain, key, "create_webhook", {"url": url, "events": ["co_owner.created"]})
            check("without --allow-loopback-webhooks, create_webhook refuses %s (INVALID_WEBHOOK_URL)" % why,
                  answer.get("error") == "INVALID_WEBHOOK_URL" and "--allow-loopback-webhooks" in json.dumps(answer),
                  json.dumps(answer))
        for url, why in [("https://[64:ff9b::a01:203]/hook", "10.1.2.3 through NAT64"),
                         ("https://[64:ff9b:1::a01:203]/hook", "a local NAT64 prefix (64:ff9b:1::/48)"),
                         ("https://[::a01:203]/hook", "10.1.2.3 as an IPv4-compatible address"),
                         ("https://[2002:a01:203::1]/hook", "10.1.2.3 through 6to4"),
                         ("https://[2001:0:a01:203::ffff:ffff]/hook", "a Teredo address through 10.1.2.3"),
                         ("https://[fec0::1]/hook", "a site-local address (fec0::/10)"),
                         ("https://[2002:a9fe:a9fe::1]/hook", "the metadata address through 6to4")]:
            answer = call(env, key, "create_webhook", {"url": url, "events": ["co_owner.created"]})
            check("create_webhook refuses %s (INVALID_WEBHOOK_URL), the address not named" % why,
                  answer.get("error") == "INVALID_WEBHOOK_URL" and "10.1.2.3" not in json.dumps(answer), json.dumps(answer))
        # One wording for every failure to connect: a closed port and a silent one read the same.
        closed = socket.socket()
        closed.bind(("127.0.0.1", 0))
        closed_port = closed.getsockname()[1]
        closed.close()
        shut = call(env, key, "create_webhook", {"url": "http://127.0.0.1:%d/hook" % closed_port, "events": ["co-owners.*"]})
        call(env, key, "update_co_owner", {"id": people[1]["id"], "phone": "+15145550122"})
        run(env, "deliver", "--once")
        errors = [d.get("error") for d in call(env, key, "list_webhook_deliveries", {"webhookId": shut["webhook"]["id"]})["data"]]
        check("a delivery to a closed port says only that the receiver could not be reached (no 'refused', no port)",
              errors and all(e and "could not be reached" in e and "refused" not in e.lower() and str(closed_port) not in e
                             for e in errors), json.dumps(errors))
        call(env, key, "delete_webhook", {"id": shut["webhook"]["id"]})
        unknown = call(env, key, "create_webhook", {"url": receiver.url(), "events": ["co_owner.exploded"]})
        check("an unknown event name is refused (UNKNOWN_EVENT_TYPE) at its index",
              unknown.get("error") == "UNKNOWN_EVENT_TYPE" and unknown["data"].get("field") == "/events/0", json.dumps(unknown))
        for _ in range(8):
            call(env, key, "create_webhook", {"url": receiver.url(), "events": ["meetings.*"]})
        limit = call(env, key, "create_webhook", {"url": receiver.url(), "events": ["meetings.*"]})
        check("the eleventh webhook is refused (WEBHOOK_LIMIT_REACHED)", limit.get("error") == "WEBHOOK_LIMIT_REACHED",
              json.dumps(limit))
        gone = call(env, key, "delete_webhook", {"id": hook["id"]})
        check("delete_webhook removes it", gone["webhook"]["id"] == hook["id"] and
              call(env, key, "update_webhook", {"id": hook["id"], "active": False}).get("error") == "WEBHOOK_NOT_FOUND")
    finish()


if __name__ == "__main__":
    main()
