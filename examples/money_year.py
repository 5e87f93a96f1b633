#!/usr/bin/env python3
"""The syndicate's money through the real executable, its clock moved by Debian's faketime as the
months pass (issue 29). The demo's year Y (the year 180 days ago) is budgeted, consulted at a held
meeting and adopted by the board; its notices were issued on January 31 and mailed; most lots paid
the year in February (one by a cheque returned NSF, replaced by a transfer), and lot 102 paid $1,000
of its first instalment and nothing since. Its votes are suspended three months and a day after
that instalment fell due (art. 1094), not on the day before; paying the rest of the oldest
instalment alone leaves them suspended, paying everything owed restores them (votingRestored), a
cheque returned NSF suspends them again at once; late interest for a day is charged once, and the
books balance within each fund after every step. Then a special assessment the board decides by a
written resolution: its notices add up to its total, are issued and read right (pdftotext); a lot
pays part of one, the notice is cancelled and what was paid pays the lot's other debts; a notice is
sent again in English. In January the bank accounts are reconciled to December 31, the year is
closed (each fund's balance sheet balancing, its statements kept as a PDF that reads right) and
nothing more is posted in it.

usage: examples/money_year.py [path/to/syndic-mcp]   (each step printed, ok or FAIL)"""
import datetime
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "syndic-mcp"))
COUNTS = {"ok": 0, "FAIL": 0}


def check(what, condition, detail=""):
    """One step of the year: printed ok, or FAIL with what came back."""
    word = "ok" if condition else "FAIL"
    COUNTS[word] += 1
    print(f"{word:4} {what}" + ("" if condition or not detail else f": {detail}"), flush=True)


def finish():
    print(f"{COUNTS['ok']} passed, {COUNTS['FAIL']} failed")
    sys.exit(1 if COUNTS["FAIL"] or not COUNTS["ok"] else 0)


def call(env, tool, arguments, clock=None):
    """One tools/call through `serve`, its clock at `clock` ("YYYY-MM-DD HH:MM:SS" UTC) when given."""
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    prefix = ["faketime", clock] if clock else []
    out = subprocess.run(prefix + [BIN, "serve", "--modules", "all", "--log-level", "warn"], env=env, input=request + "\n",
                         capture_output=True, text=True, timeout=120).stdout
    answer = json.loads(out.splitlines()[0])
    if "result" not in answer:
        raise RuntimeError(f"{tool} refused: {json.dumps(answer.get('error'))[:400]}")
    return answer["result"]["structuredContent"]


def funds_balance(db):
    with sqlite3.connect(db) as c:
        return c.execute("SELECT fund, sum(debit_cents) - sum(credit_cents) FROM journal_lines GROUP BY fund "
                         "HAVING sum(debit_cents) <> sum(credit_cents)").fetchall()


def pdf_text(db, document_id):
    with sqlite3.connect(db) as c:
        path = c.execute("SELECT path FROM documents WHERE id = ?", (document_id,)).fetchone()[0]
    return subprocess.run(["pdftotext", "-layout", path, "-"], capture_output=True, text=True, check=True).stdout


