#!/usr/bin/python3
"""The board's year, through the real executable: the README's governance walk-through.

    examples/governance_walkthrough.py [path/to/syndic-mcp]

On a fresh demo database in a temporary folder, with a real SMTP server and a webhook receiver
on this machine (Debian's python3-aiosmtpd; nothing leaves the machine):

 1. a webhook receiver subscribes to the co-owners' events;
 2. the annual meeting is called, lacks quorum: the two co-owners present vote a by-law anyway,
    which set_bylaw refuses (QUORUM_NOT_REACHED), and the meeting is adjourned; the reconvened
    meeting's notice is really delivered to the SMTP server (from the syndicate's mailFrom), in
    each co-owner's language;
 3. the reconvened meeting, held on its day with its quorum, elects a board of three and amends
    the by-law;
 4. last year's directors end their terms, the new board is registered (appoint_director) and the
    by-law's new version is in force; the minutes of the adjourned and of the reconvened meeting are
    written (PDF) and read back with pdftotext (poppler-utils);
 5. a board meeting of the directors (two days' notice, two of three present: quorum) adopts the
    manager's mandate, one vote each;
 6. a new co-owner is entered and the receiver gets a signed co_owner.created.

Each step prints what the service answered; any refusal stops the script (exit status 1).
"""
import base64
import hashlib
import hmac
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import warnings
from datetime import timedelta, timezone
from zoneinfo import ZoneInfo

warnings.filterwarnings("ignore")
from aiosmtpd.controller import Controller  # noqa: E402  (Debian: python3-aiosmtpd)

import stdio_session  # noqa: E402  (this folder: one stdio session of syndic-mcp serve)
from stdio_session import instant, moment  # noqa: E402

BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "syndic-mcp")
folder = tempfile.mkdtemp(prefix="syndic-governance-")
# The webhook receiver below runs on this machine, which a server posts to only when its operator
# says so (--allow-loopback-webhooks, or this variable): fine for a walk-through, never for a
# server other syndicates use.
ENV = dict(os.environ, SYNDIC_DB=os.path.join(folder, "syndic.db"), SYNDIC_ALLOW_LOOPBACK_WEBHOOKS="1")
ENV.pop("SYNDIC_API_KEY", None)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def Server(key, clock=None):  # noqa: N802  (a session: examples/stdio_session.py)
    return stdio_session.Server(BIN, ENV, key, clock, client="governance-walkthrough")


class Mailbox:
    messages = []

    async def handle_DATA(self, server, session, envelope):
        Mailbox.messages.append({"to": envelope.rcpt_tos, "data": envelope.content.decode("utf-8", "replace")})
        return "250 2.0.0 accepted"


