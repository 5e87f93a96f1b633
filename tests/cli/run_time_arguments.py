#!/usr/bin/env python3
"""Times as a model gives them, through the real executable (issue 27, item 3): a model copying
the description's "-05:00" scheduled a 15 March meeting at 20 h, not 19 h (Montreal is -04:00 from
the second Sunday of March). A local date-time without an offset is Montreal's time; an offset that
is not Montreal's on that date is kept as given but said in `warnings`, with the Montreal time it
means; an annual meeting's notice sent without an agenda says so.

usage: run_time_arguments.py SYNDIC_MCP"""
import datetime
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, finish  # noqa: E402

BIN = os.path.abspath(sys.argv[1])


def call(env, tool, arguments):
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                          "params": {"name": tool, "arguments": arguments}})
    out = subprocess.run([BIN, "serve", "--log-level", "warn"], env=env, input=request + "\n", capture_output=True,
                         text=True, timeout=60).stdout
    answer = json.loads(out.splitlines()[0])
    return answer["result"]["structuredContent"] if "result" in answer else answer


def main():
    year = datetime.date.today().year + 1  # 15 March and 15 January of next year, both ahead
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, SYNDIC_DB=os.path.join(folder, "syndic.db"))
        env["SYNDIC_API_KEY"] = subprocess.run([BIN, "demo"], env=env, capture_output=True, text=True).stdout.strip()
        base = {"title": "Assemblée générale annuelle", "type": "aga", "location": "Salle communautaire",
                "agenda": ["Budget"]}

        local = call(env, "create_meeting", dict(base, scheduledAt="%d-03-15T19:00" % year))
        check("a local date-time is Montreal's: 15 March 19:00 is 19:00-04:00, without a warning",
              local.get("scheduledAt") == "%d-03-15T19:00:00-04:00" % year and "warnings" not in local, json.dumps(local)[:300])
        winter = call(env, "create_meeting", dict(base, scheduledAt="%d-01-15T19:00:00" % year))
        check("...and 15 January 19:00 is 19:00-05:00",
              winter.get("scheduledAt") == "%d-01-15T19:00:00-05:00" % year, json.dumps(winter)[:300])

        copied = call(env, "create_meeting", dict(base, scheduledAt="%d-03-15T19:00:00-05:00" % year))
        warnings = copied.get("warnings", [])
        check("an offset given is kept: -05:00 on 15 March is 20:00 in Montreal",
              copied.get("scheduledAt") == "%d-03-15T20:00:00-04:00" % year, json.dumps(copied)[:300])
        check("...and warnings says so, with the Montreal time it means and what to give for 19:00",
              len(warnings) == 1 and "20:00 in Montreal" in warnings[0] and "%d-03-15T19:00:00-04:00" % year in warnings[0],
              str(warnings))
        right = call(env, "create_meeting", dict(base, scheduledAt="%d-01-15T19:00:00-05:00" % year))
        check("Montreal's own offset gives no warning", "warnings" not in right, json.dumps(right)[:300])
        zulu = call(env, "create_meeting", dict(base, scheduledAt="%d-03-15T23:00:00Z" % year))
        check("nor does UTC given as Z (a program's instant)", zulu.get("scheduledAt") == "%d-03-15T19:00:00-04:00" % year
              and "warnings" not in zulu, json.dumps(zulu)[:300])

        skipped = call(env, "create_meeting", dict(base, scheduledAt="%d-03-14T02:30" % year))
        check("a local time Montreal skips (the spring change) is refused at scheduledAt, saying why",
              skipped.get("error", {}).get("message") == "VALIDATION_FAILED" and
              skipped["error"]["data"].get("field") == "/scheduledAt" and "skips" in skipped["error"]["data"]["detail"],
              json.dumps(skipped)[:400])

        nothing = call(env, "create_meeting", {"title": "Assemblée sans ordre du jour", "type": "aga",
                                               "location": "Salle", "scheduledAt": "%d-03-16T19:00" % year})
        sent = call(env, "send_meeting_notice", {"meetingId": nothing["id"]})
        check("an annual meeting's notice sent without an agenda says so (art. 1087)",
              sent.get("queued", 0) > 0 and any("agenda" in w for w in sent.get("warnings", [])), json.dumps(sent)[:400])
        with_agenda = call(env, "send_meeting_notice", {"meetingId": local["id"]})
        check("...and one with its agenda says nothing of it", "warnings" not in with_agenda, json.dumps(with_agenda)[:300])
    finish()


if __name__ == "__main__":
    main()