def special_assessment(env, db, day):
    """The board decides a special contribution on `day`; its notices issued, one cancelled after a
    partial payment, one sent again in English."""
    clock = f"{day} 17:00:00"
    board = call(env, "get_board", {}, clock=clock)
    signatures = [{"signerId": d["id"], "signedOn": str(day)} for d in board["directors"]]
    decision = call(env, "record_written_resolution", {
        "body": "board", "title": "Cotisation spéciale — réfection de la toiture", "majorityRequired": "simple",
        "text": "Le conseil décide une cotisation spéciale de 24 000,01 $ au fonds de prévoyance, en deux versements.",
        "signatures": signatures}, clock=clock)
    first, second = day + datetime.timedelta(days=30), day + datetime.timedelta(days=120)
    special = call(env, "create_special_assessment", {
        "title": "Réfection de la toiture", "reason": "Les bardeaux ont atteint la fin de leur vie utile ; l'étude du fonds recommande de les remplacer.",
        "fund": "contingency", "totalCents": 2400001, "apportionment": "fractions", "resolutionId": decision["id"],
        "installments": [{"dueOn": str(first), "percent": 50}, {"dueOn": str(second), "percent": 50}]}, clock=clock)
    check("the special assessment's notices add up to its total to the cent",
          sum(n["totalCents"] for n in special["notices"]) == 2400001, json.dumps(special["notices"])[:300])
    issued = call(env, "issue_assessment_notices", {"fiscalYear": special["fiscalYear"], "kind": "special"}, clock=clock)
    check("its notices are issued and mailed", issued["issued"] == len(special["notices"]) and issued["queued"] > 0, json.dumps(issued)[:300])
    # Lot 102's: the lots that paid the year ahead have credit, which the new charges take at once.
    notice = call(env, "get_assessment_notice", {"id": next(n["id"] for n in special["notices"] if n["unitNumber"] == "102")}, clock=clock)
    text = pdf_text(db, notice["documentIds"][0])
    check("its PDF reads as a special assessment: title, reason, the board's decision, the instalments",
          "cotisation spéciale" in text.lower() and "Réfection de la toiture" in text and "conseil d’administration" in text
          and "Versement 2 de 2" in text, text[:600])
    # A lot pays its first special instalment in part, designating it; the notice is then cancelled.
    paid_on = first + datetime.timedelta(days=1)
    later = f"{paid_on} 17:00:00"
    charge = notice["installments"][0]["chargeIds"][0]
    payment = call(env, "record_payment", {"unitId": notice["unitId"], "amountCents": 10000, "receivedOn": str(paid_on),
                                           "method": "transfer", "designatedChargeIds": [charge]}, clock=later)
    check("the payment pays the designated special instalment", payment["allocations"][0]["chargeId"] == charge, json.dumps(payment)[:300])
    cancelled = call(env, "cancel_assessment_notice", {"id": notice["id"], "reason": "Montant à revoir"}, clock=later)
    check("cancelling reverses what is unpaid and gives back what was paid",
          cancelled["status"] == "cancelled" and cancelled["cancellation"]["releasedToCreditCents"] == 10000
          and cancelled["cancellation"]["unpaidReversedCents"] == notice["totalCents"] - 10000, json.dumps(cancelled["cancellation"]))
    again = call(env, "get_owner_statement", {"unitId": notice["unitId"]}, clock=later)
    check("the statement shows the cancellation", any(l["type"] == "cancellation" for l in again["lines"]), "")
    check("each fund balances after the cancellation", funds_balance(db) == [], str(funds_balance(db)))
    other = next(n for n in special["notices"] if n["unitNumber"] != "102")
    resent = call(env, "resend_assessment_notice", {"id": other["id"], "language": "en"}, clock=later)
    check("a notice sent again in English", resent["queued"] >= 1 and "Notice of special assessment" in pdf_text(db, resent["documentIds"][0]),
          json.dumps(resent))