class Receiver(http.server.BaseHTTPRequestHandler):
    posts = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Receiver.posts.append((dict(self.headers), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def signed(headers, body, secret):
    parts = dict(p.split("=", 1) for p in headers["Syndic-Signature"].split(","))
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(parts["v1"], expected)


def deliver(smtp_port, clock=None):
    """`syndic-mcp deliver --once`, on the clock of the server that queued the mail (faketime), a few
    minutes on: that server's clock has run since it started."""
    later = clock + timedelta(minutes=5) if clock else None
    moved = ["faketime", later.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")] if later else []
    r = subprocess.run(moved + [BIN, "deliver", "--once", "--smtp-url", f"smtp://127.0.0.1:{smtp_port}", "--log-level", "warn"],
                       env=ENV, capture_output=True, text=True, check=True)
    return r.stdout.strip().replace("\n", "; ")


def stamp(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def pdf_text(path):
    """The minutes' text as poppler reads it, white space squashed (a wrapped phrase reads as one)."""
    return " ".join(subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"], capture_output=True, text=True,
                                   check=True).stdout.split())


def montreal_time(t):
    """The minutes' time of day, as in French: 19 h 05."""
    local = t.astimezone(ZoneInfo("America/Montreal"))
    return f"{local.hour} h {local.minute:02d}"


def minutes_read_right(s, adjourned_id, reconvened_id, owners, elected):
    """The final French minutes of the adjourned and the reconvened meeting, read back: what a board
    secretary signs. Returns the lines missing, or present where they must not be, and how many
    lines each was read for."""
    texts = {}
    for name, meeting_id in (("adjourned", adjourned_id), ("reconvened", reconvened_id)):
        made = s.call("generate_minutes", {"meetingId": meeting_id, "draft": False, "language": "fr"})
        texts[name] = pdf_text(made["path"])
    everyone = [f"{o['firstName']} {o['lastName']}" for o in owners]
    expected = {
        "adjourned": ["Assemblée générale annuelle des copropriétaires — ajournée",
                      "Présidence de l'assemblée : Émilie Bélanger", "ajournement : " + montreal_time(moment(30) + timedelta(minutes=20)),
                      "Résultat : NON ADOPTÉE — la majorité requise est obtenue, mais le quorum n'était pas atteint lors du vote",
                      "L'assemblée est ajournée faute de quorum (art. 1089 C.c.Q.).", "Elle reprendra le",
                      "au lieu suivant : Salle du conseil, 4520 rue Saint-Denis", "en formeront le quorum (art. 1089, al. 2 C.c.Q.)",
                      "— Présence", "— Absence"] + everyone,
        "reconvened": ["reprise après ajournement", "Cette assemblée est la reprise de l'assemblée convoquée pour le",
                       "ajournée faute de quorum", "quel que soit le nombre de leurs voix (art. 1089, al. 2 C.c.Q.)",
                       "Présidence de l'assemblée : Émilie Bélanger", "Secrétariat de l'assemblée : Luc Côté",
                       "Ouverture de l'assemblée : " + montreal_time(moment(60) + timedelta(minutes=5)),
                       "levée : " + montreal_time(moment(60) + timedelta(minutes=50)), "Élection au conseil d'administration :",
                       "Résultat : ADOPTÉE", "— Présence", "— Absence"] + everyone
                      + [f"{d['name']} — {office}" for d, office in elected],
    }
    forbidden = ("requis : 0", "présent ", "Président(e)", "absent ")
    wrong = []
    for name, text in texts.items():
        wrong += [f"{name}: no «{part}»" for part in expected[name] if part not in text]
        wrong += [f"{name}: «{part}»" for part in forbidden if part in text]
    return wrong, {name: len(parts) + len(forbidden) for name, parts in expected.items()}


def main():
    key = json.loads(subprocess.run([BIN, "demo", "--json", "--log-level", "warn"], env=ENV, capture_output=True, text=True,
                                    check=True).stdout)["apiKey"]
    s = Server(key)
    smtp = Controller(Mailbox(), hostname="127.0.0.1", port=free_port())
    smtp.start()
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()

    # 1. A receiver subscribes to the co-owners' events; the secret is shown once.
    hook = s.call("create_webhook", {"url": f"http://127.0.0.1:{receiver.server_port}/hook", "events": ["co-owners.*"],
                                     "description": "the board's spreadsheet"})
    print(f"1. webhook {hook['webhook']['id']} subscribed; secret {hook['secret'][:12]}... (shown once)")

    # 2. The annual meeting: too few come, it is adjourned; the reconvened meeting is called.
    owners = s.call("list_co_owners", {})["data"]
    agm = s.call("create_meeting", {"title": "Assemblée générale annuelle", "type": "aga", "scheduledAt": instant(30),
                                    "location": "Salle communautaire, 4520 rue Saint-Denis",
                                    "agenda": ["Élection des administrateurs", "Règlement : animaux"]})
    # The notice of an annual meeting carries the art. 1087 package: the board attaches the
    # statements and the budget forecast to the meeting, for the co-owners to see.
    for kind, title in (("financial-statements", "États financiers 2025-2026"), ("budget", "Prévisions budgétaires 2027")):
        s.call("attach_document", {"contentBase64": base64.b64encode(f"%PDF-1.7\n% {title}\n%%EOF\n".encode()).decode(),
                                   "fileName": f"{kind}.pdf", "mimeType": "application/pdf", "kind": kind, "title": title,
                                   "recordType": "meeting", "recordId": agm["id"], "visibility": "co-owners"})
    first = s.call("send_meeting_notice", {"meetingId": agm["id"], "sendBy": "email", "includeAgenda": True})
    before = len(Mailbox.messages)
    deliver(smtp.port)  # the first notice leaves too
    with_package = [m for m in Mailbox.messages[before:]
                    if "multipart/mixed" in m["data"] and 'filename="financial-statements.pdf"' in m["data"]
                    and 'filename="budget.pdf"' in m["data"]]
    print(f"2. the annual meeting's notice: package of {len(first['meeting']['package'])} documents, missing "
          f"{first['packageMissing']}; {len(with_package)} of {first['queued']} e-mails carry both PDFs")
    if first["packageMissing"] or len(with_package) != first["queued"]:
        sys.exit("the notice did not carry the art. 1087 package")
    s.call("record_attendance", {"meetingId": agm["id"], "attendees": [
        {"coOwnerId": c["id"], "attendance": "present" if i < 2 else "absent"} for i, c in enumerate(owners)]})
    quorum = s.call("calculate_quorum", {"meetingId": agm["id"]})
    s.close()
    s = Server(key, moment(30) + timedelta(hours=1))  # the annual meeting's evening
    # Those present vote the by-law all the same: recorded as voted, but without quorum it decides
    # nothing, and set_bylaw refuses it.
    premature = s.call("add_resolution", {"meetingId": agm["id"], "title": "Règlement 4.1 : deux animaux (sans quorum)",
                                          "majorityRequired": "simple"})
    premature = s.call("record_votes", {"resolutionId": premature["id"], "votesFor": quorum["total"], "votesAgainst": 0,
                                        "votesAbstain": 0})
    # Who chaired, who took the minutes, when it opened and was adjourned: the minutes print them.
    s.call("update_meeting", {"id": agm["id"], "chair": "Émilie Bélanger", "secretary": "Luc Côté",
                              "openedAt": stamp(moment(30) + timedelta(minutes=5)),
                              "closedAt": stamp(moment(30) + timedelta(minutes=20))})
    adjourned = s.call("adjourn_meeting", {"meetingId": agm["id"], "reason": "no-quorum", "reconveneAt": instant(60),
                                           "location": "Salle du conseil, 4520 rue Saint-Denis"})
    reconvened = adjourned["reconvened"]
    article = next(b for b in s.call("list_bylaws", {})["data"] if b["article"] == "4.1")
    refused = s.refusal("set_bylaw", {"id": article["id"], "text": "Deux animaux domestiques au plus par partie privative.",
                                      "resolutionId": premature["id"], "depositedOn": s.today()})
    print(f"   {agm['title']}: {quorum['total']}% present of {quorum['required']}% required; the by-law voted by those "
          f"present: {premature['outcome']} as voted, quorum reached {premature['quorum']['reached']}, set_bylaw: {refused}; "
          f"adjourned; reconvened meeting {reconvened['id']} ({reconvened['quorumRule']} quorum)")
    if refused != "QUORUM_NOT_REACHED":
        sys.exit("a by-law was put in force by a resolution voted without quorum")
    before = len(Mailbox.messages)
    notice = s.call("send_meeting_notice", {"meetingId": reconvened["id"], "sendBy": "email", "includeAgenda": True})
    sent = deliver(smtp.port, s.clock)
    got = Mailbox.messages[before:]
    english = [m for m in got if "Subject: Notice" in m["data"] or "Subject: =?UTF-8?B?Tm90aWNl" in m["data"]]
    print(f"   its notice: {notice['queued']} queued; deliver --once: {sent}; the SMTP server received {len(got)} "
          f"({len(english)} in English)")
    if len(got) != notice["queued"]:
        sys.exit("the SMTP server did not receive every notice")

    # 3. The reconvened meeting, on its day, elects the board and amends the by-law on pets.
    s.close()
    s = Server(key, moment(60) + timedelta(hours=1))
    s.call("record_attendance", {"meetingId": reconvened["id"], "attendees": [
        {"coOwnerId": c["id"], "attendance": "present" if i < 5 else "absent"} for i, c in enumerate(owners)]})
    quorum = s.call("calculate_quorum", {"meetingId": reconvened["id"]})
    resolutions = {r["title"]: r for r in s.call("get_meeting", {"id": reconvened["id"]})["resolutions"]}
    election = s.call("add_resolution", {"meetingId": reconvened["id"], "title": "Élection des administrateurs",
                                         "majorityRequired": "simple"})
    pets = s.call("add_resolution", {"meetingId": reconvened["id"], "title": "Règlement 4.1 : deux animaux",
                                     "majorityRequired": "simple"})
    present = quorum["total"]
    for r in (election, pets):
        s.call("record_votes", {"resolutionId": r["id"], "votesFor": round(present * 0.8, 6),
                                "votesAgainst": round(present * 0.2, 6), "votesAbstain": 0})
    s.call("update_meeting", {"id": reconvened["id"], "status": "held", "chair": "Émilie Bélanger", "secretary": "Luc Côté",
                              "openedAt": stamp(moment(60) + timedelta(minutes=5)),
                              "closedAt": stamp(moment(60) + timedelta(minutes=50))})
    print(f"3. reconvened meeting held ({quorum['total']}% present, quorum reached: {quorum['quorumReached']}); "
          f"{len(resolutions)} resolution(s) carried over; election and by-law passed")

    # 4. The board as elected, and the by-law's new version.
    # The syndicate's day is Montreal's (the server's): from 0:00 to 5:00 UTC the UTC date is tomorrow
    # there, and a signature dated tomorrow is refused. (The walk-through holds its meeting early.)
    today = s.today()
    outgoing = s.call("get_board", {})["directors"]  # last year's board: their terms end with the election
    for d in outgoing:
        s.call("end_director_mandate", {"id": d["id"], "endReason": "term", "endedOn": today})
    for c, role in zip(owners[:3], ["president", "secretary", "treasurer"]):
        s.call("appoint_director", {"coOwnerId": c["id"], "role": role, "appointedBy": "meeting",
                                    "resolutionId": election["id"], "termStart": today})
    board = s.call("get_board", {})
    article = next(b for b in s.call("list_bylaws", {})["data"] if b["article"] == "4.1")
    amended = s.call("set_bylaw", {"id": article["id"], "text": "Deux animaux domestiques au plus par partie privative.",
                                   "resolutionId": pets["id"], "depositedOn": today})
    print(f"4. outgoing board: {', '.join(d['name'] for d in outgoing)}; "
          f"elected: {', '.join(d['name'] + ' (' + d['role'] + ')' for d in board['directors'])}; "
          f"vacancies {board['vacancies']}; by-law 4.1 in a new version from {amended['effectiveFrom']}: {amended['text']}")
    offices = {"president": "présidence", "secretary": "secrétariat", "treasurer": "trésorerie"}
    wrong, read = minutes_read_right(s, agm["id"], reconvened["id"], owners,
                                     [(d, offices[d["role"]]) for d in board["directors"]])
    print(f"   minutes read with pdftotext: {read['adjourned']} lines looked for in the adjourned meeting's, "
          f"{read['reconvened']} in the reconvened meeting's; {len(wrong)} wrong")
    if wrong:
        sys.exit("the minutes do not read right: " + "; ".join(wrong))

    # 5. A board meeting of the directors, called two days ahead (the declaration's boardNoticeDays),
    # adopts the manager's mandate: two of the three present make quorum, one vote each.
    directors = [d["id"] for d in board["directors"]]
    council = s.call("create_meeting", {"title": "Réunion du conseil", "type": "board", "scheduledAt": instant(63),
                                        "location": "Bureau du syndicat", "agenda": ["Mandat de gestion"]})
    called = s.call("send_meeting_notice", {"meetingId": council["id"], "sendBy": "email"})
    s.close()
    s = Server(key, moment(63) + timedelta(hours=1))
    s.call("record_attendance", {"meetingId": council["id"], "attendees": [
        {"directorId": d, "attendance": "present" if i < 2 else "absent"} for i, d in enumerate(directors)]})
    quorum = s.call("calculate_quorum", {"meetingId": council["id"]})
    hiring = s.call("add_resolution", {"meetingId": council["id"], "title": "Mandat de gestion à Gestion Riverin inc.",
                                       "majorityRequired": "simple"})
    hiring = s.call("record_ballots", {"resolutionId": hiring["id"], "ballots": [
        {"directorId": d, "choice": "for"} for d in directors[:2]]})
    s.call("update_meeting", {"id": council["id"], "status": "held"})
    mandate = s.call("set_management_mandate", {"managerName": "Julie Riverin", "firm": "Gestion Riverin inc.",
                                                "startOn": s.today(), "delegatedPowers": ["day-to-day administration"],
                                                "resolutionId": hiring["id"]})
    print(f"5. board meeting (notice: {called['queued']} e-mails, {len(called['withoutEmail'])} by mail): {quorum['total']} of {quorum['votingBase']} directors "
          f"present, {quorum['required']} required; the mandate {hiring['outcome']} ({hiring['votesFor']} for); "
          f"manager {mandate['managerName']} from {mandate['startOn']}")

    # 6. A new co-owner; the receiver gets the signed event.
    units = s.call("list_units", {"type": "apartment"})["data"]
    before = len(Receiver.posts)
    s.call("create_co_owner", {"unitId": units[0]["id"], "firstName": "Léa", "lastName": "Nouvel", "email": "lea@example.ca"})
    deliver(smtp.port, s.clock)
    events = [(h, b) for h, b in Receiver.posts[before:] if h.get("Syndic-Event-Type") == "co_owner.created"]
    ok = len(events) == 1 and signed(events[0][0], events[0][1], hook["secret"])
    print(f"6. the receiver got {len(events)} co_owner.created, signature {'valid' if ok else 'INVALID'}: "
          f"{json.loads(events[0][1])['data']['firstName'] if events else ''}")
    s.close()
    smtp.stop()
    receiver.shutdown()
    if not ok:
        sys.exit("the webhook's event did not arrive signed")
    print("done: every step as the README says")


main()
