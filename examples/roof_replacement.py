#!/usr/bin/env python3
"""A roof's whole path through the real executable, its clock moved by Debian's faketime (issue 30).
The demo syndicate, created on a fixed day (May 3, 2027) so that nothing depends on today, first
moves the money the operating fund owes its contingency fund into the contingency fund's own bank
account. The roof of its rear annex, a membrane laid in 1999 for 25 years, is entered in the
logbook past its life; a co-owner reports a leak under it (urgent, due the next day, the directors
alerted by e-mail); an inspector finds the roof critical, no life left. The board proposes its replacement,
paid by the contingency fund, and approves it by a written resolution every director signs. Three
roofers quote: one without an RBQ licence, one whose liability insurance has expired, one licensed
and insured; the award is refused to the first two and given to the third, the other quotes
declined. The board authorises the use of the contingency fund for it; the works start; two
progress bills are paid with the 10 % holdback kept, a change order within the budget between
them. The acceptance finds a deficiency: the project does not close while it is open, nor release
the holdback before 30 days; 31 days after the acceptance it closes, the holdback paid, the
authorisation used, the roof renewed in the logbook and the request resolved. The 25-year plan no
longer plans the roof, and the logbook no longer lists it past its life. The contingency fund's
balance and cash (get_fund_position) are checked at each step that moves money.

usage: examples/roof_replacement.py [path/to/syndic-mcp]   (each step printed, ok or FAIL)"""
import datetime
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "syndic-mcp"))
COUNTS = {"ok": 0, "FAIL": 0}
DAY0 = datetime.date(2027, 5, 3)  # the demo's day: spring, roofing season


def day(n):
    return DAY0 + datetime.timedelta(days=n)


def clock(n):
    """The server's clock on day `n`: 17:00 UTC, the afternoon in Montreal (the process runs in UTC)."""
    return f"{day(n)} 17:00:00"


def check(what, condition, detail=""):
    """One step of the roof's path: printed ok, or FAIL with what came back."""
    word = "ok" if condition else "FAIL"
    COUNTS[word] += 1
    print(f"{word:4} {what}" + ("" if condition or not detail else f": {detail}"), flush=True)


def finish():
    print(f"{COUNTS['ok']} passed, {COUNTS['FAIL']} failed")
    sys.exit(1 if COUNTS["FAIL"] or not COUNTS["ok"] else 0)


def answer(env, tool, arguments, n):
    """One tools/call through `serve` on day `n`: the JSON-RPC answer."""
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    run = subprocess.run(["faketime", clock(n), BIN, "serve", "--modules", "all", "--log-level", "warn"], env=env, input=request + "\n",
                         capture_output=True, text=True, timeout=120)
    if not run.stdout.strip():
        raise Refused(f"{tool}: no answer (exit status {run.returncode}): {run.stderr[-400:]}")
    return json.loads(run.stdout.splitlines()[0])


class Refused(Exception):
    """A call that had to succeed was refused (or the server gave no answer): the path stops there."""


def call(env, tool, arguments, n):
    """A call that must succeed: its structured result (a refusal stops the path)."""
    got = answer(env, tool, arguments, n)
    if "result" not in got:
        raise Refused(f"{tool} refused: {json.dumps(got.get('error'), ensure_ascii=False)[:600]}")
    return got["result"]["structuredContent"]


def refusal(env, tool, arguments, n):
    """A call that must be refused: (the error's code, its data), or ("accepted", the result)."""
    got = answer(env, tool, arguments, n)
    if "error" in got:
        return got["error"]["message"], got["error"].get("data", {})
    return "accepted", got["result"]["structuredContent"]


def contingency(env, n):
    return call(env, "get_fund_position", {}, n)["funds"]["contingency"]


def figures(f):
    return {k: f[k] for k in ("balanceCents", "cashCents", "interfundCents", "payablesCents", "authorizedUnusedCents", "availableCents")}


def board_resolution(env, n, title, text):
    """A written resolution of the board signed on day `n` by every director in office (art. 354)."""
    directors = call(env, "get_board", {}, n)["directors"]
    signatures = [{"signerId": d["id"], "signedOn": str(day(n))} for d in directors if d["status"] == "active"]
    return call(env, "record_written_resolution", {"body": "board", "title": title, "majorityRequired": "simple", "text": text,
                                                   "signatures": signatures}, n)


