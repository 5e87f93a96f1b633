// record_declaration_amendment (catalogue §3.1): the majority by part (arts. 1096, 1097, 1098),
// the consent of each co-owner whose relative value changes (art. 1102), the fractions changed in
// the same transaction under the sum rule (decisions 5), registration, and the 90-day window of
// art. 1103.
#include "declaration/declaration_fixture.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace declaration_amendments_test {

using namespace syndic::test;

namespace {

const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

struct Building : DeclarationFixture {
    json u101 = unit("101", 50);
    json u102 = unit("102", 50);
    json marie = co_owner(u101["id"], "Marie", "Tremblay", {{"fractionPercent", 50}});
    json jean = co_owner(u102["id"], "Jean", "Lapointe", {{"fractionPercent", 50}});

    json amendment(const std::string& part, const std::string& resolution, json extra = json::object()) {
        json args = {{"part", part}, {"summary", "Modification"}, {"resolutionId", resolution}};
        args.update(extra);
        return call("record_declaration_amendment", args);
    }
    // 101 and 102 from their fractions now to `a` and `b`.
    json changes(double a, double b) {
        return json::array({json{{"unitId", u101["id"]}, {"before", fraction(u101)}, {"after", a}},
                            json{{"unitId", u102["id"]}, {"before", fraction(u102)}, {"after", b}}});
    }
    json both_consent() {
        return json::array({json{{"coOwnerId", marie["id"]}}, json{{"coOwnerId", jean["id"]}}});
    }
    double fraction(const json& u) { return call("get_unit", {{"id", u["id"]}})["fractionPercent"]; }
};

json args(const std::string& part, const std::string& resolution, json extra = json::object()) {
    json a = {{"part", part}, {"summary", "Modification"}, {"resolutionId", resolution}};
    a.update(extra);
    return a;
}

}  // namespace

TEST_SUITE("declaration") {

TEST_CASE("an amendment of the by-laws needs a simple majority (art. 1096) and is listed by get_declaration") {
    Building fx;
    const auto a = fx.amendment("by-laws", fx.resolution_id("simple"));
    CHECK(a["status"] == "adopted");
    CHECK(a["decidedOn"] == "2026-12-15");
    CHECK(a["consents"].empty());
    CHECK(a["fractionChanges"].empty());
    CHECK(a["registrationNumber"].is_null());
    const auto d = fx.call("get_declaration");
    REQUIRE(d["amendments"].size() == 1);
    CHECK(d["amendments"][0]["id"] == a["id"]);
    const auto r1 = fx.resolution_id();
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "record_declaration_amendment", args("by-laws", r1));
    const auto r2 = fx.resolution_id();
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_declaration_amendment", args("preamble", r2));
}

TEST_CASE("the constituting act and the descriptive statement need at least absolute (art. 1097)") {
    Building fx;
    for (const std::string part : {"constituting-act", "descriptive-statement"}) {
        CAPTURE(part);
        const auto e = fx.error("record_declaration_amendment", args(part, fx.resolution_id("simple")));
        CHECK(e.code() == "MAJORITY_INSUFFICIENT");
        CHECK(fx.amendment(part, fx.resolution_id("absolute"))["part"] == part);
    }
}

TEST_CASE("a change of destination needs at least double (art. 1098)") {
    Building fx;
    const json change = {{"destinationChange", true}};
    const auto r3 = fx.resolution_id("absolute");
    CHECK_REFUSED(fx, "MAJORITY_INSUFFICIENT", "record_declaration_amendment",
                  args("constituting-act", r3, change));
    // Resolutions cannot be put to double yet (the meetings work adds it); special is above it.
    CHECK(fx.amendment("constituting-act", fx.resolution_id("special"), change)["status"] == "adopted");
}

TEST_CASE("the resolution: required, found, the co-owners', passed") {
    Building fx;
    json no_resolution = {{"part", "by-laws"}, {"summary", "X"}};
    CHECK_REFUSED(fx, "RESOLUTION_REQUIRED", "record_declaration_amendment", no_resolution);
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_declaration_amendment", args("by-laws", ghost));
    const auto r4 = fx.resolution_id("absolute", "passed", "board");
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "record_declaration_amendment",
                  args("by-laws", r4));
    const auto r5 = fx.resolution_id("simple", "pending");
    CHECK_REFUSED(fx, "MEETING_NOT_HELD", "record_declaration_amendment", args("by-laws", r5));
    const auto r6 = fx.resolution_id("absolute", "rejected");
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "record_declaration_amendment",
                  args("constituting-act", r6));
    const auto r7 = fx.resolution_id();
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_declaration_amendment", json({{"summary", "X"}, {"resolutionId", r7}}));
}