def close_the_year(env, db, year):
    """Each bank account with entries reconciled to December 31 (the bank showing what the books
    show), the year closed in January, its statements read, the year locked."""
    clock = f"{year + 1}-01-15 17:00:00"
    end = f"{year}-12-31"
    accounts = call(env, "list_accounts", {"pageSize": 200, "asOf": end}, clock=clock)["data"]
    reconciled = 0
    for account in (a for a in accounts if a["isBank"]):
        trial = call(env, "reconcile_bank_account", {"accountId": account["id"], "statementDate": end, "statementBalanceCents": 0}, clock=clock)
        if not trial["unclearedEntries"]:
            continue
        cleared = [e["entryId"] for e in trial["unclearedEntries"]]
        done = call(env, "reconcile_bank_account", {"accountId": account["id"], "statementDate": end, "finalize": True,
                                                    "statementBalanceCents": trial["bookBalanceCents"], "clearedEntryIds": cleared}, clock=clock)
        reconciled += done["finalized"]
    check("the bank accounts are reconciled to December 31", reconciled > 0, str(reconciled))
    closed = call(env, "close_fiscal_year", {"fiscalYear": year}, clock=clock)
    statements = closed["statements"]
    check("closing carries each fund's result to its balance; every fund's balance sheet balances",
          closed["closingEntries"] and all(statements["funds"][f]["balanceSheet"]["balances"] for f in statements["funds"])
          and all(statements["funds"][f]["balanceSheet"]["resultNotClosedCents"] == 0 for f in statements["funds"]),
          json.dumps(closed["closingEntries"]))
    text = pdf_text(db, closed["statementsDocumentId"])
    check("the statements PDF reads as the year's financial statements, fund by fund, with the debts and claims",
          f"exercice {year}" in text and "Bilan au 31 décembre" in text and "Fonds de prévoyance" in text
          and "État des dettes et des créances" in text, text[:800])
    check("each fund balances after closing", funds_balance(db) == [], str(funds_balance(db)))
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "record_journal_entry", "arguments": {
        "date": f"{year}-12-15", "description": "Correction", "source": "adjustment",
        "lines": [{"accountId": accounts[0]["id"], "debitCents": 1}, {"accountId": accounts[0]["id"], "creditCents": 1}]}}})
    out = subprocess.run(["faketime", clock, BIN, "serve", "--modules", "all", "--log-level", "warn"], env=env, input=request + "\n",
                         capture_output=True, text=True, timeout=120).stdout
    check("nothing more is posted in the closed year (PERIOD_LOCKED)", "PERIOD_LOCKED" in out, out[:300])


