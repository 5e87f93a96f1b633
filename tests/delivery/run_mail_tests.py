#!/usr/bin/env python3
"""E-mail that really leaves (issue 18): a meeting's notices, queued by send_meeting_notice, are
sent by `syndic-mcp deliver` to a real SMTP server on loopback (tests/delivery/smtp_sink.py,
Debian's python3-aiosmtpd), once each in each co-owner's language even with two delivery processes
running at once; a server that refuses marks the message failed with its answer; a server that is
down leaves it queued, retried, then failed after the last attempt; a password is sent when given.

usage: run_mail_tests.py SYNDIC_MCP"""
import base64
import email
import email.header
import email.policy
import email.utils
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, finish  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
SINK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "smtp_sink.py")
SYSTEM_PYTHON = "/usr/bin/python3"  # where Debian's python3-aiosmtpd is installed


def run(env, *args, timeout=60):
    return subprocess.run([BIN, *args], env=env, capture_output=True, text=True, timeout=timeout)


def call(env, key, tool, arguments):
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    out = subprocess.run([BIN, "serve", "--modules", "all"], env=dict(env, SYNDIC_API_KEY=key), input=request + "\n",
                         capture_output=True, text=True, timeout=60).stdout
    answer = json.loads(out.splitlines()[0])
    if "result" in answer:
        return json.loads(answer["result"]["content"][0]["text"])
    return answer


class Sink:
    def __init__(self, folder, name, *extra):
        self.port_file = os.path.join(folder, name + ".port")
        self.out = os.path.join(folder, name + ".jsonl")
        self.process = subprocess.Popen([SYSTEM_PYTHON, SINK, self.port_file, self.out, *extra])
        for _ in range(100):
            if os.path.exists(self.port_file):
                break
            time.sleep(0.05)
        self.port = int(open(self.port_file).read())

    def messages(self):
        if not os.path.exists(self.out):
            return []
        return [json.loads(line) for line in open(self.out, encoding="utf-8")]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def subject_of(data):
    message = email.message_from_string(data)
    return str(email.header.make_header(email.header.decode_header(message["Subject"])))


def body_of(data):
    message = email.message_from_string(data)
    return base64.b64decode(message.get_payload()).decode("utf-8")


def mailboxes(data, header):
    """The header's mailboxes as email.headerregistry parses them, (display name, address) each, with
    the parser's complaints; and email.utils' reading of the raw header."""
    message = email.message_from_string(data, policy=email.policy.default)
    parsed = message[header]
    return ([(a.display_name, a.addr_spec) for a in parsed.addresses], [str(d) for d in parsed.defects],
            email.utils.getaddresses([email.message_from_string(data)[header]]))


def outbox(db):
    """The notices of the meeting to come in the outbox (the demo's history left out: its board's resolutions
    sent last year, the notice of its budget meeting held this year)."""
    with sqlite3.connect(db) as c:
        return [dict(zip(("recipient", "language", "status", "attempts", "error", "sent_at"), row)) for row in
                c.execute("SELECT recipient, language, status, attempts, error, sent_at FROM outbox "
                          "WHERE related_type = 'meeting' AND related_id IN (SELECT id FROM meetings WHERE status <> 'held') "
                          "ORDER BY recipient")]


def notices_queued(folder, name, title=None):
    db = os.path.join(folder, name + ".db")
    env = dict(os.environ, SYNDIC_DB=db)
    key = run(env, "demo").stdout.strip()
    meeting = [m for m in call(env, key, "list_meetings", {})["data"] if m["status"] == "draft"][0]  # the annual meeting to come
    if title:
        call(env, key, "update_meeting", {"id": meeting["id"], "title": title})
    sent = call(env, key, "send_meeting_notice", {"meetingId": meeting["id"]})
    return db, env, key, sent


