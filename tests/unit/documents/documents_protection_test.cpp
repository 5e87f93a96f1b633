// The register's protected documents (catalogue §4.1, art. 1070; documents/protection.hpp): a test
// per rule of the table. Each kept kind, once final, can be neither archived nor detached
// (DOCUMENT_PROTECTED with the rule's reason); every other kind can; a registered amendment's deed
// and the signatures of an adopted written resolution are kept for their record.
#include "documents/documents_fixture.hpp"

#include "modules/documents/protection.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace documents_protection_test {

using namespace syndic::test;
using namespace syndic::test::documents_fixture;

namespace {

// The kinds the register keeps once final (catalogue §4.1), and every other kind of the schema.
const std::vector<std::pair<std::string, std::string>> kept_kinds = {
    {"minutes", "final minutes"},
    {"notice", "a notice sent"},
    {"assessment-notice", "an assessment notice issued"},
    {"attestation", "an attestation"},
    {"charges-statement", "a statement of common expenses"},
    {"financial-statements", "financial statements of a closed year"},
    {"declaration", "the declaration of co-ownership"},
    {"contract", "a contract"},
    {"bylaws", "the by-laws"},
    {"plans-specs", "plans and specifications"},
    {"cadastral-plan", "the cadastral plan"},
    {"logbook", "a maintenance logbook report"},
    {"fund-study", "a contingency fund study"},
};
const std::vector<std::string> other_kinds = {"budget", "invoice", "quote", "insurance-policy", "insurance-certificate",
                                              "appraisal", "inspection-report", "location-certificate", "photo",
                                              "correspondence", "other"};

std::string reason_of(const syndic::DomainError& e) {
    for (const auto& [k, v] : e.figures())
        if (k == "reason") return std::get<std::string>(v);
    return "";
}

}  // namespace

TEST_SUITE("documents") {

TEST_CASE("each kind the register keeps: protected once uploaded, neither archived nor detached") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    for (const auto& [kind, reason] : kept_kinds) {
        CAPTURE(kind);
        const auto d = fx.attach(pdf_bytes + kind, "meeting", m["id"], "application/pdf", {{"kind", kind}});
        CHECK(d["protected"] == true);
        CHECK_REFUSED(fx, "DOCUMENT_PROTECTED", "archive_document", (json{{"id", d["id"]}, {"reason", "x"}}));
        CHECK_REFUSED(fx, "DOCUMENT_PROTECTED", "archive_document",
                      (json{{"id", d["id"]}, {"recordType", "meeting"}, {"recordId", m["id"]}, {"reason", "x"}}));
        CHECK(reason_of(fx.error("archive_document", {{"id", d["id"]}, {"reason", "x"}})) == reason);
    }
}

TEST_CASE("a member's upload of a kept kind is not the register's until an admin certifies it; an admin may void one") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    json args = {{"contentBase64", b64(pdf_bytes + "faux")}, {"fileName", "pv.pdf"}, {"mimeType", "application/pdf"},
                 {"kind", "minutes"}, {"title", "Procès-verbal"}, {"recordType", "meeting"}, {"recordId", m["id"]}};
    const auto upload = fx.call_as(fx.member, "attach_document", args);
    CHECK(upload["protected"] == false);
    CHECK(upload["certifiedAt"].is_null());
    // Only an admin certifies; then it is the register's record.
    const json again = {{"documentId", upload["id"]}, {"recordType", "meeting"}, {"recordId", m["id"]}, {"certify", true}};
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "attach_document", again);
    CHECK(fx.call("get_document", {{"id", upload["id"]}})["protected"] == false);
    const auto certified = fx.call("attach_document", again);
    CHECK(certified["protected"] == true);
    CHECK(certified["certifiedAt"].is_string());
    // Protected: refused, unless an admin voids it with its reason.
    CHECK_REFUSED(fx, "DOCUMENT_PROTECTED", "archive_document", (json{{"id", upload["id"]}, {"reason", "x"}}));
    const auto voided = fx.call("archive_document", {{"id", upload["id"]}, {"reason", "Téléversé par erreur : ce n'est pas le PV signé."},
                                                     {"void", true}});
    CHECK(voided["voidedAt"].is_string());
    CHECK(voided["deletedAt"].is_string());
    // An uncertified member's upload may simply be archived.
    args["contentBase64"] = b64(pdf_bytes + "autre");
    const auto other = fx.call_as(fx.member, "attach_document", args);
    CHECK(fx.call("archive_document", {{"id", other["id"]}, {"reason", "doublon"}})["voidedAt"].is_null());
}

TEST_CASE("every other kind may be archived") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    for (const auto& kind : other_kinds) {
        CAPTURE(kind);
        const auto d = fx.attach(pdf_bytes + kind, "meeting", m["id"], "application/pdf", {{"kind", kind}});
        CHECK(d["protected"] == false);
        CHECK_FALSE(fx.call("archive_document", {{"id", d["id"]}, {"reason", "Erreur"}})["deletedAt"].is_null());
    }
}