def the_roof(env, db):
    # ---- 1. The demo syndicate; the contingency fund's money into its own bank account. ----
    board = call(env, "get_board", {}, 0)["directors"]
    check("the demo's board: three directors in office, each with an e-mail address",
          len(board) == 3 and all(d["status"] == "active" and d["email"] for d in board), json.dumps(board)[:300])
    before = contingency(env, 0)
    moved = before["interfundCents"]
    check("the demo's contingency fund: part of its balance is money the operating fund owes it (interfund), not in its bank account",
          before["balanceCents"] > 0 and moved > 0, json.dumps(figures(before)))
    accounts = call(env, "list_accounts", {"pageSize": 200}, 0)["data"]
    account = {(a["fund"], a["code"]): a["id"] for a in accounts}
    transfer = call(env, "record_journal_entry", {
        "date": str(day(0)), "description": "Virement au compte du fonds de prévoyance de ce que le fonds d'exploitation lui doit",
        "source": "transfer", "lines": [
            {"accountId": account[("operating", "1900")], "debitCents": moved}, {"accountId": account[("operating", "1010")], "creditCents": moved},
            {"accountId": account[("contingency", "1010")], "debitCents": moved}, {"accountId": account[("contingency", "1900")], "creditCents": moved}]}, 0)
    fund = contingency(env, 0)
    check(f"a transfer (entry {transfer.get('number')}) pays it into the contingency fund's bank account: its cash up, its balance unchanged",
          fund["cashCents"] == before["cashCents"] + moved and fund["balanceCents"] == before["balanceCents"] and fund["interfundCents"] == 0
          and fund["availableCents"] == before["availableCents"] + moved, json.dumps(figures(fund)))
    # What the fund had before the roof: the figures below move from these.
    balance, cash, unused = fund["balanceCents"], fund["cashCents"], fund["authorizedUnusedCents"]

    # ---- 2. The roof in the logbook, past its life. ----
    portion = next(p for p in call(env, "list_common_portions", {}, 0)["data"] if "toiture" in p["name"])
    roof = call(env, "create_logbook_component", {
        "code": "B3010", "name": "Toiture de l'annexe — membrane élastomère", "category": "roofing",
        "location": "Annexe arrière, au-dessus de l'entrée du garage", "commonPortionId": portion["id"], "quantity": 160, "quantityUnit": "m2", "installedYear": 1999, "expectedLifeYears": 25,
        "condition": "poor", "replacementCostCents": 1500000, "manufacturer": "Soprema"}, 0)
    check("the roof is in the logbook, laid in 1999 for 25 years: replacement year 2024, no life left",
          roof["replacementYear"] == 2024 and roof["remainingLifeYears"] <= 0 and roof["commonPortionId"] == portion["id"],
          json.dumps({k: roof.get(k) for k in ("replacementYear", "remainingLifeYears", "condition")}))
    past = call(env, "get_logbook", {}, 0)["componentsPastLife"]
    check("get_logbook lists it past its life", any(c["id"] == roof["id"] for c in past), json.dumps(past))

    # ---- 3. A co-owner of the top floor reports a leak. ----
    luc = next(o for o in call(env, "list_co_owners", {"pageSize": 100}, 0)["data"] if o["firstName"] == "Luc")
    leak = call(env, "create_request", {
        "requesterCoOwnerId": luc["id"], "category": "leak", "location": "common", "commonPortionId": portion["id"], "componentId": roof["id"],
        "description": "De l'eau coule du plafond de l'entrée du garage, sous l'annexe, à chaque pluie ; le plâtre gonfle."}, 0)
    check("the leak is urgent, due the next day (requestSlaUrgentDays 1), linked to the roof",
          leak["priority"] == "urgent" and leak["dueOn"] == str(day(1)) and leak["componentId"] == roof["id"] and leak["status"] == "open",
          json.dumps({k: leak.get(k) for k in ("priority", "dueOn", "componentId", "status")}))
    alerts = call(env, "list_outbox_messages", {"relatedType": "request", "relatedId": leak["id"], "pageSize": 50}, 0)["data"]
    recipients = {m["recipient"] for m in alerts}
    check("the directors are alerted by e-mail at once (queued > 0, each director a recipient)",
          leak["queued"] > 0 and all(d["email"] in recipients for d in board), f'queued {leak["queued"]}, recipients {sorted(recipients)}')
    acknowledged = call(env, "update_request", {"id": leak["id"], "status": "acknowledged"}, 1)
    check("the request is acknowledged the next day", acknowledged["status"] == "acknowledged", acknowledged["status"])

    # ---- 4. The inspection: critical, no life left. ----
    inspection = call(env, "record_inspection", {
        "performedOn": str(day(2)), "scope": "component",
        "inspector": {"name": "Hélène Fortin", "firm": "Fortin Bâtiment ingénieurs", "order": "OIQ", "memberNumber": "5023456"},
        "findings": [{"componentId": roof["id"], "condition": "critical", "remainingLifeYears": 0, "estimatedCostCents": 1750000,
                      "recommendation": "Membrane fissurée et décollée, pontage humide par endroits : remplacer la toiture cette année."}]}, 2)
    after = call(env, "get_logbook_component", {"id": roof["id"]}, 2)
    check("the inspection finds the roof critical, no life left, $17,500 to replace this year",
          after["condition"] == "critical" and after["remainingLifeYears"] == 0 and after["replacementCostCents"] == 1750000
          and after["replacementYear"] == DAY0.year and after["lastInspectedOn"] == str(day(2))
          and any(f["inspectionId"] == inspection["id"] for f in after["inspectionFindings"]),
          json.dumps({k: after.get(k) for k in ("condition", "remainingLifeYears", "replacementCostCents", "replacementYear", "lastInspectedOn")}))

    # ---- 5. The project, approved by the board. ----
    budget = 1800000
    project = call(env, "create_project", {
        "title": "Remplacement de la toiture de l'annexe", "category": "replacement",
        "description": "Enlever la membrane et l'isolant mouillé, refaire le pontage abîmé, poser une membrane élastomère bicouche.",
        "commonPortionIds": [portion["id"]], "componentIds": [roof["id"]], "requestId": leak["id"], "budgetCents": budget,
        "fundingSources": [{"fund": "contingency", "amountCents": budget}], "plannedStart": str(day(21)), "plannedEnd": str(day(40))}, 3)
    check("the replacement is proposed, paid by the contingency fund, for the roof and the leak",
          project["status"] == "proposed" and project["componentIds"] == [roof["id"]] and project["requestId"] == leak["id"],
          json.dumps({k: project.get(k) for k in ("status", "componentIds", "requestId")}))
    approval = board_resolution(env, 3, "Remplacement de la toiture de l'annexe",
                                "Le conseil décide de remplacer la toiture de l'annexe, pour un budget de 18 000 $ payé par le fonds de prévoyance (art. 1071 C.c.Q.).")
    check("the board's written resolution is adopted on its last signature", approval["status"] == "adopted" and approval["outcome"] == "passed",
          json.dumps({k: approval.get(k) for k in ("status", "outcome", "missingSigners")}))
    approved = call(env, "approve_project", {"id": project["id"], "resolutionId": approval["id"]}, 3)
    check("approve_project: approved by the board (a replacement: conservation of the building, art. 1039)",
          approved["status"] == "approved" and approved["approval"]["body"] == "board" and approved["approval"]["approvedOn"] == str(day(3)),
          json.dumps(approved["approval"]))

    # ---- 6. Three quotes. ----
    unlicensed = call(env, "create_contractor", {"name": "Couvertures Express enr.", "trade": "toiture", "insuranceExpiry": str(day(365))}, 5)
    uninsured = call(env, "create_contractor", {"name": "Toitures Laval inc.", "trade": "toiture", "rbqLicence": "5601-2345-01",
                                                "insuranceExpiry": str(day(-10))}, 5)
    good = call(env, "create_contractor", {"name": "Les Couvreurs du Plateau inc.", "trade": "toiture", "rbqLicence": "5702-9876-01",
                                           "insuranceExpiry": str(day(300)), "email": "soumissions@couvreurs-plateau.example"}, 5)
    scope = "Réfection complète de la toiture de l'annexe (160 m²) : membrane élastomère bicouche, isolant, solins."
    quotes = {}
    for who, contractor, cents in (("unlicensed", unlicensed, 1450000), ("uninsured", uninsured, 1550000), ("good", good, 1600000)):
        quotes[who] = call(env, "add_project_quote", {"projectId": project["id"], "contractorId": contractor["id"], "amountCents": cents,
                                                      "receivedOn": str(day(8)), "validUntil": str(day(60)), "scope": scope}, 8)
    warnings = {who: q["contractorWarnings"] for who, q in quotes.items()}
    check("the unlicensed roofer's quote warns of its missing RBQ licence",
          any("RBQ" in w for w in warnings["unlicensed"]) and not any("insurance" in w.lower() for w in warnings["unlicensed"]),
          json.dumps(warnings["unlicensed"], ensure_ascii=False))
    check("the uninsured roofer's quote warns of its expired liability insurance",
          any("insurance" in w.lower() for w in warnings["uninsured"]) and not any("RBQ" in w for w in warnings["uninsured"]),
          json.dumps(warnings["uninsured"], ensure_ascii=False))
    check("the licensed and insured roofer's quote has no warning", warnings["good"] == [], json.dumps(warnings["good"], ensure_ascii=False))

    # ---- 7. The award: refused twice, then given. ----
    award = board_resolution(env, 14, "Adjudication du contrat de la toiture de l'annexe",
                             "Le conseil adjuge le contrat de réfection de la toiture de l'annexe à la soumission conforme la plus basse.")
    code, data = refusal(env, "award_project_contract", {"projectId": project["id"], "quoteId": quotes["unlicensed"]["id"],
                                                         "resolutionId": award["id"]}, 14)
    check("the award to the roofer without an RBQ licence is refused (CONTRACTOR_LICENCE_MISSING)", code == "CONTRACTOR_LICENCE_MISSING",
          f"{code} {json.dumps(data, ensure_ascii=False)[:200]}")
    code, data = refusal(env, "award_project_contract", {"projectId": project["id"], "quoteId": quotes["uninsured"]["id"],
                                                         "resolutionId": award["id"]}, 14)
    check("the award to the roofer whose insurance expired is refused (CONTRACTOR_INSURANCE_EXPIRED)", code == "CONTRACTOR_INSURANCE_EXPIRED",
          f"{code} {json.dumps(data, ensure_ascii=False)[:200]}")
    awarded = call(env, "award_project_contract", {"projectId": project["id"], "quoteId": quotes["good"]["id"], "resolutionId": award["id"]}, 14)
    check("the contract is awarded to the licensed and insured roofer, $16,000",
          awarded["contractorId"] == good["id"] and awarded["quoteId"] == quotes["good"]["id"] and awarded["contractAmountCents"] == 1600000,
          json.dumps({k: awarded.get(k) for k in ("status", "contractorId", "contractAmountCents")}))
    statuses = {q["id"]: q["status"] for q in call(env, "get_project", {"id": project["id"]}, 14)["quotes"]}
    check("the other quotes are declined", statuses == {quotes["good"]["id"]: "awarded", quotes["unlicensed"]["id"]: "declined",
                                                        quotes["uninsured"]["id"]: "declined"}, json.dumps(statuses))

    # ---- 8. The board authorises the use of the contingency fund. ----
    use = board_resolution(env, 14, "Utilisation du fonds de prévoyance : toiture de l'annexe",
                           "Le conseil autorise l'utilisation du fonds de prévoyance, jusqu'à 18 000 $, pour le remplacement de la toiture de l'annexe.")
    authorization = call(env, "authorize_fund_use", {"fund": "contingency", "amountCents": budget, "use": "replacement",
                                                     "purpose": "Remplacement de la toiture de l'annexe", "resolutionId": use["id"],
                                                     "projectId": project["id"]}, 14)
    check("the use of the contingency fund is authorised for the project",
          authorization["status"] == "authorized" and authorization["projectId"] == project["id"] and authorization["remainingCents"] == budget,
          json.dumps(authorization, ensure_ascii=False)[:300])
    fund = contingency(env, 14)
    check("get_fund_position: $18,000 more authorised unused, as much less available; the cash and balance unchanged",
          fund["authorizedUnusedCents"] == unused + budget and fund["availableCents"] == cash - fund["payablesCents"] - unused - budget
          and fund["cashCents"] == cash and fund["balanceCents"] == balance, json.dumps(figures(fund)))

    # ---- 9. The works start. ----
    started = call(env, "add_project_update", {"projectId": project["id"], "date": str(day(21)), "progressPercent": 10,
                                               "note": "Chantier ouvert : conteneur livré, vieille membrane enlevée sur le premier tiers."}, 21)
    now = call(env, "get_project", {"id": project["id"]}, 21)
    check("the first progress update starts the project (in-progress, actualStart its date)",
          now["status"] == "in-progress" and now["actualStart"] == str(day(21)) and now["progressPercent"] == 10,
          json.dumps({k: now.get(k) for k in ("status", "actualStart", "progressPercent")}) + f" update {started.get('id')}")

    # ---- 10. The first progress bill, its holdback kept. ----
    first = call(env, "record_project_expense", {"projectId": project["id"], "invoiceNumber": "CP-1041", "invoiceDate": str(day(28)),
                                                 "amountCents": 800000, "fund": "contingency",
                                                 "fundUseAuthorizationId": authorization["id"], "paidOn": str(day(28))}, 28)
    check("the first bill ($8,000): 10 % held back, the rest paid",
          first["invoice"]["holdbackCents"] == 80000 and first["invoice"]["paid"] is True and first["invoice"]["contractorId"] == good["id"],
          json.dumps(first["invoice"]))
    spent = call(env, "get_project_budget", {"id": project["id"]}, 28)
    check("get_project_budget: $8,000 invoiced, $7,200 paid, $800 held back",
          spent["invoicedCents"] == 800000 and spent["paidCents"] == 720000 and spent["holdbackHeldCents"] == 80000
          and spent["unpaidCents"] == 0 and spent["remainingBudgetCents"] == budget - 800000, json.dumps(spent))
    fund = contingency(env, 28)
    check("the contingency fund: cash down by the $7,200 paid, balance down by the $8,000 invoiced, $10,000 still authorised",
          fund["cashCents"] == cash - 720000 and fund["balanceCents"] == balance - 800000
          and fund["authorizedUnusedCents"] == unused + budget - 800000 and fund["availableCents"] == fund["cashCents"] - fund["payablesCents"] - fund["authorizedUnusedCents"],
          json.dumps(figures(fund)))

    # ---- 11. A change order within the budget, then the second bill. ----
    change = call(env, "add_change_order", {"projectId": project["id"], "description": "Remplacer 12 m² de pontage pourri le long du mur du bâtiment",
                                            "amountCents": 150000, "reason": "Découvert à l'enlèvement de la vieille membrane"}, 30)
    check("a change order of $1,500 is proposed (CO-1, pending)", change["status"] == "pending" and change["number"] == "CO-1",
          json.dumps(change, ensure_ascii=False)[:300])
    decided = call(env, "decide_change_order", {"projectId": project["id"], "changeOrderId": change["id"], "decision": "approve"}, 30)
    spent = call(env, "get_project_budget", {"id": project["id"]}, 30)
    check("approved without a resolution (the contract and its changes, $17,500, within the $18,000 budget)",
          decided["status"] == "approved" and spent["approvedChangesCents"] == 150000 and spent["committedCents"] == 1750000,
          json.dumps({"status": decided["status"], "approvedChangesCents": spent["approvedChangesCents"], "committedCents": spent["committedCents"]}))
    code, data = refusal(env, "record_project_expense", {"projectId": project["id"], "invoiceNumber": "CP-1057", "invoiceDate": str(day(35)),
                                                         "amountCents": 950001, "fund": "contingency",
                                                         "fundUseAuthorizationId": authorization["id"], "paidOn": str(day(35))}, 35)
    check("a bill a cent over the contract and its change is refused (OVER_CONTRACT)", code == "OVER_CONTRACT",
          f"{code} {json.dumps(data, ensure_ascii=False)[:200]}")
    second = call(env, "record_project_expense", {"projectId": project["id"], "invoiceNumber": "CP-1057", "invoiceDate": str(day(35)),
                                                  "amountCents": 950000, "fund": "contingency",
                                                  "fundUseAuthorizationId": authorization["id"], "paidOn": str(day(35))}, 35)
    spent = call(env, "get_project_budget", {"id": project["id"]}, 35)
    check("the second bill ($9,500, the change included): $950 held back, $8,550 paid; $1,750 held in all",
          second["invoice"]["holdbackCents"] == 95000 and second["invoice"]["paid"] is True and spent["invoicedCents"] == 1750000
          and spent["paidCents"] == 720000 + 855000 and spent["holdbackHeldCents"] == 175000, json.dumps(spent))
    fund = contingency(env, 35)
    check("the contingency fund: cash down by the $8,550 paid, balance by the $9,500 invoiced, $500 still authorised",
          fund["cashCents"] == cash - 1575000 and fund["balanceCents"] == balance - 1750000
          and fund["authorizedUnusedCents"] == unused + budget - 1750000 and fund["availableCents"] == fund["cashCents"] - fund["payablesCents"] - fund["authorizedUnusedCents"],
          json.dumps(figures(fund)))

    # ---- 12. Acceptance, a deficiency, closing 31 days later. ----
    call(env, "add_project_update", {"projectId": project["id"], "date": str(day(35)), "progressPercent": 100, "note": "Travaux terminés."}, 35)
    completed = call(env, "complete_project", {"id": project["id"], "completedOn": str(day(35)),
                                               "deficiencies": [{"description": "Solin du parapet nord mal scellé", "dueOn": str(day(45))}]}, 35)
    deficiency = completed["deficiencies"][0] if completed["deficiencies"] else {}
    check("the acceptance: completed, one deficiency open, the holdback releasable 30 days later, the warranties running",
          completed["status"] == "completed" and completed["completedOn"] == str(day(35)) and len(completed["deficiencies"]) == 1
          and deficiency.get("resolvedOn") is None and completed["holdbackReleasableOn"] == str(day(65))
          and completed["warrantyEndsOn"] == str(day(35).replace(year=day(35).year + 1))
          and completed["structuralWarrantyEndsOn"] == str(day(35).replace(year=day(35).year + 5)),
          json.dumps({k: completed.get(k) for k in ("status", "deficiencies", "holdbackReleasableOn", "warrantyEndsOn", "structuralWarrantyEndsOn")},
                     ensure_ascii=False))
    code, data = refusal(env, "close_project", {"id": project["id"]}, 35)
    check("closing while the deficiency is open is refused (PROJECT_HAS_OPEN_DEFICIENCIES)", code == "PROJECT_HAS_OPEN_DEFICIENCIES",
          f"{code} {json.dumps(data, ensure_ascii=False)[:200]}")
    fixed = call(env, "update_project", {"id": project["id"], "resolveDeficiencies": [{"deficiencyId": deficiency.get("id"), "resolvedOn": str(day(42))}]}, 42)
    check("the deficiency is corrected", fixed["deficiencies"][0]["resolvedOn"] == str(day(42)), json.dumps(fixed["deficiencies"], ensure_ascii=False))
    code, data = refusal(env, "close_project", {"id": project["id"], "releaseHoldback": True}, 42)
    check(f"releasing the holdback on {day(42)}, before {day(65)}, is refused (HOLDBACK_NOT_RELEASABLE)", code == "HOLDBACK_NOT_RELEASABLE",
          f"{code} {json.dumps(data, ensure_ascii=False)[:200]}")
    closed = call(env, "close_project", {"id": project["id"], "releaseHoldback": True}, 66)
    check(f"on {day(66)}, 31 days after the acceptance, the project closes and its holdback is released",
          closed["status"] == "closed" and closed["holdbackCents"] == 0 and closed["closedOn"] == str(day(66)),
          json.dumps({k: closed.get(k) for k in ("status", "holdbackCents", "closedOn", "paidCents")}))
    spent = call(env, "get_project_budget", {"id": project["id"]}, 66)
    check("get_project_budget: $17,500 invoiced and paid, nothing held back any more",
          spent["paidCents"] == 1750000 and spent["holdbackHeldCents"] == 0 and spent["holdbackReleasedCents"] == 175000
          and spent["unpaidCents"] == 0, json.dumps(spent))
    fund = contingency(env, 66)
    check("the contingency fund: cash down by the $1,750 holdback paid, $17,500 in all; the authorisation used, nothing of it left authorised",
          fund["cashCents"] == cash - 1750000 and fund["balanceCents"] == balance - 1750000
          and fund["authorizedUnusedCents"] == unused and fund["availableCents"] == fund["cashCents"] - fund["payablesCents"] - unused, json.dumps(figures(fund)))
    with sqlite3.connect(db) as c:
        status = c.execute("SELECT status FROM fund_use_authorizations WHERE id = ?", (authorization["id"],)).fetchone()[0]
    check("the fund-use authorisation is used", status == "used", status)
    renewed = call(env, "get_logbook_component", {"id": roof["id"]}, 66)
    record = next((m for m in renewed["recentMaintenance"] if m["projectId"] == project["id"]), {})
    check(f"the roof is renewed in the logbook: installed {DAY0.year}, in good condition, 25 years left",
          renewed["installedYear"] == DAY0.year and renewed["condition"] == "good" and renewed["remainingLifeYears"] == 25
          and renewed["replacementYear"] == DAY0.year + 25,
          json.dumps({k: renewed.get(k) for k in ("installedYear", "condition", "remainingLifeYears", "replacementYear", "replacementYearOverridden")}))
    check("a maintenance record of kind replacement names the project, its contractor and its cost",
          record.get("kind") == "replacement" and record.get("contractorId") == good["id"] and record.get("costCents") == 1750000,
          json.dumps(renewed["recentMaintenance"], ensure_ascii=False)[:400])
    resolved = call(env, "resolve_request", {"id": leak["id"], "projectId": project["id"],
                                             "resolution": "La toiture de l'annexe a été remplacée (projet " + project["number"] + ") ; l'infiltration est réglée."}, 66)
    check("the leak is resolved by the project, the requester told",
          resolved["status"] == "resolved" and resolved["resolvedOn"] == str(day(66)) and resolved["links"]["projectId"] == project["id"]
          and resolved["queued"] > 0, json.dumps({k: resolved.get(k) for k in ("status", "resolvedOn", "links", "queued")}))

    # ---- 13. The plan and the logbook. ----
    plan = call(env, "get_major_works_plan", {}, 66)
    planned = [(y["year"], w["name"]) for y in plan["years"] for w in y["works"] if w["componentId"] == roof["id"]]
    projects = [(y["year"], p["number"]) for y in plan["years"] for p in y["projects"] if p["projectId"] == project["id"]]
    check(f"get_major_works_plan ({plan['fromYear']}-{plan['toYear']}) no longer plans the roof before {DAY0.year + 25}, nor the closed project",
          plan["toYear"] < DAY0.year + 25 and not planned and not projects, json.dumps({"works": planned, "projects": projects}, ensure_ascii=False))
    check("the plan opens on the contingency fund's balance", plan["openingBalanceCents"] == balance - 1750000,
          f'{plan["openingBalanceCents"]} vs {balance - 1750000}')
    logbook = call(env, "get_logbook", {}, 66)
    check("get_logbook no longer lists the roof past its life", all(c["id"] != roof["id"] for c in logbook["componentsPastLife"]),
          json.dumps(logbook["componentsPastLife"], ensure_ascii=False))


def main():
    folder = tempfile.mkdtemp(prefix="syndic-roof-")
    db = os.path.join(folder, "syndic.db")
    # faketime reads the time in the process's zone: given in UTC, the process runs in UTC (the
    # service keeps Montreal's calendar itself).
    env = dict(os.environ, SYNDIC_DB=db, TZ="UTC")
    env.pop("SYNDIC_API_KEY", None)
    key = subprocess.run(["faketime", f"{DAY0} 12:00:00", BIN, "demo", "--log-level", "warn"], env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    env["SYNDIC_API_KEY"] = key
    try:
        the_roof(env, db)
    except Refused as refused:
        check("the path goes on", False, str(refused))
    finish()


if __name__ == "__main__":
    main()