def main():
    folder = tempfile.mkdtemp(prefix="syndic-money-")
    db = os.path.join(folder, "syndic.db")
    env = dict(os.environ, SYNDIC_DB=db)
    env.pop("SYNDIC_API_KEY", None)
    key = subprocess.run([BIN, "demo"], env=env, capture_output=True, text=True, check=True).stdout.strip()
    env["SYNDIC_API_KEY"] = key
    year = (datetime.date.today() - datetime.timedelta(days=180)).year

    budget = call(env, "list_budgets", {"fiscalYear": year})["data"][0]
    check("the demo's budget is consulted at a held meeting and adopted by the board",
          budget["status"] == "adopted" and budget["consultation"] is not None, json.dumps(budget)[:300])
    # The demo issued them on January 31, before the first instalment fell due (February 1), and
    # mailed them; issuing them again changes nothing.
    notices = call(env, "list_assessment_notices", {"fiscalYear": year, "pageSize": 100})["data"]
    check("the notices add up to the budget's contributions to the cent",
          sum(n["totalCents"] for n in notices) == budget["contributionsCents"]["total"],
          f'{sum(n["totalCents"] for n in notices)} vs {budget["contributionsCents"]["total"]}')
    mailed = call(env, "list_outbox_messages", {"relatedType": "assessment-notice", "pageSize": 200})["data"]
    check("each notice is issued with its PDF, its instalments posted as charges, and mailed",
          all(n["status"] == "issued" and n["documentIds"] and all(i["chargeIds"] for i in n["installments"]) for n in notices)
          and mailed and all(m["status"] == "sent" for m in mailed), json.dumps(notices[0])[:300])
    again = call(env, "issue_assessment_notices", {"fiscalYear": year})
    check("issuing the year again issues nothing", again["issued"] == 0 and again["charges"] == 0, json.dumps(again)[:300])
    check("each fund balances", funds_balance(db) == [], str(funds_balance(db)))
    arrears = call(env, "list_arrears", {})["data"]
    check("most lots paid the year in February; lot 102 paid $1,000 of its first instalment and nothing since",
          [r["unitNumber"] for r in arrears] == ["102"] and arrears[0]["oldestDueOn"] == f"{year}-02-01", json.dumps(arrears)[:300])

    nsf = call(env, "get_owner_statement", {"unitId": next(n["unitId"] for n in notices if n["unitNumber"] == "201")})
    check("lot 201's cheque came back NSF and a transfer replaced it: it owes nothing",
          [l["type"] for l in nsf["lines"] if l["type"] != "charge"][:3] == ["payment", "reversal", "payment"]
          and nsf["standing"]["overdueCents"] == 0, json.dumps([l["description"] for l in nsf["lines"]])[:300])

    lot = next(n for n in notices if n["unitNumber"] == "102")
    first, second = lot["installments"][0], lot["installments"][1]
    due = datetime.date.fromisoformat(first["dueOn"])
    # Art. 1094: more than three months after the due date, not on the day three months after.
    three_months = due.replace(month=due.month + 3) if due.month <= 9 else due.replace(year=due.year + 1, month=due.month - 9)
    on_day = call(env, "get_owner_statement", {"unitId": lot["unitId"]}, clock=f"{three_months} 17:00:00")["standing"]
    after = call(env, "get_owner_statement", {"unitId": lot["unitId"]},
                 clock=f"{three_months + datetime.timedelta(days=1)} 17:00:00")["standing"]
    check(f"on {three_months}, three months after {due}, the vote is not yet suspended",
          on_day["votingSuspended"] is False and on_day["overdueSince"] == first["dueOn"], json.dumps(on_day))
    check("the day after, it is (art. 1094), and the lot is eligible for the legal hypothec (art. 2729)",
          after["votingSuspended"] is True and after["hypothecEligible"] is True, json.dumps(after))

    later = f"{three_months + datetime.timedelta(days=5)} 17:00:00"
    received = str(three_months + datetime.timedelta(days=5))
    arrears = call(env, "list_arrears", {"votingSuspended": True}, clock=later)
    check("list_arrears names the lot, suspended", any(r["unitNumber"] == "102" for r in arrears["data"]),
          json.dumps([r["unitNumber"] for r in arrears["data"]]))
    partial = call(env, "record_payment", {"unitId": lot["unitId"], "amountCents": first["amountCents"] - 100000, "receivedOn": received,
                                           "method": "cheque", "reference": "chèque 78"}, clock=later)
    check("paying the oldest instalment alone leaves the vote suspended: a later one is unpaid since its day",
          partial["votingRestored"] is False and partial["standingAfter"]["votingSuspended"] is True
          and partial["allocations"][0]["dueOn"] == first["dueOn"], json.dumps(partial["standingAfter"]))
    owed = partial["standingAfter"]["overdueCents"]
    full = call(env, "record_payment", {"unitId": lot["unitId"], "amountCents": owed, "receivedOn": received,
                                        "method": "cheque", "reference": "chèque 79"}, clock=later)
    check("paying everything owed restores the vote (votingRestored)",
          full["votingRestored"] is True and full["standingAfter"]["overdueSince"] is None, json.dumps(full["standingAfter"]))
    returned = call(env, "reverse_payment", {"id": full["id"], "reason": "nsf", "reversedOn": received}, clock=later)
    # The run of overdue days never broke: the first instalment was paid on a day the second was
    # already overdue, so it still opens on the first's due date.
    check("the cheque returned NSF suspends the vote again at once, overdue since the first instalment",
          returned["votingSuspended"] is True and returned["standingAfter"]["overdueSince"] == first["dueOn"]
          and returned["standingAfter"]["overdueCents"] == second["amountCents"],
          json.dumps(returned["standingAfter"]))
    interest_day = str(three_months + datetime.timedelta(days=5))
    once = call(env, "apply_late_interest", {"asOf": interest_day, "dryRun": False}, clock=later)
    twice = call(env, "apply_late_interest", {"asOf": interest_day, "dryRun": False}, clock=later)
    check("late interest for a day is charged once", once["totalCents"] > 0 and twice["totalCents"] == 0,
          f'{once["totalCents"]} then {twice["totalCents"]}')
    check("each fund balances after payments, a reversal and interest", funds_balance(db) == [], str(funds_balance(db)))
    special_assessment(env, db, three_months + datetime.timedelta(days=6))
    close_the_year(env, db, year)
    finish()


if __name__ == "__main__":
    main()