TEST_CASE("the table names every kind of the schema once, kept or not") {
    syndic::test::Fixture fx;
    const auto kinds = fx.registry.input_schema("attach_document")["properties"]["kind"]["enum"];
    std::vector<std::string> all;
    for (const auto& k : kept_kinds) all.push_back(k.first);
    all.insert(all.end(), other_kinds.begin(), other_kinds.end());
    std::sort(all.begin(), all.end());
    std::vector<std::string> schema(kinds.begin(), kinds.end());
    std::sort(schema.begin(), schema.end());
    CHECK(all == schema);
    // One rule per kept kind, and the two kept for their record.
    CHECK(syndic::documents::protection_rules().size() == kept_kinds.size() + 2);
}

TEST_CASE("a registered amendment's deed: kept once registered, the document it names and those attached") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto deed = fx.attach(pdf_bytes + "deed", "meeting", m["id"], "application/pdf", {{"kind", "other"}});
    const auto copy = fx.attach(pdf_bytes + "copy", "meeting", m["id"], "application/pdf", {{"kind", "correspondence"}});
    fx.notice(m);
    const auto r = fx.resolution(m, "Modification", "simple");
    // Decided as the law asks: everyone present, the votes on the meeting's day, the meeting held.
    const auto owner = fx.co_owner(fx.unit("101", 100)["id"], "Alice", "Roy");
    fx.attend(m, json::array({{{"coOwnerId", owner["id"]}, {"attendance", "present"}}}));
    fx.votes(r, fx.quorum(m)["total"].get<double>(), 0, 0);
    fx.held(m);
    const auto a = fx.call("record_declaration_amendment", {{"part", "by-laws"}, {"summary", "Bruit"}, {"resolutionId", r["id"]},
                                                            {"documentId", deed["id"]}});
    fx.call("attach_document", {{"documentId", copy["id"]}, {"recordType", "declaration-amendment"}, {"recordId", a["id"]}});
    // Adopted, not registered: not yet a legal record of the register.
    CHECK(fx.call("get_document", {{"id", deed["id"]}})["protected"] == false);
    CHECK(fx.call("get_document", {{"id", copy["id"]}})["protected"] == false);
    fx.call("record_declaration_amendment", {{"id", a["id"]}, {"registrationNumber", "27 123 456"}, {"registeredOn", "2026-11-20"}});
    CHECK(fx.call("get_document", {{"id", deed["id"]}})["protected"] == true);
    CHECK(fx.call("get_document", {{"id", copy["id"]}})["protected"] == true);
    CHECK_REFUSED(fx, "DOCUMENT_PROTECTED", "archive_document", (json{{"id", deed["id"]}, {"reason", "x"}}));
    CHECK(reason_of(fx.error("archive_document", {{"id", copy["id"]}, {"reason", "x"}})) == "a registered amendment of the declaration");
    // The document is kept whole: not detached from another record either.
    CHECK_REFUSED(fx, "DOCUMENT_PROTECTED", "archive_document",
                  (json{{"id", copy["id"]}, {"recordType", "meeting"}, {"recordId", m["id"]}, {"reason", "x"}}));
}

TEST_CASE("the signatures of a written resolution: kept once it is adopted") {
    DocumentsFixture fx;
    const auto u1 = fx.unit("101", 60), u2 = fx.unit("102", 40);
    const auto c1 = fx.co_owner(u1["id"], "Anne", "Roy", {{"fractionPercent", 60}});
    const auto c2 = fx.co_owner(u2["id"], "Paul", "Roy", {{"fractionPercent", 40}});
    const auto s1 = fx.attach(pdf_bytes + "s1", "co-owner", c1["id"], "application/pdf", {{"kind", "correspondence"}});
    const auto s2 = fx.attach(pdf_bytes + "s2", "co-owner", c2["id"], "application/pdf", {{"kind", "correspondence"}});
    const auto w = fx.call("record_written_resolution",
                           {{"body", "general"}, {"title", "Règlement"}, {"majorityRequired", "simple"}, {"text", "Texte."},
                            {"signatures", json::array({json{{"signerId", c1["id"]}, {"signedOn", "2026-11-21"}, {"documentId", s1["id"]}}})}});
    CHECK(w["status"] == "collecting");
    CHECK(fx.call("get_document", {{"id", s1["id"]}})["protected"] == false);  // not adopted: not yet a resolution
    fx.call("record_written_resolution",
            {{"id", w["id"]}, {"signatures", json::array({json{{"signerId", c2["id"]}, {"signedOn", "2026-11-21"}, {"documentId", s2["id"]}}})}});
    CHECK(fx.call("get_document", {{"id", s1["id"]}})["protected"] == true);
    CHECK(fx.call("get_document", {{"id", s2["id"]}})["protected"] == true);
    CHECK(reason_of(fx.error("archive_document", {{"id", s2["id"]}, {"reason", "x"}})) == "a signature of an adopted written resolution");
}

TEST_CASE("a draft of a kept kind is not the record: the minutes' drafts may go") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto draft = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
    const auto d = fx.call("get_document", {{"id", draft["documentId"]}});
    CHECK(d["protected"] == false);
    CHECK_FALSE(fx.call("archive_document", {{"id", d["id"]}, {"reason", "Brouillon"}})["deletedAt"].is_null());
}

}

}  // namespace documents_protection_test