def main():
    with tempfile.TemporaryDirectory() as folder:
        db, env, key, sent = notices_queued(folder, "main")
        check("send_meeting_notice queues one message per co-owner with an e-mail", sent.get("queued") == 7, json.dumps(sent))
        check("...and says they are queued, not sent", all(m["status"] == "queued" for m in outbox(db)))

        r = run(env, "deliver", "--once")
        check("deliver --once without SMTP settings sends nothing, says so, exits 0",
              r.returncode == 0 and "no --smtp-url" in r.stdout and "7 queued" in r.stdout, r.stdout + r.stderr)

        # Without its own mailFrom, the syndicate's mail is from --smtp-from (the --help example, accented).
        run(env, "settings", "mailFrom", "")
        sink = Sink(folder, "sink")
        url = "smtp://127.0.0.1:%d" % sink.port
        deliver = [BIN, "deliver", "--once", "--smtp-url", url, "--smtp-from", "Syndicat Les Érables <ca@erables.example>"]
        # The network module missing (a quick start that built the server without it): the pass stops,
        # says why, and gives its claims back, so the next pass sends at once.
        missing = dict(env, SYNDIC_NET_MODULE=os.path.join(folder, "nowhere", "syndic-net.so"))
        r = subprocess.run(deliver, env=missing, capture_output=True, text=True, timeout=60)
        check("deliver without its network module exits 1 naming the module, and gives the message it claimed back "
              "(one at a time, just before its transfer)",
              r.returncode == 1 and "syndic-net.so: not found" in r.stderr and "1 claimed and not sent, given back" in r.stderr,
              r.stdout + r.stderr)
        check("...which nothing holds any more", all(row[0] is None for row in sqlite3.connect(db).execute(
            "SELECT lease_owner FROM outbox WHERE related_type = 'meeting'")))
        both = [subprocess.Popen(deliver, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outputs = [p.communicate(timeout=60) for p in both]
        check("two delivery processes at once both exit 0", all(p.returncode == 0 for p in both), str(outputs))
        got = sink.messages()
        recipients = sorted(r for m in got for r in m["to"])
        expected = sorted(m["recipient"] for m in outbox(db))
        check("the SMTP server received each notice once, even with two processes", recipients == expected,
              "%s vs %s" % (recipients, expected))
        check("...from the sender given", all(m["from"] == "ca@erables.example" for m in got), str([m["from"] for m in got]))
        # --smtp-from 'Syndicat Les Érables <ca@erables.example>': only the display name is encoded, so
        # From: parses as that mailbox (DMARC aligns on its address) and To: as the co-owner's.
        heads = [(mailboxes(m["data"], "From"), mailboxes(m["data"], "To"), m["to"][0]) for m in got]
        check("every From: parses as one valid mailbox, the accented name decoded back, the address intact",
              heads and all(f == ([("Syndicat Les Érables", "ca@erables.example")], [], f[2]) and
                            [a for _, a in f[2]] == ["ca@erables.example"] for f, _, _ in heads),
              str([(h[0], m["data"].split("\nTo:")[0]) for h, m in zip(heads, got)][:1]))
        check("...and every To: as the co-owner's mailbox",
              all(t[0] == [("", rcpt)] and t[1] == [] for _, t, rcpt in heads), str([t for _, t, _ in heads][:2]))
        by_recipient = {m["to"][0]: m["data"] for m in got}
        english = by_recipient.get("david.thompson@example.com", "")
        french = by_recipient.get("marie.tremblay@example.ca", "")
        check("the English-speaking co-owner's notice is in English", "Notice" in subject_of(english) or
              "notice" in subject_of(english).lower(), subject_of(english) if english else "none")
        check("a French-speaking co-owner's notice is in French (UTF-8 subject decoded)", "Avis" in subject_of(french) or
              "avis" in subject_of(french).lower(), subject_of(french) if french else "none")
        check("...and its body is the notice, accents intact", "Assemblée" in body_of(french), body_of(french)[:200] if french else "")
        rows = outbox(db)
        check("every message is marked sent with its time", all(m["status"] == "sent" and m["sent_at"] for m in rows), str(rows))
        r = run(env, "deliver", "--once", "--smtp-url", url, "--smtp-from", "ca@erables.example")
        check("a second pass sends nothing more", len(sink.messages()) == 7 and "0 sent" in r.stdout, r.stdout)
        sink.stop()

        # A title that looks like an encoded word (issue 28, point 8) reads as typed, not decoded:
        # left raw, "=?UTF-8?B?w4lsZWN0aW9u?=" would show as « Élection » in every mail program.
        lookalike = "AGA =?UTF-8?B?w4lsZWN0aW9u?= 2027"
        db, env, key, _ = notices_queued(folder, "lookalike", lookalike)
        sink = Sink(folder, "lookalike-sink")
        run(env, "deliver", "--once", "--smtp-url", "smtp://127.0.0.1:%d" % sink.port, "--smtp-from", "ca@erables.example")
        subjects = [subject_of(m["data"]) for m in sink.messages()]
        check("a title holding =?UTF-8?B?...?= is shown as typed in every Subject, never decoded to another word",
              subjects and all(lookalike in t and "Élection" not in t for t in subjects), str(subjects[:2]))
        sink.stop()

        # A server that refuses for good: the message is failed with its answer at once.
        db, env, key, _ = notices_queued(folder, "refused")
        refusing = Sink(folder, "refusing", "--refuse", "550")
        r = run(env, "deliver", "--once", "--smtp-url", "smtp://127.0.0.1:%d" % refusing.port, "--smtp-from", "ca@erables.example")
        rows = outbox(db)
        check("a 550 refusal marks each message failed, with the server's answer",
              r.returncode == 0 and all(m["status"] == "failed" and "550" in (m["error"] or "") for m in rows), str(rows[:2]))
        refusing.stop()

        # A server that is down: queued again with the reason, then failed after the last attempt.
        db, env, key, _ = notices_queued(folder, "down")
        down = Sink(folder, "down-port")
        port = down.port
        down.stop()
        deliver_down = ["deliver", "--once", "--smtp-url", "smtp://127.0.0.1:%d" % port, "--smtp-from", "ca@erables.example"]
        run(env, *deliver_down)
        rows = outbox(db)
        check("a server that is down leaves each message queued, attempt 1, with the reason",
              all(m["status"] == "queued" and m["attempts"] == 1 and m["error"] for m in rows), str(rows[:2]))
        r = run(env, *deliver_down)
        check("...not retried before its next attempt is due", all(m["attempts"] == 1 for m in outbox(db)), r.stdout)
        check("...and deliver says why they are still queued: when they are retried, with the last answer",
              "waiting to be retried from" in r.stdout and "last answer" in r.stdout, r.stdout)
        for attempt in range(2, 6):
            with sqlite3.connect(db) as c:  # the back-off's time passes
                c.execute("UPDATE outbox SET next_attempt_at = '2000-01-01T00:00:00.000Z'")
            run(env, *deliver_down)
        rows = outbox(db)
        check("...and failed after the fifth attempt, with the reason kept",
              all(m["status"] == "failed" and m["attempts"] == 5 and m["error"] for m in rows), str(rows[:2]))

        # Authentication: the user and the password file's first line reach the server.
        db, env, key, _ = notices_queued(folder, "auth")
        secret = os.path.join(folder, "smtp-password")
        with open(secret, "w") as f:
            f.write("s3cret-pass\n")
        os.chmod(secret, 0o600)
        guarded = Sink(folder, "guarded", "--user", "syndic", "--password", "s3cret-pass")
        base = ["deliver", "--once", "--smtp-url", "smtp://127.0.0.1:%d" % guarded.port, "--smtp-from", "ca@erables.example"]
        # The syndicate's own sender (setting mailFrom) is the From: header; the envelope stays the server's.
        run(env, "settings", "mailFrom", "syndicat@erables.example")
        run(env, *base, "--smtp-user", "syndic", "--smtp-password-file", secret)
        check("with --smtp-user and --smtp-password-file the server accepts the messages",
              len(guarded.messages()) == 7 and all(m["status"] == "sent" for m in outbox(db)), str(outbox(db)[:1]))
        check("the syndicate's setting mailFrom is the From: header, the envelope sender the server's --smtp-from",
              all("\r\nFrom: syndicat@erables.example\r\n" in "\r\n" + m["data"].replace("\r\n", "\n").replace("\n", "\r\n")
                  and m["from"] == "ca@erables.example" for m in guarded.messages()),
              str([m["data"][:120] for m in guarded.messages()[:1]]))
        guarded.stop()

        # No --smtp-from: each syndicate's mail leaves from its own mailFrom (header and envelope); a
        # syndicate without one keeps its messages queued, and deliver says which and what to do.
        db, env, key, _ = notices_queued(folder, "own-senders")
        run(env, "settings", "mailFrom", "ca@erables.example")
        second = run(env, "init", "--name", "Syndicat du 12 rue des Pins", "--json")
        other = json.loads(second.stdout)
        pins = [other["apiKey"]]
        unit = call(env, pins[0], "create_unit", {"number": "1", "type": "apartment", "fractionPercent": 100})
        call(env, pins[0], "create_co_owner", {"firstName": "Rémi", "lastName": "Pelletier", "unitId": unit["id"],
                                               "email": "remi.pelletier@example.ca"})
        meeting = call(env, pins[0], "create_meeting", {"title": "Assemblée annuelle", "type": "aga", "location": "Salle",
                                                        "scheduledAt": "2099-03-15T19:00:00-04:00", "agenda": ["Budget"]})
        call(env, pins[0], "send_meeting_notice", {"meetingId": meeting["id"]})
        plain = Sink(folder, "plain")
        own = ["deliver", "--once", "--smtp-url", "smtp://127.0.0.1:%d" % plain.port]
        r = run(dict(env, SYNDIC_SMTP_FROM=""), *own)
        got = plain.messages()
        check("deliver with only --smtp-url exits 0 and sends the demo syndicate's 7 notices from its mailFrom",
              r.returncode == 0 and len(got) == 7 and all(m["from"] == "ca@erables.example" and
                                                          "\nFrom: ca@erables.example" in "\n" + m["data"].replace("\r\n", "\n")
                                                          for m in got), r.stdout + r.stderr + str([m["from"] for m in got]))
        check("...and says the other syndicate's notice is not sent: no mailFrom, no --smtp-from, what to do",
              "1 not sent for Syndicat du 12 rue des Pins" in r.stdout and "mailFrom" in r.stdout and
              other["syndicateId"] in r.stdout, r.stdout)
        with sqlite3.connect(db) as c:
            left = c.execute("SELECT status, attempts, lease_owner FROM outbox WHERE recipient = 'remi.pelletier@example.ca'").fetchall()
        check("...which stays queued, not claimed, no attempt counted", left == [("queued", 0, None)], str(left))
        run(env, "settings", "--syndicate", other["syndicateId"], "mailFrom", "syndic@pins.example")
        r = run(dict(env, SYNDIC_SMTP_FROM=""), *own)
        got = plain.messages()
        check("once it has a mailFrom, its notice leaves from it (header and envelope)",
              len(got) == 8 and got[-1]["from"] == "syndic@pins.example" and got[-1]["to"] == ["remi.pelletier@example.ca"]
              and "From: syndic@pins.example" in got[-1]["data"], r.stdout + str(got[-1:]))
        plain.stop()

        # A stdio server started with SMTP settings sends what its calls queue, while it serves.
        db, env, key, _ = notices_queued(folder, "stdio")
        live = Sink(folder, "live")
        server = subprocess.Popen([BIN, "serve", "--smtp-url", "smtp://127.0.0.1:%d" % live.port, "--smtp-from",
                                   "ca@erables.example", "--delivery-interval", "1"], env=dict(env, SYNDIC_API_KEY=key),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for _ in range(100):
            if len(live.messages()) == 7:
                break
            time.sleep(0.1)
        server.stdin.close()
        server.wait(timeout=30)
        check("a stdio server started with --smtp-url sends the queued notices while it runs",
              len(live.messages()) == 7 and all(m["status"] == "sent" for m in outbox(db)), str(len(live.messages())))
        live.stop()

        # The HTTP bridge's delivery thread does the same.
        db, env, key, _ = notices_queued(folder, "bridge")
        bridged = Sink(folder, "bridged")
        bridge = subprocess.Popen([BIN, "http", "--listen", "127.0.0.1:0", "--smtp-url", "smtp://127.0.0.1:%d" % bridged.port,
                                   "--smtp-from", "ca@erables.example", "--delivery-interval", "1"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if len(bridged.messages()) == 7:
                break
            time.sleep(0.1)
        bridge.terminate()
        check("the HTTP bridge started with --smtp-url sends them, and stops on SIGTERM with 0",
              len(bridged.messages()) == 7 and bridge.wait(timeout=30) == 0, str(len(bridged.messages())))
        bridged.stop()

        r = run(env, "deliver", "--once", "--smtp-url", "http://127.0.0.1:1", "--smtp-from", "x@example.org")
        check("an --smtp-url that is not smtp:// or smtps:// is refused with the reason",
              r.returncode == 1 and "smtp://" in r.stderr, r.stderr)
    finish()


if __name__ == "__main__":
    main()
