#!/usr/bin/env python3
"""E-mail and webhooks sent once whatever the peer's speed (issue 28, point 2), through the real
executable on loopback:

- `mail-twice`: an SMTP server (tests/delivery/smtp_sink.py) that takes 27 s per DATA, 12 notices,
  a first `deliver --once` and a second one 305 s later: each co-owner gets the notice once.
- `webhook-twice`: a receiver that takes 6 s per POST, 22 events, a second `deliver --once` 125 s
  after the first: each event is POSTed once.
  Both run under Debian's faketime at 20 times the speed, every syndic-mcp process on one clock (the
  peers answer in real time, their delays divided by 20): 5 minutes of leases cost 15 s.
- `behind-webhooks`: a receiver that takes 2 s per POST with 5 events waiting, another fast one, and
  7 notices: the first notice leaves at once (`deliver --once` and the HTTP bridge), and the fast
  receiver gets its 5 events without waiting for the slow one's.

Prints its figures (`figure: ...`, for docs/reliability.md).
usage: run_slow_peers.py SYNDIC_MCP MODE"""
import http.server
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402
from run_mail_tests import Sink, call, run  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
MODE = sys.argv[2]
SPEED = 20  # faketime's speed: a fake second is 1/20 s


class Receiver:
    """A webhook receiver on loopback that takes `delay` seconds (real time) before answering 200, and
    keeps each POST's event id and when it was answered."""

    def __init__(self, delay):
        self.posts = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                time.sleep(delay)
                outer.posts.append((self.headers["Syndic-Event-Id"], time.time()))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d/hook" % self.server.server_address[1]


def demo(folder, name):
    db = os.path.join(folder, name + ".db")
    env = dict(os.environ, SYNDIC_DB=db, SYNDIC_ALLOW_LOOPBACK_WEBHOOKS="1")  # the receivers are on this machine
    key = run(env, "demo").stdout.strip()
    return db, env, key


def add_co_owners(env, key, count, tag):
    unit = call(env, key, "list_units", {})["data"][0]["id"]
    rows = [{"unitId": unit, "firstName": "%s%d" % (tag, i), "lastName": "Lavoie",
             "email": "%s%d@example.ca" % (tag.lower(), i)} for i in range(count)]
    call(env, key, "bulk_create_co_owners", {"coOwners": rows})


def queue_notice(env, key):
    meeting = [m for m in call(env, key, "list_meetings", {})["data"] if m["status"] == "draft"][0]  # the annual meeting to come
    return call(env, key, "send_meeting_notice", {"meetingId": meeting["id"]}).get("queued")


def two_processes(env, command, later_fake_seconds):
    """`command` run twice under one faked clock at SPEED times, the second `later_fake_seconds` after
    the first (fake time); both outputs."""
    script = ('"$@" > first.out 2>&1 & sleep %d; "$@" > second.out 2>&1; wait' % later_fake_seconds)
    folder = os.path.dirname(env["SYNDIC_DB"])
    fake = dict(env, FAKETIME_DONT_RESET="1")
    subprocess.run(["faketime", "-f", "+0 x%d" % SPEED, "sh", "-c", script, "sh", *command], env=fake, cwd=folder,
                   timeout=120)
    return [open(os.path.join(folder, n)).read() for n in ("first.out", "second.out")]