TEST_CASE("a change of relative value needs each co-owner's written consent (art. 1102)") {
    Building fx;
    const auto resolution = fx.resolution_id("absolute");
    auto e = fx.error("record_declaration_amendment", args("constituting-act", resolution, {{"fractionChanges", fx.changes(55, 45)}}));
    CHECK(e.code() == "AMENDMENT_CONSENT_MISSING");
    CHECK(e.field() == "/consents");
    std::string units;
    for (const auto& [k, v] : e.figures())
        if (k == "unitIds") units = std::get<std::string>(v);
    CHECK(units.find(fx.u101["id"].get<std::string>()) != std::string::npos);
    CHECK(units.find(fx.u102["id"].get<std::string>()) != std::string::npos);
    // One consent is not enough: the unit still lacking it is named alone.
    e = fx.error("record_declaration_amendment", args("constituting-act", resolution,
                                                      {{"fractionChanges", fx.changes(55, 45)},
                                                       {"consents", json::array({json{{"coOwnerId", fx.marie["id"]}}})}}));
    CHECK(e.code() == "AMENDMENT_CONSENT_MISSING");
    for (const auto& [k, v] : e.figures())
        if (k == "unitIds") CHECK(std::get<std::string>(v) == fx.u102["id"].get<std::string>());
    CHECK(fx.fraction(fx.u101) == 50);  // nothing changed
    // A unit whose value stays the same needs nobody's consent.
    CHECK(fx.amendment("constituting-act", resolution, {{"fractionChanges", fx.changes(50, 50)}})["fractionChanges"].size() == 2);
}

TEST_CASE("fraction changes apply in the same transaction, co-owners' shares follow, the sum stays in range") {
    Building fx;
    fx.add_document(fx.syndicate, "consent-marie");
    const auto a = fx.amendment("constituting-act", fx.resolution_id("absolute"),
                                {{"fractionChanges", fx.changes(55, 45)},
                                 {"consents", json::array({json{{"coOwnerId", fx.marie["id"]}, {"documentId", "consent-marie"}},
                                                           json{{"coOwnerId", fx.jean["id"]}}})}});
    CHECK(a["fractionChanges"][0] == json{{"unitId", fx.u101["id"]}, {"before", 50}, {"after", 55}});
    CHECK(a["consents"][0]["documentId"] == "consent-marie");
    CHECK(a["fractionSum"]["sum"] == 100);
    CHECK(fx.fraction(fx.u101) == 55);
    CHECK(fx.fraction(fx.u102) == 45);
    CHECK(fx.call("get_co_owner", {{"id", fx.marie["id"]}})["fractionPercent"] == 55);
    CHECK(fx.call("get_co_owner", {{"id", fx.jean["id"]}})["fractionPercent"] == 45);
    // Outside 99.5-100.5: refused, nothing changed (no exception for getting closer here).
    const auto e = fx.error("record_declaration_amendment", args("constituting-act", fx.resolution_id("absolute"),
                                                                 {{"fractionChanges", fx.changes(60, 45)}, {"consents", fx.both_consent()}}));
    CHECK(e.code() == "FRACTION_SUM_OUT_OF_RANGE");
    CHECK(figure(e, "resultingSum") == 105.0);
    CHECK(figure(e, "currentSum") == 100.0);
    const auto r8 = fx.resolution_id("absolute");
    CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "record_declaration_amendment",
                  args("constituting-act", r8, {{"fractionChanges", fx.changes(55, 44.4)}, {"consents", fx.both_consent()}}));
    // 100.5 is still in range.
    CHECK(fx.amendment("constituting-act", fx.resolution_id("absolute"),
                       {{"fractionChanges", fx.changes(55.5, 45)}, {"consents", fx.both_consent()}})["fractionSum"]["sum"] == 100.5);
}

TEST_CASE("each change starts from the unit's fraction now: FRACTION_CHANGED_SINCE otherwise, nothing applied") {
    Building fx;
    const auto stale = fx.changes(55, 45);  // drawn up on 50 and 50
    fx.call("update_unit", {{"id", fx.u102["id"]}, {"fractionPercent", 49.5}});  // then 102 changed
    const auto resolution = fx.resolution_id("absolute");
    const auto request = args("constituting-act", resolution, {{"fractionChanges", stale}, {"consents", fx.both_consent()}});
    CHECK_REFUSED(fx, "FRACTION_CHANGED_SINCE", "record_declaration_amendment", request);
    const auto e = fx.error("record_declaration_amendment", request);
    CHECK(e.field() == "/fractionChanges/1/before");
    bool named = false;
    for (const auto& [k, v] : e.figures())
        if (k == "unitId") named = std::get<std::string>(v) == fx.u102["id"].get<std::string>();
    CHECK(named);
    CHECK(figure(e, "currentPercent") == 49.5);
    CHECK(fx.fraction(fx.u101) == 50);  // the first change was not applied either
    CHECK(fx.call("get_declaration")["amendments"].empty());
    // To the millionth: 49.500001 is not 49.5.
    auto off = fx.changes(55, 45);
    off[1]["before"] = 49.500001;
    CHECK_REFUSED(fx, "FRACTION_CHANGED_SINCE", "record_declaration_amendment",
                  args("constituting-act", resolution, {{"fractionChanges", off}, {"consents", fx.both_consent()}}));
    // Drawn up again on the fractions now, it applies.
    const auto a = fx.amendment("constituting-act", resolution, {{"fractionChanges", fx.changes(55, 45)}, {"consents", fx.both_consent()}});
    CHECK(a["fractionChanges"][1] == json{{"unitId", fx.u102["id"]}, {"before", 49.5}, {"after", 45}});
    // before is required.
    const auto r2 = fx.resolution_id("absolute");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_declaration_amendment",
                  args("constituting-act", r2, {{"fractionChanges", json::array({json{{"unitId", fx.u101["id"]}, {"after", 50}}})}}));
}

