#!/usr/bin/env python3
"""Governance acts a member key could bend (issue 28, point 4), tried through the real executable
on the demo syndicate, as the attack round did, with a member key and an admin key:

- a board written resolution missing one director's signature, "adopted" by recording that
  director's resignation: it lapses, and authorises nothing;
- signatures dated 1999 on a resolution recorded today: refused;
- a member's upload of "final minutes": not the register's until an admin certifies it, so an
  admin archives it; once certified, only voided with a reason;
- a member reporting a queued notice sent in 1990: refused (admins only), and an admin's report
  lies between the queuing and now, marked reportedByHand;
- an admin key without write:administration does not count as the last credential able to
  administer (LAST_ADMIN);
- and a residual of point 8: a co-owner's name holding an invisible character (U+200B, U+200D,
  U+061C, U+FEFF, U+FFFF, U+3164...) is refused, so two co-owners cannot look the same.

usage: run_member_bending.py SYNDIC_MCP
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, finish  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
folder = tempfile.mkdtemp(prefix="syndic-bending-")
ENV = {k: v for k, v in os.environ.items() if k not in ("SYNDIC_API_KEY", "SYNDIC_DB", "SYNDIC_MODULES")}
ENV["SYNDIC_DB"] = os.path.join(folder, "syndic.db")


class Session:
    def __init__(self, key):
        self.proc = subprocess.Popen([BIN, "serve", "--modules", "all", "--log-level", "warn"], env=dict(ENV, SYNDIC_API_KEY=key),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.n = 0
        self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bending", "version": "1"}})

    def rpc(self, method, params):
        self.n += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params}) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def call(self, tool, args):
        """(code, answer): code "ok" with the structured result, or the refusal's code and data."""
        a = self.rpc("tools/call", {"name": tool, "arguments": args})
        if "error" in a:
            return a["error"]["message"], a["error"].get("data", {})
        return "ok", a["result"]["structuredContent"]

    def must(self, tool, args):
        code, out = self.call(tool, args)
        if code != "ok":
            sys.exit(f"{tool} refused: {code} {out}")
        return out

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def key(*args):
    out = subprocess.run([BIN, *args, "--json", "--log-level", "warn"], env=ENV, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


admin_key = key("demo")["apiKey"]
member = key("keys", "create", "--role", "member", "--name", "membre")
reader = key("keys", "create", "--role", "admin", "--scopes", "read:administration,write:meetings", "--name", "admin sans administration")
admin, as_member = Session(admin_key), Session(member["apiKey"])
today = datetime.now(ZoneInfo("America/Montreal")).strftime("%Y-%m-%d")  # the syndicate's day

# 1. A board written resolution, two of three signatures, the third director resigns.
directors = admin.must("get_board", {})["directors"]
ids = [d["id"] for d in directors]
w = as_member.must("record_written_resolution", {
    "body": "board", "title": "Mandat de gestion", "majorityRequired": "simple", "text": "Le conseil confie la gestion.",
    "signatures": [{"signerId": i, "signedOn": today} for i in ids[:2]]})
as_member.must("end_director_mandate", {"id": ids[2], "endReason": "resignation", "endedOn": today})
code, data = as_member.call("record_written_resolution", {"id": w["id"], "signatures": []})
check("a signer who resigns makes the written resolution lapse (INVALID_STATUS_TRANSITION, lapsed)",
      code == "INVALID_STATUS_TRANSITION" and data.get("status") == "lapsed", f"{code} {data}")
code, _ = admin.call("set_management_mandate", {"managerName": "Gestion", "startOn": today, "delegatedPowers": ["gestion"],
                                                "resolutionId": w["id"]})
check("the lapsed resolution authorises no mandate (MEETING_NOT_HELD: never adopted)", code == "MEETING_NOT_HELD", code)

# 2. Signatures dated 1999.
code, data = as_member.call("record_written_resolution", {
    "body": "board", "title": "Antidatée", "majorityRequired": "simple", "text": "x",
    "signatures": [{"signerId": i, "signedOn": "1999-01-01"} for i in ids[:2]]})
check("signatures dated 1999 on a resolution recorded today: VALIDATION_FAILED",
      code == "VALIDATION_FAILED" and data.get("putForwardOn") == today, f"{code} {data}")

# 3. A member's "final minutes".
m = admin.must("create_meeting", {"title": "AGA", "type": "aga", "scheduledAt": (datetime.now(timezone.utc) + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                                  "location": "Salle", "agenda": ["Budget"]})
pdf = base64.b64encode(b"%PDF-1.7\n% faux proces-verbal\n%%EOF\n").decode()
upload = as_member.must("attach_document", {"contentBase64": pdf, "fileName": "pv.pdf", "mimeType": "application/pdf",
                                            "kind": "minutes", "title": "Procès-verbal", "recordType": "meeting", "recordId": m["id"]})
check("a member's minutes upload is not protected", upload["protected"] is False and upload["certifiedAt"] is None, str(upload))
code, _ = as_member.call("attach_document", {"documentId": upload["id"], "recordType": "meeting", "recordId": m["id"], "certify": True})
check("a member cannot certify it (ADMIN_REQUIRED)", code == "ADMIN_REQUIRED", code)
code, out = admin.call("archive_document", {"id": upload["id"], "reason": "téléversé par erreur"})
check("an admin archives the member's uncertified minutes", code == "ok" and out.get("deletedAt"), f"{code} {out}")
pdf2 = base64.b64encode(b"%PDF-1.7\n% vrai proces-verbal\n%%EOF\n").decode()
real = as_member.must("attach_document", {"contentBase64": pdf2, "fileName": "pv2.pdf", "mimeType": "application/pdf",
                                          "kind": "minutes", "title": "Procès-verbal signé", "recordType": "meeting", "recordId": m["id"]})
admin.must("attach_document", {"documentId": real["id"], "recordType": "meeting", "recordId": m["id"], "certify": True})
code, _ = admin.call("archive_document", {"id": real["id"], "reason": "x"})
check("certified, it is protected (DOCUMENT_PROTECTED)", code == "DOCUMENT_PROTECTED", code)
code, out = admin.call("archive_document", {"id": real["id"], "reason": "pas la bonne version", "void": True})
check("an admin voids it with a reason", code == "ok" and out.get("voidedAt"), f"{code} {out}")

# 4. A member reports a queued notice sent in 1990.
notice = admin.must("send_meeting_notice", {"meetingId": m["id"]})
queued = admin.must("list_outbox_messages", {"status": "queued", "relatedId": m["id"]})["data"]
first = queued[0]["id"]
code, _ = as_member.call("update_outbox_message", {"id": first, "status": "sent", "sentAt": "1990-01-01T12:00:00-05:00"})
check("a member cannot report a notice sent (ADMIN_REQUIRED)", code == "ADMIN_REQUIRED", code)
for when in ("1990-01-01T12:00:00-05:00", "2099-01-01T12:00:00-05:00"):
    code, data = admin.call("update_outbox_message", {"id": first, "status": "sent", "sentAt": when})
    check(f"an admin's report dated {when[:4]}: VALIDATION_FAILED at /sentAt", code == "VALIDATION_FAILED" and data.get("field") == "/sentAt",
          f"{code} {data}")
code, out = admin.call("update_outbox_message", {"id": first, "status": "sent"})
check("an admin's report now is kept, marked reportedByHand", code == "ok" and out.get("reportedByHand") is True, f"{code} {out}")

# 5. The last credential able to administer.
keys = admin.must("list_api_keys", {})["data"]
demo_key = next(k for k in keys if k["role"] == "admin" and "*" in k["scopes"])
code, _ = admin.call("revoke_api_key", {"id": demo_key["id"]})
check("an admin key without write:administration does not count: LAST_ADMIN", code == "LAST_ADMIN", code)
code, _ = admin.call("revoke_api_key", {"id": reader["apiKeyId"]})
check("the key without write:administration itself may go", code == "ok", code)

# 6. Invisible characters in a name (point 8).
unit = admin.must("list_units", {"type": "apartment"})["data"][0]["id"]
for c in ("\u200b", "\u200d", "\u061c", "\ufeff", "\uffff", "\u3164", "\u2800"):
    code, data = as_member.call("create_co_owner", {"unitId": unit, "firstName": "Ma" + c + "rie", "lastName": "Tremblay"})
    check(f"a co-owner named Ma+U+{ord(c):04X}+rie: VALIDATION_FAILED at /firstName",
          code == "VALIDATION_FAILED" and data.get("field") == "/firstName", f"{code} {data}")

admin.close()
as_member.close()
finish()
