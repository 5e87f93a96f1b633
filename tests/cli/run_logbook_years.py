#!/usr/bin/env python3
"""The maintenance logbook across the years, through the real executable, its clock moved by Debian's
faketime (issue 30): on the demo building, a schedule due within its horizon, then overdue once its
day has passed, moved on a year by the work done, overdue again a year later; a legal duty every 5
years found among the legal ones only when its day comes; a component reaching the end of its life
listed past it once its replacement year has gone by, and planned in the first year of the 25-year
plan; the board's yearly update due a year after the last, refused without the reasons for the
works not done, accepted with them; and the professional revision never due before its 10 years.

usage: run_logbook_years.py SYNDIC_MCP   (each step printed, ok or FAIL)"""
import datetime
import json
import os
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
COUNTS = {"ok": 0, "FAIL": 0}
TODAY = datetime.date.today()


def check(what, condition, detail=""):
    word = "ok" if condition else "FAIL"
    COUNTS[word] += 1
    print(f"{word:4} {what}" + ("" if condition or not detail else f": {detail}"), flush=True)


def call(env, tool, arguments, days=0):
    """One tools/call through `serve`, its clock `days` after now (faketime), at noon in Montreal."""
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    day = TODAY + datetime.timedelta(days=days)
    prefix = ["faketime", f"{day} 17:00:00"] if days else []
    out = subprocess.run(prefix + [BIN, "serve", "--modules", "all", "--log-level", "warn"], env=env, input=request + "\n",
                         capture_output=True, text=True, timeout=120).stdout
    answer = json.loads(out.splitlines()[0])
    if "result" in answer:
        return answer["result"]["structuredContent"]
    return {"error": answer["error"]["message"], "data": answer["error"].get("data", {})}


def a_year_after(d):
    """The same day a year later; February 29 becomes February 28, as the server counts months."""
    try:
        return d.replace(year=d.year + 1)
    except ValueError:
        return d.replace(year=d.year + 1, day=28)


def day(days):
    return str(TODAY + datetime.timedelta(days=days))