def mail_twice(folder):
    db, env, key = demo(folder, "mail-twice")
    add_co_owners(env, key, 5, "Extra")
    queued = queue_notice(env, key)
    check("12 notices queued (the demo's 7 and 5 more co-owners)", queued == 12, str(queued))
    sink = Sink(folder, "slow-sink", "--delay", str(27 / SPEED))
    outputs = two_processes(env, [BIN, "deliver", "--once", "--smtp-url", "smtp://127.0.0.1:%d" % sink.port,
                                  "--smtp-from", "ca@erables.example"], 305)
    got = [m["to"][0] for m in sink.messages()]
    sink.stop()
    duplicates = len(got) - len(set(got))
    print("figure: mail, 27 s per DATA, second deliver 305 s later: %d messages for %d recipients, %d duplicate(s)"
          % (len(got), len(set(got)), duplicates))
    check("each of the 12 co-owners received the notice once (two processes, 27 s per DATA)",
          len(got) == 12 and duplicates == 0, "%d messages, %d duplicates; %s" % (len(got), duplicates, outputs))
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT status, count(*) FROM outbox WHERE related_type = 'meeting' AND related_id IN "
                         "(SELECT id FROM meetings WHERE status <> 'held') GROUP BY status").fetchall()
    check("...and all 12 are marked sent", rows == [("sent", 12)], str(rows) + str(outputs))


def webhook_twice(folder):
    db, env, key = demo(folder, "webhook-twice")
    receiver = Receiver(6 / SPEED)
    call(env, key, "create_webhook", {"url": receiver.url, "events": ["co-owners.*"]})
    add_co_owners(env, key, 22, "Hook")
    outputs = two_processes(env, [BIN, "deliver", "--once"], 125)
    ids = [event for event, _ in receiver.posts]
    duplicates = len(ids) - len(set(ids))
    print("figure: webhooks, 6 s per POST, second deliver 125 s later: %d POSTs for %d events, %d duplicate(s)"
          % (len(ids), len(set(ids)), duplicates))
    check("each of the 22 events was POSTed once (two processes, 6 s per POST)", len(ids) == 22 and duplicates == 0,
          "%d POSTs, %d duplicates; %s" % (len(ids), duplicates, outputs))


def behind_webhooks(folder, bridge):
    name = "bridge" if bridge else "deliver"
    db, env, key = demo(folder, "behind-" + name)
    slow, fast = Receiver(2.0), Receiver(0.0)
    call(env, key, "create_webhook", {"url": slow.url, "events": ["co-owners.*"]})
    call(env, key, "create_webhook", {"url": fast.url, "events": ["co-owners.*"]})
    add_co_owners(env, key, 5, "Tard")  # 5 events for each receiver; then the notices
    queue_notice(env, key)
    sink = Sink(folder, "sink-" + name)
    smtp = ["--smtp-url", "smtp://127.0.0.1:%d" % sink.port, "--smtp-from", "ca@erables.example"]
    start = time.time()
    if bridge:
        process = subprocess.Popen([BIN, "http", "--listen", "127.0.0.1:0", "--delivery-interval", "1", *smtp], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while time.time() - start < 20 and (not sink.messages() or len(fast.posts) < 5):
            time.sleep(0.1)
        process.terminate()
        process.wait(timeout=30)
    else:
        run(env, "deliver", "--once", *smtp)
    got = sink.messages()
    first = min(m["at"] for m in got) - start if got else None
    fast_done = max(at for _, at in fast.posts) - start if len(fast.posts) == 5 else None
    sink.stop()
    shown = lambda s: "never" if s is None else "%.1f s" % s  # noqa: E731
    print("figure: %s, a receiver at 2 s per POST with 5 events waiting: first notice after %s, the other "
          "receiver's 5 events after %s" % ("the HTTP bridge" if bridge else "deliver --once", shown(first), shown(fast_done)))
    check("%s: the first notice leaves within 3 s, not behind the slow receiver's 10 s" % name,
          first is not None and first < 3, shown(first))
    check("%s: the fast receiver gets its 5 events within 5 s, not behind the slow one's" % name,
          fast_done is not None and fast_done < 5, shown(fast_done))


def main():
    with tempfile.TemporaryDirectory() as folder:
        if MODE == "mail-twice":
            mail_twice(folder)
        elif MODE == "webhook-twice":
            webhook_twice(folder)
        else:
            behind_webhooks(folder, bridge=False)
            behind_webhooks(folder, bridge=True)
    finish()


if __name__ == "__main__":
    main()
