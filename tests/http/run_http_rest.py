#!/usr/bin/env python3
"""The HTTP bridge's REST routes, as a black box through real HTTP on 127.0.0.1.

usage: run_http_rest.py SYNDIC_MCP

Co-owners, units and the declaration, meetings (and the minutes' download), the audit trail, water
heaters, insurance, contractors and documents (uploads and their download): each route with its real effect read back by a later GET, and
each refusal with its status and code. One line per check, then "N passed, M failed".
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_support import *  # noqa: E402,F401,F403 (the shared harness)


def test_co_owners(s, k, demo):
    section("REST: co-owners")
    a = k["admin"]
    r = s.rest("GET", "/co-owners", key=a)
    ok = expect("GET /co-owners: 200", r, 200)
    check("...application/json, the 8 co-owners of the demo in a page",
          ok and r.media_type == "application/json" and r.json["pagination"]["total"] == 8 and len(r.json["data"]) == 8, str(r))
    r = s.rest("GET", "/co-owners?search=" + urllib.parse.quote("côté"), key=a)
    check("GET /co-owners?search=côté (percent-encoded UTF-8): the two Côté",
          r.status == 200 and sorted(c["lastName"] for c in r.json["data"]) == ["Côté", "Côté"], str(r))
    r = s.rest("GET", "/co-owners?pageSize=3&page=2", key=a)
    check("GET /co-owners?pageSize=3&page=2: integers from the query string",
          r.status == 200 and r.json["pagination"] == {"page": 2, "pageSize": 3, "total": 8} and len(r.json["data"]) == 3, str(r))
    r = s.rest("GET", "/co-owners?hasPortalAccess=true", key=a)
    check("GET /co-owners?hasPortalAccess=true: a boolean from the query string",
          r.status == 200 and r.json["data"] and all(c["hasPortalAccess"] is True for c in r.json["data"])
          and r.json["pagination"]["total"] < 8, str(r))
    r = s.rest("GET", "/co-owners?pageSize=many", key=a)
    expect("GET /co-owners?pageSize=many: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    r = s.rest("GET", "/co-owners?hasPortalAccess=yes", key=a)
    expect("GET /co-owners?hasPortalAccess=yes: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    r = s.rest("GET", "/co-owners?colour=blue", key=a)
    expect("GET /co-owners?colour=blue (unknown argument): 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")

    unit = demo["units"]["102"]
    body = {"firstName": "Roxanne", "lastName": "Théberge", "email": "roxanne.theberge@example.ca",
            "unitId": unit["id"], "fractionPercent": 2.5, "language": "fr"}
    r = s.rest("POST", "/co-owners", body, key=a)
    expect("POST /co-owners beyond what the unit's co-owners may hold: 422 CO_OWNER_FRACTION_EXCEEDS_UNIT", r, 422,
           "CO_OWNER_FRACTION_EXCEEDS_UNIT")
    isabelle = next(c for c in demo["co_owners"] if c["unitNumber"] == "102" and not c["isPrimary"])
    r = s.rest("PATCH", f"/co-owners/{isabelle['id']}", {"fractionPercent": isabelle["fractionPercent"] - 2.5}, key=a)
    expect("PATCH a co-owner of 102 down by 2.5, leaving room in the unit: 200", r, 200)
    r = s.rest("POST", "/co-owners", body, key=a)
    ok = expect("POST /co-owners: 201", r, 201)
    cid = r.json.get("id") if ok else None
    check("...the created co-owner", ok and bool(cid) and r.json.get("lastName") == "Théberge"
          and r.json.get("unitNumber") == "102", str(r))
    if not cid:
        return
    r = s.rest("GET", f"/co-owners/{cid}", key=a)
    check("GET /co-owners/{id}: 200, the record as created",
          r.status == 200 and r.json.get("email") == body["email"] and close(r.json.get("fractionPercent"), 2.5), str(r))
    r = s.rest("POST", "/co-owners", dict(body, firstName="Roxanne-bis", fractionPercent=0),
               key=a, content_type="application/json; charset=utf-8")
    expect("POST with Content-Type application/json; charset=utf-8: 201", r, 201)

    r = s.rest("PATCH", f"/co-owners/{cid}", {"phone": "+15145550999", "hasPortalAccess": True}, key=a)
    expect("PATCH /co-owners/{id}: 200", r, 200)
    r = s.rest("GET", f"/co-owners/{cid}", key=a)
    check("...a later GET shows the change",
          r.status == 200 and r.json.get("phone") == "+15145550999" and r.json.get("hasPortalAccess") is True, str(r))
    r = s.rest("PATCH", f"/co-owners/{cid}", {"id": "another-id", "phone": "+15145550000"}, key=a)
    expect("PATCH with a body id that contradicts the path: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    r = s.rest("PATCH", f"/co-owners/{cid}", {"id": cid, "isResident": True}, key=a)
    expect("PATCH with a body id equal to the path: 200", r, 200)
    r = s.rest("PATCH", f"/co-owners/{cid}?phone=%2B15145550000", {}, key=a)
    expect("PATCH with a query string: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    r = s.rest("GET", f"/co-owners/{cid}", key=a)
    check("...and nothing changed", r.status == 200 and r.json.get("phone") == "+15145550999", str(r))

    r = s.rest("DELETE", f"/co-owners/{cid}", key=k["member"])
    expect("DELETE /co-owners/{id} by a member: 403 ADMIN_REQUIRED", r, 403, "ADMIN_REQUIRED")
    r = s.rest("DELETE", f"/co-owners/{cid}", key=a)
    ok = expect("DELETE /co-owners/{id} by an admin: 200", r, 200)
    check("...archived, portal access revoked",
          ok and r.json.get("coOwner", {}).get("deletedAt") and r.json.get("portalAccessRevoked") is True, str(r))
    r = s.rest("GET", "/co-owners?search=" + urllib.parse.quote("Théberge"), key=a)
    check("...no longer listed", r.status == 200 and cid not in [c["id"] for c in r.json["data"]], str(r))
    r = s.rest("GET", f"/co-owners/{cid}", key=a)
    check("...GET /co-owners/{id} shows deletedAt", r.status == 200 and r.json.get("deletedAt"), str(r))
    r = s.rest("POST", f"/co-owners/{cid}/restore", key=a)
    expect("POST /co-owners/{id}/restore with an empty body and no Content-Type: 200", r, 200)
    r = s.rest("GET", f"/co-owners/{cid}", key=a)
    check("...a later GET shows it active", r.status == 200 and r.json.get("deletedAt") is None, str(r))
    r = s.rest("POST", f"/co-owners/{cid}/restore", {}, key=a)
    expect("restoring an active co-owner: 409 NOT_ARCHIVED", r, 409, "NOT_ARCHIVED")

    rows = [{"firstName": "Anne", "lastName": "Lot-Import", "unitId": demo["units"]["202"]["id"]},
            {"firstName": "Marc", "lastName": "Lot-Import", "unitId": demo["units"]["202"]["id"], "email": "pas-un-courriel"},
            {"firstName": "Lise", "lastName": "Lot-Import", "unitId": demo["units"]["302"]["id"]}]
    r = s.rest("POST", "/co-owners/bulk", {"coOwners": rows}, key=a)
    ok = expect("POST /co-owners/bulk: 200", r, 200)
    created = [c["id"] for c in r.json.get("created", [])] if ok else []
    check("...two created, the bad e-mail in errors",
          ok and r.json.get("createdCount") == 2 and [e.get("index") for e in r.json.get("errors", [])] == [1]
          and r.json["errors"][0].get("code") == "INVALID_EMAIL", str(r))
    r = s.rest("GET", "/co-owners?search=Lot-Import", key=a)
    check("...a later GET lists exactly those two",
          r.status == 200 and sorted(c["id"] for c in r.json["data"]) == sorted(created) and len(created) == 2, str(r))

    # Refusals.
    r = s.rest("POST", "/co-owners", dict(body, email="roxanne@"), key=a)
    expect("POST /co-owners with a bad e-mail: 400 INVALID_EMAIL", r, 400, "INVALID_EMAIL")
    check("...the error has a message and names the field",
          isinstance(error_of(r).get("message"), str) and "email" in str(error_of(r).get("field", "")), str(r))
    r = s.rest("POST", "/co-owners", dict(body, fractionPercent=150), key=a)
    expect("POST /co-owners with fractionPercent 150: 400 FRACTION_OUT_OF_RANGE", r, 400, "FRACTION_OUT_OF_RANGE")
    r = s.rest("POST", "/co-owners", {"lastName": "Sans-Prénom", "unitId": unit["id"]}, key=a)
    ok = expect("POST /co-owners without firstName: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    check("...with errors listing the field", ok and isinstance(error_of(r).get("errors"), list) and error_of(r)["errors"], str(r))
    r = s.rest("POST", "/co-owners", dict(body, unitId="no-such-unit"), key=a)
    expect("POST /co-owners in an unknown unit: 404 UNIT_NOT_FOUND", r, 404, "UNIT_NOT_FOUND")
    primary_unit = next(c["unitId"] for c in demo["co_owners"] if c["isPrimary"])
    r = s.rest("POST", "/co-owners", dict(body, firstName="Deuxième", unitId=primary_unit, isPrimary=True), key=a)
    expect("a second primary co-owner for a unit: 409 DUPLICATE_PRIMARY", r, 409, "DUPLICATE_PRIMARY")
    r = s.rest("GET", "/co-owners/no-such-co-owner", key=a)
    expect("GET /co-owners/{unknown}: 404 CO_OWNER_NOT_FOUND", r, 404, "CO_OWNER_NOT_FOUND")
    r = s.rest("POST", "/co-owners", "{\"firstName\": ", key=a)
    expect("POST /co-owners with broken JSON: 400 INVALID_JSON", r, 400, "INVALID_JSON")
    r = s.rest("POST", "/co-owners", [body], key=a)
    check("POST /co-owners with a JSON array body: 400", r.status == 400 and error_of(r).get("code"), str(r))
    r = s.rest("POST", "/co-owners", json.dumps(body), key=a, content_type="text/plain")
    expect("POST /co-owners as text/plain: 415 UNSUPPORTED_MEDIA_TYPE", r, 415, "UNSUPPORTED_MEDIA_TYPE")
    before = s.rest("GET", "/co-owners?search=Intrus", key=a)
    r = s.rest("POST", "/co-owners?unitId=" + unit["id"], {"firstName": "Paul", "lastName": "Intrus", "unitId": unit["id"]}, key=a)
    expect("POST /co-owners with a query string: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
    after = s.rest("GET", "/co-owners?search=Intrus", key=a)
    check("...and nothing was created", before.status == after.status == 200
          and after.json["pagination"]["total"] == before.json["pagination"]["total"] == 0, str(after))
    def chunks():
        yield b'{"firstName": "Chantal", '
        yield ('"lastName": "Par-Morceaux", "unitId": "' + unit["id"] + '"}').encode()
    r = fetch(s.addr, "POST", s.prefix + "/co-owners", chunks(), None, a)  # http.client sends it chunked
    ok = expect("POST /co-owners with a chunked body (Transfer-Encoding: chunked): 201", r, 201)
    check("...read whole", ok and r.json.get("lastName") == "Par-Morceaux", str(r))
    r = s.rest("GET", f"/co-owners?unitId={demo['units']['301']['id']}", key=a)
    check("GET /co-owners?unitId=<unit 301>: a string filter from the query string",
          r.status == 200 and r.json["data"] and all(c["unitNumber"] == "301" for c in r.json["data"]), str(r))

    r = s.rest("POST", "/co-owners/bulk", {"coOwners": [{"firstName": f"P{i}", "lastName": "Trop", "unitId": unit["id"]}
                                                        for i in range(501)]}, key=a)
    expect("POST /co-owners/bulk with 501 rows: 422 BULK_LIMIT_EXCEEDED", r, 422, "BULK_LIMIT_EXCEEDED")
    r = s.rest("GET", "/co-owners?search=Trop", key=a)
    check("...and nothing was created", r.status == 200 and r.json["pagination"]["total"] == 0, str(r))


def test_units(s, k, demo):
    section("REST: units and the declaration")
    a = k["admin"]
    r = s.rest("GET", "/units", key=a)
    check("GET /units: 200, the 12 units of the demo", r.status == 200 and r.json["pagination"]["total"] == 12, str(r))
    r = s.rest("GET", "/units?type=parking&includeLinked=true", key=a)
    check("GET /units?type=parking&includeLinked=true: 4 parking units with their links",
          r.status == 200 and len(r.json["data"]) == 4 and all(u["type"] == "parking" for u in r.json["data"])
          and any(u.get("linked") for u in r.json["data"]), str(r))
    r = s.rest("GET", "/units?floor=1", key=a)
    check("GET /units?floor=1: an integer filter",
          r.status == 200 and r.json["data"] and all(u["floor"] == 1 for u in r.json["data"]), str(r))
    r = s.rest("GET", "/units?floor=first", key=a)
    expect("GET /units?floor=first: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")

    r = s.rest("POST", "/units", {"number": "R-9", "type": "storage", "floor": -1, "areaSqFt": 40}, key=a)
    ok = expect("POST /units: 201", r, 201)
    uid = r.json.get("id") if ok else None
    if uid:
        r = s.rest("GET", f"/units/{uid}", key=a)
        check("GET /units/{id}: the new unit", r.status == 200 and r.json.get("number") == "R-9"
              and r.json.get("floor") == -1 and close(r.json.get("fractionPercent"), 0), str(r))
        r = s.rest("GET", f"/units/{uid}?includeLinked=true", key=a)
        expect("GET /units/{id}?includeLinked=true: 200", r, 200)
        r = s.rest("PATCH", f"/units/{uid}", {"cadastralLot": "6123499", "floor": -2}, key=a)
        expect("PATCH /units/{id}: 200", r, 200)
        r = s.rest("GET", f"/units/{uid}", key=a)
        check("...a later GET shows the change", r.status == 200 and r.json.get("cadastralLot") == "6123499"
              and r.json.get("floor") == -2, str(r))
        r = s.rest("POST", "/units", {"number": "r-9", "type": "storage"}, key=a)
        expect("POST /units with a number in use: 409 DUPLICATE_UNIT_NUMBER", r, 409, "DUPLICATE_UNIT_NUMBER")
        r = s.rest("DELETE", f"/units/{uid}?force=true", key=a)
        expect("DELETE /units/{id}?force=true (unknown argument): 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
        r = s.rest("GET", f"/units/{uid}", key=a)
        check("...the unit is still there", r.status == 200 and not r.json.get("deletedAt"), str(r))
        r = s.rest("DELETE", f"/units/{uid}", key=a)
        ok = expect("DELETE /units/{id}: 200", r, 200)
        check("...the result is the unit with deletedAt", ok and r.json.get("deletedAt"), str(r))
        r = s.rest("GET", "/units?search=R-9", key=a)
        check("...a later GET /units no longer lists it", r.status == 200 and r.json["pagination"]["total"] == 0, str(r))

    u101 = demo["units"]["101"]
    r = s.rest("GET", f"/units/{u101['id']}?includeLinked=true", key=a)
    m = s.mcp(tool("get_unit", {"id": u101["id"], "includeLinked": True}), key=a)
    check("GET /units/{id} answers the same object as the MCP structuredContent of get_unit",
          r.status == 200 and m.status == 200 and r.json == result_of(m).get("structuredContent"), f"{r} / {m}")
    r = s.rest("GET", "/units/no-such-unit", key=a)
    expect("GET /units/{unknown}: 404 UNIT_NOT_FOUND", r, 404, "UNIT_NOT_FOUND")
    r = s.rest("DELETE", f"/units/{demo['units']['101']['id']}", key=a)
    expect("DELETE a unit with co-owners: 409 UNIT_IN_USE", r, 409, "UNIT_IN_USE")
    parking = next((u for u in demo["parking"] if u["linkedUnits"]), None)
    other_apartment = next(u for n, u in demo["units"].items() if u["type"] == "apartment"
                           and parking and u["id"] not in parking["linkedUnits"])
    r = s.rest("PATCH", f"/units/{parking['id']}", {"linkedUnits": [other_apartment["id"]]}, key=a)
    expect("linking a linked parking unit to another apartment: 409 LINK_CONFLICT", r, 409, "LINK_CONFLICT")
    r = s.rest("POST", "/units", {"number": "C-1", "type": "commercial", "fractionPercent": 5}, key=a)
    ok = expect("POST /units taking the sum to 105: 422 FRACTION_SUM_OUT_OF_RANGE", r, 422, "FRACTION_SUM_OUT_OF_RANGE")
    check("...with resultingSum 105", ok and close(error_of(r).get("resultingSum"), 105), str(r))
    r = s.rest("GET", "/units?search=C-1", key=a)
    check("...and no unit was created", r.status == 200 and r.json["pagination"]["total"] == 0, str(r))

    r = s.rest("GET", "/declaration/fraction-sum", key=a)
    check("GET /declaration/fraction-sum: 200, sum 100 over 12 units",
          r.status == 200 and close(r.json.get("sum"), 100) and r.json.get("unitCount") == 12 and r.json.get("balanced") is True, str(r))
    u101 = demo["units"]["101"]
    r = s.rest("PATCH", f"/units/{u101['id']}", {"fractionPercent": u101["fractionPercent"] + 0.2}, key=a)
    expect("PATCH a unit's fraction (+0.2, still within 99.5..100.5): 200", r, 200)
    r = s.rest("GET", "/declaration/fraction-sum", key=a)
    check("...a later GET /declaration/fraction-sum: 100.2", r.status == 200 and close(r.json.get("sum"), 100.2), str(r))
    r = s.rest("POST", "/declaration/rebalance", {"dryRun": True}, key=a)
    check("POST /declaration/rebalance {dryRun: true}: 200, changes previewed",
          r.status == 200 and r.json.get("dryRun") is True and r.json.get("changes") and close(r.json.get("previousSum"), 100.2), str(r))
    r = s.rest("GET", "/declaration/fraction-sum", key=a)
    check("...nothing saved", r.status == 200 and close(r.json.get("sum"), 100.2), str(r))
    r = s.rest("POST", "/declaration/rebalance", b"", key=a)
    check("POST /declaration/rebalance with an empty body: 200, sum 100",
          r.status == 200 and close(r.json.get("sum"), 100) and r.json.get("dryRun") is False, str(r))
    r = s.rest("GET", "/declaration/fraction-sum", key=a)
    check("...a later GET: sum 100", r.status == 200 and close(r.json.get("sum"), 100), str(r))
    r = raw_exchange(s.addr, (f"POST {s.prefix}/declaration/rebalance HTTP/1.1\r\nHost: {s.hostport}\r\n"
                              f"Authorization: Bearer {a}\r\nConnection: close\r\n\r\n").encode())
    check("POST /declaration/rebalance with no body and no Content-Length (curl -X POST): 200",
          r.status == 200 and r.json.get("dryRun") is False, str(r))
    r = s.rest("POST", "/declaration/rebalance", {}, key=k["reader"])
    ok = expect("POST /declaration/rebalance with a read-only key: 403 INSUFFICIENT_SCOPE", r, 403, "INSUFFICIENT_SCOPE")
    check("...requiredScope write:declaration", ok and error_of(r).get("requiredScope") == "write:declaration", str(r))


def test_meetings(s, k, demo, tmp):
    section("REST: meetings")
    a = k["admin"]
    r = s.rest("GET", "/meetings?status=draft&type=aga", key=a)
    check("GET /meetings?status=draft&type=aga: the demo meeting",
          r.status == 200 and [m["id"] for m in r.json["data"]] == [demo["meeting"]["id"]], str(r))
    r = s.rest("GET", "/meetings?status=cancelled", key=a)
    expect("GET /meetings?status=cancelled: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")

    body = {"title": "Assemblée générale annuelle (HTTP)", "type": "aga", "scheduledAt": iso_in(40),
            "location": "Salle communautaire", "agenda": ["Ouverture", "Budget"]}
    r = s.rest("POST", "/meetings", body, key=a)
    ok = expect("POST /meetings: 201", r, 201)
    mid = r.json.get("id") if ok else None
    if not mid:
        return
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("GET /meetings/{id}: the new draft", r.status == 200 and r.json.get("status") == "draft"
          and r.json.get("agenda") == ["Ouverture", "Budget"], str(r))
    r = s.rest("GET", "/meetings", key=a)
    check("GET /meetings lists it", r.status == 200 and mid in [m["id"] for m in r.json["data"]], str(r))
    r = s.rest("PATCH", f"/meetings/{mid}", {"location": "Sous-sol, salle B"}, key=a)
    expect("PATCH /meetings/{id}: 200", r, 200)
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("...a later GET shows the new location", r.status == 200 and r.json.get("location") == "Sous-sol, salle B", str(r))
    r = s.rest("DELETE", f"/meetings/{mid}", key=a)
    allow = (r.header("allow") or "").upper()
    ok = expect("DELETE /meetings/{id}: 405 METHOD_NOT_ALLOWED", r, 405, "METHOD_NOT_ALLOWED")
    check("...Allow: GET, PATCH", ok and "GET" in allow and "PATCH" in allow and "DELETE" not in allow, str(r))

    r = s.rest("POST", f"/meetings/{mid}/resolutions",
               {"title": "Adoption du budget", "description": "Le budget 2027 est adopté.", "majorityRequired": "simple"}, key=a)
    ok = expect("POST /meetings/{id}/resolutions: 201", r, 201)
    rid = r.json.get("id") if ok else None
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("...a later GET shows the resolution, pending",
          r.status == 200 and [(x["id"], x["outcome"]) for x in r.json.get("resolutions", [])] == [(rid, "pending")], str(r))
    r = s.rest("POST", f"/meetings/{mid}/resolutions", {"meetingId": demo["meeting"]["id"], "title": "X",
                                                          "majorityRequired": "simple"}, key=a)
    expect("POST resolutions with a body meetingId that contradicts the path: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")

    soon = s.rest("POST", "/meetings", dict(body, title="Trop tôt", scheduledAt=iso_in(5)), key=a)
    if expect("POST /meetings five days ahead: 201", soon, 201):
        r = s.rest("POST", f"/meetings/{soon.json['id']}/notice", {}, key=a)
        expect("POST /meetings/{id}/notice five days ahead: 422 NOTICE_PERIOD_TOO_SHORT", r, 422, "NOTICE_PERIOD_TOO_SHORT")

    r = s.rest("POST", f"/meetings/{mid}/attendance",
               {"attendees": [{"coOwnerId": demo["co_owners"][0]["id"], "attendance": "present"}]}, key=a)
    check("attendance before the notice is refused (4xx)", 400 <= r.status < 500 and error_of(r).get("code"), str(r))
    r = s.rest("POST", f"/meetings/{mid}/notice", {"sendBy": "email", "includeAgenda": True}, key=a)
    ok = expect("POST /meetings/{id}/notice: 200", r, 200)
    check("...messages queued", ok and isinstance(r.json.get("queued"), int) and r.json["queued"] > 0, str(r))
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("...a later GET shows notice-sent", r.status == 200 and r.json.get("status") == "notice-sent", str(r))
    r = s.rest("PATCH", f"/meetings/{mid}", {"status": "draft"}, key=a)
    expect("PATCH a meeting back to draft: 409 INVALID_STATUS_TRANSITION", r, 409, "INVALID_STATUS_TRANSITION")

    # The co-owners as they are now: unit changes above scaled their shares of their units.
    # Those who may vote: the demo's lot 102 owes more than 3 months of contributions (art. 1094).
    roll = s.rest("GET", f"/meetings/{mid}/voting-roll", key=a).json["entries"]
    entitled = {e["coOwnerId"] for e in roll if e["status"] == "entitled"}
    check("GET /meetings/{id}/voting-roll: the demo's lot in arrears is suspended",
          any(e["status"] == "suspended-arrears" for e in roll), str(roll)[:400])
    now = [c for c in s.rest("GET", "/co-owners?pageSize=200", key=a).json["data"] if c["id"] in entitled]
    present = now[:3]
    proxy = now[3]
    attendees = [{"coOwnerId": c["id"], "attendance": "present"} for c in present]
    attendees.append({"coOwnerId": proxy["id"], "attendance": "proxy", "proxyHolder": "Jeanne Roy"})
    r = s.rest("POST", f"/meetings/{mid}/attendance", {"attendees": attendees}, key=a)
    expect("POST /meetings/{id}/attendance: 200", r, 200)
    expected_present = sum(c["fractionPercent"] for c in present)
    r = s.rest("GET", f"/meetings/{mid}/quorum", key=a)
    check("GET /meetings/{id}/quorum: the fractions just recorded",
          r.status == 200 and close(r.json.get("present"), expected_present)
          and close(r.json.get("proxied"), proxy["fractionPercent"])
          and close(r.json.get("total"), expected_present + proxy["fractionPercent"]), str(r))
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("...a later GET /meetings/{id} shows four attendees", r.status == 200 and len(r.json.get("attendees", [])) == 4, str(r))

    # Votes wait for the meeting's day: a second bridge on the same database, its clock there.
    if rid:
        votes = {"votesFor": 10, "votesAgainst": 2, "votesAbstain": 0}
        r = s.rest("PUT", f"/meetings/{mid}/resolutions/{rid}/votes", votes, key=a)
        expect("PUT votes before the meeting's day: 409 MEETING_NOT_YET_HELD", r, 409, "MEETING_NOT_YET_HELD")
    today = s
    s = start("the meeting's day", k["db"], clock=clock_in(40, 1)) or today
    if rid:
        votes = {"votesFor": expected_present + proxy["fractionPercent"], "votesAgainst": 0, "votesAbstain": 0}
        r = s.rest("PUT", f"/meetings/{mid}/resolutions/{rid}/votes", votes, key=a)
        ok = expect("PUT /meetings/{id}/resolutions/{rid}/votes: 200", r, 200)
        check("...outcome passed", ok and r.json.get("outcome") == "passed", str(r))
        r = s.rest("GET", f"/meetings/{mid}", key=a)
        res = [x for x in r.json.get("resolutions", [])] if r.status == 200 else []
        check("...a later GET shows the votes and the quorum kept with them", res and close(res[0].get("votesFor"), votes["votesFor"])
              and res[0].get("outcome") == "passed" and res[0].get("quorum", {}).get("reached") is not None, str(r))
        r = s.rest("PUT", f"/meetings/{demo['meeting']['id']}/resolutions/{rid}/votes", votes, key=a)
        check("PUT votes under the wrong meeting: refused (4xx)", 400 <= r.status < 500 and error_of(r).get("code"), str(r))
        r = s.rest("PUT", f"/meetings/{mid}/resolutions/{rid}/votes", dict(votes, resolutionId="other"), key=a)
        expect("PUT votes with a body resolutionId that contradicts the path: 400 VALIDATION_FAILED", r, 400, "VALIDATION_FAILED")
        r = s.rest("PUT", f"/meetings/{mid}/resolutions/no-such-resolution/votes", votes, key=a)
        expect("PUT votes on an unknown resolution: 404 RESOLUTION_NOT_FOUND", r, 404, "RESOLUTION_NOT_FOUND")

    r = s.rest("PATCH", f"/meetings/{mid}", {"status": "held"}, key=a)
    expect("PATCH /meetings/{id} {status: held}: 200", r, 200)
    if s is not today:
        s.stop()
    s = today
    r = s.rest("POST", f"/meetings/{mid}/minutes", {"draft": True, "language": "en"}, key=a)
    ok = expect("POST /meetings/{id}/minutes: 201", r, 201)
    doc = r.json if ok else {}
    url = doc.get("downloadUrl", "")
    check("...a remote caller gets a download address, never the server's path", ok and doc.get("draft") is True
          and doc.get("pages", 0) >= 1 and "path" not in doc
          and url == f"{s.base}/documents/{doc.get('documentId')}/content", str(r))
    r = s.rest("GET", f"/meetings/{mid}", key=a)
    check("...a later GET lists the document, with its download address and no path", r.status == 200
          and [(d.get("documentId"), d.get("downloadUrl"), "path" in d) for d in r.json.get("documents", [])]
          == [(doc.get("documentId"), url, False)], str(r))
    test_document_download(s, k, doc, url[len(s.base):] if url.startswith(s.base) else f"/documents/{doc.get('documentId')}/content")
    r = s.rest("GET", "/meetings/no-such-meeting", key=a)
    expect("GET /meetings/{unknown}: 404 MEETING_NOT_FOUND", r, 404, "MEETING_NOT_FOUND")
    r = s.rest("GET", "/meetings/no-such-meeting/quorum", key=a)
    expect("GET /meetings/{unknown}/quorum: 404 MEETING_NOT_FOUND", r, 404, "MEETING_NOT_FOUND")


def test_document_download(s, k, doc, route):
    """GET <base>/documents/{id}/content: the PDF itself, to a caller of its syndicate who may read meetings."""
    import hashlib
    r = s.rest("GET", route, key=k["admin"])
    check("GET /documents/{id}/content: 200 application/pdf, the very file (size and SHA-256)", r.status == 200
          and r.media_type == "application/pdf" and r.body[:5] == b"%PDF-" and len(r.body) == doc.get("sizeBytes")
          and hashlib.sha256(r.body).hexdigest() == doc.get("sha256"), str(r)[:200])
    disposition = r.header("content-disposition") or ""
    check("...Content-Disposition: attachment with the file's name",
          re.fullmatch(r'attachment; filename="minutes-[0-9a-z.-]+\.pdf"', disposition) is not None, disposition)
    expect("...without credentials: 401 NOT_AUTHENTICATED", s.rest("GET", route), 401, "NOT_AUTHENTICATED")
    expect("...with a key without read:meetings or read:documents: 403 INSUFFICIENT_SCOPE",
           s.rest("GET", route, key=k["reader"]), 403, "INSUFFICIENT_SCOPE")
    k["minutes_doc"] = doc.get("documentId", "x")
    # Another syndicate's caller is DOCUMENT_NOT_FOUND: tests/unit/meetings/meetings_minutes_test.cpp (document_file).
    expect("GET /documents/{unknown}/content: 404 DOCUMENT_NOT_FOUND",
           s.rest("GET", "/documents/no-such-document/content", key=k["admin"]), 404, "DOCUMENT_NOT_FOUND")


def test_audit(s, k, demo):
    section("REST: the audit trail")
    unit = demo["units"]["201"]
    r = s.rest("PATCH", "/units/" + unit["id"], {"bedrooms": 3}, key=k["admin"])
    expect("PATCH /units/{id} (a write to find in the trail)", r, 200)
    r = s.rest("GET", "/audit-events?recordId=" + unit["id"] + "&action=update", key=k["admin"])
    events = r.json.get("data", []) if r.status == 200 else []
    check("GET /audit-events?recordId=..: newest first, the write, by the admin key, through update_unit, with the change",
          events and events[0]["actor"] == {"kind": "api-key", "id": k["admin_id"], "clientId": None}
          and events[0]["tool"] == "update_unit" and events[0]["changes"].get("bedrooms", {}).get("after") == 3, str(r))
    r = s.rest("GET", "/audit-events?recordType=co-owner&pageSize=5", key=k["admin"])
    check("...the demo's co-owners were recorded as they were created",
          r.status == 200 and r.json["pagination"]["total"] >= 8 and len(r.json["data"]) == 5, str(r))
    expect("GET /audit-events with a member key: 403 ADMIN_REQUIRED", s.rest("GET", "/audit-events", key=k["member"]), 403, "ADMIN_REQUIRED")
    expect("GET /audit-events?from=yesterday: 400 VALIDATION_FAILED", s.rest("GET", "/audit-events?from=yesterday", key=k["admin"]),
           400, "VALIDATION_FAILED")


def test_registers(s, k, demo):
    section("REST: water heaters, insurance, contractors")
    a = k["admin"]
    unit = demo["units"]["202"]
    r = s.rest("POST", "/water-heaters", {"unitId": unit["id"], "manufactureDate": "2014-02-01", "capacityLitres": 151}, key=a)
    ok = expect("POST /water-heaters: 201", r, 201)
    heater = r.json if ok else {}
    check("...replaceBy ten years after manufacture, overdue, in unit 202",
          ok and heater["replaceBy"] == "2024-02-01" and heater["status"] == "overdue" and heater["unitNumber"] == "202", str(r))
    r = s.rest("GET", "/water-heaters?status=overdue&unitId=" + unit["id"], key=a)
    check("GET /water-heaters?status=overdue&unitId=..: that heater",
          r.status == 200 and [w["id"] for w in r.json["data"]] == [heater.get("id")], str(r))
    r = s.rest("PATCH", "/water-heaters/" + heater.get("id", "x"), {"installDate": "2013-01-01"}, key=a)
    expect("PATCH /water-heaters/{id} installed before made: 400 INVALID_DATE_RANGE", r, 400, "INVALID_DATE_RANGE")
    r = s.rest("DELETE", "/water-heaters/" + heater.get("id", "x"), key=a)
    check("DELETE /water-heaters/{id}: 200, archived", r.status == 200 and "deletedAt" in r.json, str(r))
    expect("DELETE /water-heaters/{id} again: 404 WATER_HEATER_NOT_FOUND",
           s.rest("DELETE", "/water-heaters/" + heater.get("id", "x"), key=a), 404, "WATER_HEATER_NOT_FOUND")

    r = s.rest("POST", "/insurance-policies", {"kind": "civil-liability", "insurer": "Promutuel", "policyNumber": "RC-7",
                                               "startDate": "2026-01-01", "endDate": "2027-01-01",
                                               "coverages": [{"peril": "responsabilité civile", "amountCents": 1000000000}]}, key=a)
    ok = expect("POST /insurance-policies: 201", r, 201)
    policy = r.json if ok else {}
    r = s.rest("GET", "/insurance-policies?kind=civil-liability&appraisalOutdated=false", key=a)
    check("GET /insurance-policies?kind=civil-liability&appraisalOutdated=false: the policy (booleans from the query)",
          r.status == 200 and policy.get("id") in [p["id"] for p in r.json["data"]], str(r))
    r = s.rest("PATCH", "/insurance-policies/" + policy.get("id", "x"),
               {"coverages": [{"peril": "Feu", "amountCents": 1}, {"peril": "feu", "amountCents": 2}]}, key=a)
    expect("PATCH /insurance-policies/{id} with a peril twice: 409 DUPLICATE_PERIL", r, 409, "DUPLICATE_PERIL")
    r = s.rest("DELETE", "/insurance-policies/" + policy.get("id", "x"), key=a)
    check("DELETE /insurance-policies/{id}: 200, archived", r.status == 200 and "deletedAt" in r.json, str(r))

    r = s.rest("POST", "/contractors", {"name": "Couvertures Pelletier", "trade": "Couvreur", "neq": "2234567890"}, key=a)
    ok = expect("POST /contractors: 201", r, 201)
    contractor = r.json if ok else {}
    r = s.rest("GET", "/contractors?search=" + urllib.parse.quote("pelletier"), key=a)
    check("GET /contractors?search=pelletier: the contractor",
          r.status == 200 and [c["id"] for c in r.json["data"]] == [contractor.get("id")], str(r))
    expect("POST /contractors with the same NEQ: 409 DUPLICATE_NEQ",
           s.rest("POST", "/contractors", {"name": "Autre", "trade": "x", "neq": "2234567890"}, key=a), 409, "DUPLICATE_NEQ")
    expect("PATCH /contractors/{id} with a 9-digit NEQ: 400 INVALID_NEQ",
           s.rest("PATCH", "/contractors/" + contractor.get("id", "x"), {"neq": "223456789"}, key=a), 400, "INVALID_NEQ")
    expect("GET /contractors with a key without read:contractors: 403 INSUFFICIENT_SCOPE",
           s.rest("GET", "/contractors", key=k["reader"]), 403, "INSUFFICIENT_SCOPE")
    r = s.rest("DELETE", "/contractors/" + contractor.get("id", "x"), key=a)
    check("DELETE /contractors/{id}: 200, archived", r.status == 200 and "deletedAt" in r.json, str(r))


def test_documents(s, k, demo):
    section("REST: documents")
    import base64
    import hashlib
    a = k["admin"]
    unit = demo["units"]["201"]
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"a photo of the balcony"
    body = {"contentBase64": base64.b64encode(png).decode(), "fileName": "balcon 201.png", "mimeType": "image/png",
            "kind": "photo", "title": "Fissure du balcon", "recordType": "unit", "recordId": unit["id"]}
    r = s.rest("POST", "/documents", body, key=a)
    ok = expect("POST /documents: 201", r, 201)
    doc = r.json if ok else {}
    url = doc.get("downloadUrl", "")
    check("...attached to the unit, with a download address and no path", ok and "path" not in doc
          and doc.get("links") == [{"recordType": "unit", "recordId": unit["id"]}]
          and url == f"{s.base}/documents/{doc.get('id')}/content", str(r))
    r = s.rest("POST", "/documents", dict(body, mimeType="application/pdf"), key=a)
    expect("POST /documents with PNG bytes declared a PDF: 400 DOCUMENT_TYPE_NOT_ALLOWED", r, 400, "DOCUMENT_TYPE_NOT_ALLOWED")
    r = s.rest("POST", "/documents", dict(body, recordId="no-such-unit"), key=a)
    expect("POST /documents to an unknown unit: 404 TARGET_NOT_FOUND", r, 404, "TARGET_NOT_FOUND")
    r = s.rest("GET", "/documents?recordType=unit&recordId=" + unit["id"], key=a)
    check("GET /documents?recordType=unit&recordId=..: the photo",
          r.status == 200 and [d["id"] for d in r.json["data"]] == [doc.get("id")], str(r))
    r = s.rest("GET", f"/documents/{doc.get('id', 'x')}?includeContent=true", key=a)
    check("GET /documents/{id}?includeContent=true: the bytes in base64",
          r.status == 200 and base64.b64decode(r.json.get("contentBase64", "")) == png, str(r)[:200])
    route = url[len(s.base):] if url.startswith(s.base) else "/documents/x/content"
    r = s.rest("GET", route, key=a)
    check("GET /documents/{id}/content: 200 image/png, the very file",
          r.status == 200 and r.media_type == "image/png" and r.body == png
          and hashlib.sha256(r.body).hexdigest() == doc.get("sha256"), str(r)[:200])
    check("...saved under the name given, made safe", (r.header("content-disposition") or "")
          == 'attachment; filename="balcon_201.png"', r.header("content-disposition") or "")
    minutes_only = json.loads(cli("keys", "create", "--db", k["db"], "--role", "member", "--scopes", "read:meetings",
                                  "--name", "minutes reader", "--json").stdout)["apiKey"]
    expect("...with read:meetings alone: 403 INSUFFICIENT_SCOPE (read:documents)", s.rest("GET", route, key=minutes_only),
           403, "INSUFFICIENT_SCOPE")
    r = s.rest("GET", f"/documents/{k.get('minutes_doc', 'x')}/content", key=minutes_only)
    check("...while the minutes stay downloadable with read:meetings", r.status == 200 and r.body[:5] == b"%PDF-", str(r)[:200])
    expect("DELETE /documents/{id} with a member key: 403 ADMIN_REQUIRED",
           s.rest("DELETE", f"/documents/{doc.get('id', 'x')}?reason=doublon", key=k["member"]), 403, "ADMIN_REQUIRED")
    r = s.rest("DELETE", f"/documents/{doc.get('id', 'x')}?reason=doublon&recordId={unit['id']}", key=a)
    check("DELETE /documents/{id}?recordId=..: detached, not archived",
          r.status == 200 and r.json.get("links") == [] and r.json.get("deletedAt") is None, str(r))
    r = s.rest("DELETE", f"/documents/{k.get('minutes_doc', 'x')}?reason=x&recordId=no-such-meeting", key=a)
    expect("DELETE /documents/{minutes}?recordId=unknown: 404 LINK_NOT_FOUND", r, 404, "LINK_NOT_FOUND")
    r = s.rest("DELETE", f"/documents/{doc.get('id', 'x')}?reason=doublon", key=a)
    check("DELETE /documents/{id}: 200, archived", r.status == 200 and r.json.get("deletedAt") is not None, str(r))
    r = s.rest("GET", route, key=a)
    check("...the file is still there to download", r.status == 200 and r.body == png, str(r)[:200])


def test_self_revocation(s, k, demo):
    section("DELETE /api-keys/{id}: revoking the key that makes the call")
    made = json.loads(cli("keys", "create", "--db", k["db"], "--role", "admin", "--name", "leaving", "--json").stdout)
    r = s.rest("DELETE", f"/api-keys/{made['apiKeyId']}", key=made["apiKey"])
    check("DELETE /api-keys/{own id}: 200, selfRevoked true, revokedAt set",
          r.status == 200 and r.json.get("selfRevoked") is True and r.json["apiKey"].get("revokedAt"), str(r))
    expect("...the same key on the next request: 401 NOT_AUTHENTICATED", s.rest("GET", "/units", key=made["apiKey"]),
           401, "NOT_AUTHENTICATED")
    other = json.loads(cli("keys", "create", "--db", k["db"], "--role", "admin", "--name", "other", "--json").stdout)
    r = s.rest("DELETE", f"/api-keys/{other['apiKeyId']}", key=k["admin"])
    check("...another key revoked by the admin: selfRevoked false", r.status == 200 and r.json.get("selfRevoked") is False,
          str(r))


def groups(s, k, demo, tmp, db):
    run(test_co_owners, s, k, demo)
    run(test_units, s, k, demo)
    run(test_meetings, s, k, demo, tmp)
    run(test_audit, s, k, demo)
    run(test_registers, s, k, demo)
    run(test_documents, s, k, demo)
    run(test_self_revocation, s, k, demo)


main(groups)