TEST_CASE("a unit without co-owners needs no consent; unknown units and co-owners are not found") {
    Building fx;
    const auto storage = fx.unit("R-1", 0, "storage");
    const auto a = fx.amendment("descriptive-statement", fx.resolution_id("absolute"),
                                {{"fractionChanges", json::array({json{{"unitId", storage["id"]}, {"before", 0}, {"after", 0.5}}})}});
    CHECK(a["fractionSum"]["sum"] == 100.5);
    const auto r9 = fx.resolution_id("absolute");
    CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "record_declaration_amendment",
                  args("constituting-act", r9, {{"fractionChanges", json::array({json{{"unitId", ghost}, {"before", 0}, {"after", 1}}})}}));
    const auto r10 = fx.resolution_id("absolute");
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "record_declaration_amendment",
                  args("constituting-act", r10, {{"consents", json::array({json{{"coOwnerId", ghost}}})}}));
    const auto r11 = fx.resolution_id("absolute");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_declaration_amendment",
                  args("constituting-act", r11,
                       {{"fractionChanges", json::array({json{{"unitId", storage["id"]}, {"before", 0.5}, {"after", 1}},
                                                         json{{"unitId", storage["id"]}, {"before", 0.5}, {"after", 0}}})}}));
}

TEST_CASE("registration: the amendment becomes registered once its number and day are given") {
    Building fx;
    const auto a = fx.amendment("constituting-act", fx.resolution_id("absolute"));
    auto r = fx.call("record_declaration_amendment", {{"id", a["id"]}, {"deedSignedOn", "2027-01-10"}, {"registrationNumber", "27 123 456"}});
    CHECK(r["status"] == "adopted");
    CHECK(r["deedSignedOn"] == "2027-01-10");
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "record_declaration_amendment", json({{"id", a["id"]}, {"documentId", "no-such-deed"}}));
    fx.add_document(fx.syndicate, "deed");
    r = fx.call("record_declaration_amendment", {{"id", a["id"]}, {"registeredOn", "2027-01-20"}, {"documentId", "deed"}});
    CHECK(r["status"] == "registered");
    CHECK(r["registrationNumber"] == "27 123 456");
    CHECK(r["documentId"] == "deed");
    // Subscribers hear of the adoption, then of the registration (the deed's day alone says nothing).
    CHECK(fx.events_of(a["id"]) == std::vector<std::string>{"declaration.amendment_adopted", "declaration.amendment_registered"});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_declaration_amendment", json({{"id", a["id"]}, {"registeredOn", nullptr}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_declaration_amendment", json({{"id", a["id"]}, {"part", "by-laws"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_declaration_amendment", json({{"id", a["id"]}, {"registeredOn", "2027-02-30"}}));
    CHECK_REFUSED(fx, "AMENDMENT_NOT_FOUND", "record_declaration_amendment", json({{"id", ghost}, {"registeredOn", "2027-01-20"}}));
    CHECK(fx.error_as(fx.other_admin, "record_declaration_amendment", {{"id", a["id"]}, {"registeredOn", "2027-01-20"}}).code() ==
          "AMENDMENT_NOT_FOUND");
    // Recorded after the fact, with its registration at once.
    const auto late = fx.amendment("by-laws", fx.resolution_id(), {{"registrationNumber", "27 999"}, {"registeredOn", "2027-02-01"}});
    CHECK(late["status"] == "registered");
}

TEST_CASE("contestableUntil is the decision + 90 days; the result warns while it runs (art. 1103)") {
    Building fx;
    const auto resolution = fx.resolution_id();
    auto a = fx.amendment("by-laws", resolution);
    CHECK(a["contestableUntil"] == "2027-03-15");
    REQUIRE(a["warnings"].size() == 1);
    CHECK(a["warnings"][0].get<std::string>().find("2027-03-15") != std::string::npos);
    fx.clock.set(at("2027-03-15T23:00:00-04:00"));  // the 90th day, late evening in Montreal (daylight time)
    CHECK(fx.amendment("by-laws", resolution)["warnings"].size() == 1);
    fx.clock.set(at("2027-03-16T00:30:00-04:00"));
    a = fx.amendment("by-laws", resolution);
    CHECK(a["warnings"].empty());
    CHECK(a["contestableUntil"] == "2027-03-15");
}

}

}  // namespace declaration_amendments_test