def main():
    folder = tempfile.mkdtemp(prefix="syndic-logbook-")
    env = dict(os.environ, SYNDIC_DB=os.path.join(folder, "syndic.db"))
    env.pop("SYNDIC_API_KEY", None)
    env["SYNDIC_API_KEY"] = subprocess.run([BIN, "demo"], env=env, capture_output=True, text=True, check=True).stdout.strip()
    portion = call(env, "list_common_portions", {})["data"][0]["id"]
    year = TODAY.year
    # A lobby floor installed 19 years ago for 20: replaced next year; the yearly polish last done 300 days ago.
    floor = call(env, "create_logbook_component", {"name": "Plancher du hall", "category": "interior", "commonPortionId": portion,
                                                    "installedYear": year - 19, "expectedLifeYears": 20, "replacementCostCents": 1200000})
    polish = call(env, "set_maintenance_schedule", {"componentId": floor["id"], "task": "Polissage du plancher", "frequencyMonths": 12,
                                                    "lastDoneOn": day(-300)})
    facade = call(env, "set_maintenance_schedule", {"componentId": floor["id"], "task": "Inspection des façades", "frequencyMonths": 60,
                                                    "lastDoneOn": day(-1700), "legalBasis": "Code de sécurité : façades, aux 5 ans"})
    due_on = polish["nextDueOn"]
    check("the polish is due its year after it was last done, not yet within the 60-day horizon",
          polish["status"] == "scheduled" and due_on == str(a_year_after(TODAY - datetime.timedelta(days=300))),
          json.dumps(polish))
    check("it is due within 90 days", any(s["id"] == polish["id"] and s["status"] == "due"
                                            for s in call(env, "list_maintenance_due", {"withinDays": 90})["data"]))
    lead = (datetime.date.fromisoformat(due_on) - TODAY).days
    listed = call(env, "list_maintenance_due", {}, days=lead - 30)
    check(f"{lead - 30} days on, it is due within the horizon, not overdue",
          any(s["id"] == polish["id"] and s["status"] == "due" and s["daysUntilDue"] == 30 for s in listed["data"]), json.dumps(listed)[:300])
    late = call(env, "list_maintenance_due", {}, days=lead + 5)
    row = next((s for s in late["data"] if s["id"] == polish["id"]), None)
    check(f"{lead + 5} days on, it is overdue by 5 days, counted among the overdue",
          row is not None and row["status"] == "overdue" and row["daysUntilDue"] == -5 and late["overdueCount"] >= 1, json.dumps(late)[:400])
    status = call(env, "get_logbook", {}, days=lead + 5)
    check("get_logbook lists it among the overdue schedules", any(s["id"] == polish["id"] for s in status["overdueSchedules"]))
    done = call(env, "record_maintenance", {"componentId": floor["id"], "scheduleId": polish["id"], "performedOn": day(lead + 5),
                                            "kind": "routine", "description": "Plancher poli"}, days=lead + 5)
    check("the work done is recorded", done.get("kind") == "routine", json.dumps(done)[:300])
    after = call(env, "get_logbook_component", {"id": floor["id"]}, days=lead + 6)
    polish_now = next(s for s in after["schedules"] if s["id"] == polish["id"])
    check("its schedule moved on a year from the day it was done", polish_now["lastDoneOn"] == day(lead + 5)
          and polish_now["status"] == "scheduled", json.dumps(polish_now))
    year_later = lead + 5 + 370
    again = call(env, "list_maintenance_due", {}, days=year_later)
    check("a year and 5 days later it is overdue again", any(s["id"] == polish["id"] and s["status"] == "overdue" for s in again["data"]))
    facade_day = (datetime.date.fromisoformat(facade["nextDueOn"]) - TODAY).days
    legal_before = call(env, "list_maintenance_due", {"legalOnly": True}, days=facade_day - 61)
    legal_on = call(env, "list_maintenance_due", {"legalOnly": True}, days=facade_day)
    check("the façade inspection (a legal duty every 5 years) is not due 61 days before its day, and is on it",
          all(s["id"] != facade["id"] for s in legal_before["data"]) and any(s["id"] == facade["id"] and s["daysUntilDue"] == 0 for s in legal_on["data"]),
          json.dumps([legal_before["data"], legal_on["data"]])[:400])
    # The floor's replacement year is next year: not past its life this year, past it from the year after.
    next_year = (datetime.date(year + 1, 1, 1) - TODAY).days
    this_year = call(env, "get_logbook", {})
    past = call(env, "get_logbook", {}, days=next_year + 366)
    check("the floor is not past its life this year, and is the year after its replacement year",
          all(c["id"] != floor["id"] for c in this_year["componentsPastLife"]) and any(c["id"] == floor["id"] for c in past["componentsPastLife"]),
          json.dumps(past["componentsPastLife"])[:300])
    plan = call(env, "get_major_works_plan", {}, days=next_year + 366)
    first = plan["years"][0]
    check("the plan puts it in its first year, overdue",
          any(w["componentId"] == floor["id"] and w["overdue"] for w in first["works"]), json.dumps(first)[:400])
    # The board's yearly update: the demo made one yesterday; a year later it is due again.
    check("the yearly update is not due today", this_year["compliance"]["annualUpdateDue"] is False, json.dumps(this_year["compliance"]))
    due = call(env, "get_logbook", {}, days=400)
    check("400 days on, it is due; the professional revision (every 10 years here) is not",
          due["compliance"]["annualUpdateDue"] is True and due["compliance"]["revisionDue"] is False, json.dumps(due["compliance"]))
    refused = call(env, "record_logbook_revision", {"kind": "annual-update", "performedOn": day(400)}, days=400)
    missing = refused.get("data", {}).get("componentIds", "")
    check("the update without reasons is refused, naming the floor's overdue polish among the works not done",
          refused.get("error") == "LOGBOOK_REASONS_MISSING" and floor["id"] in missing, json.dumps(refused)[:300])
    reasons = [{"componentId": c, "reason": "Reporté au printemps"} for c in missing.split(",") if c]
    update = call(env, "record_logbook_revision", {"kind": "annual-update", "performedOn": day(400), "worksNotDone": reasons}, days=400)
    check("with a reason for each, it is recorded with its PDF, and the next is due a year later",
          update.get("documentId") and update["logbook"]["nextAnnualUpdateDue"] == str(a_year_after(TODAY + datetime.timedelta(days=400)))
          and update["logbook"]["compliance"]["annualUpdateDue"] is False, json.dumps(update)[:300])
    print(f"{COUNTS['ok']} passed, {COUNTS['FAIL']} failed")
    sys.exit(1 if COUNTS["FAIL"] or not COUNTS["ok"] else 0)


if __name__ == "__main__":
    main()
