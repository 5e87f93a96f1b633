// A file attached again (issue 27, item 3): a roof quote went out as an annual meeting's financial
// statements because the same bytes were reused without a word. The stored document is reused only
// as it is: a different kind or visibility is refused (DOCUMENT_ALREADY_STORED, naming the stored
// document), a different title is recorded as a warning; by documentId the same.
#include "documents/documents_fixture.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace documents_reuse_test {

using namespace syndic::test;
using namespace syndic::test::documents_fixture;

namespace {

// A figure of a refusal, as text.
std::string figure(const syndic::DomainError& e, const std::string& key) {
    for (const auto& [name, value] : e.figures())
        if (name == key) return std::get<std::string>(value);
    return "";
}

int links_of(Fixture& fx, const json& document) {
    return static_cast<int>(fx.call("get_document", {{"id", document["id"]}})["links"].size());
}

}  // namespace

TEST_SUITE("documents-reuse") {

TEST_CASE("the same bytes with another kind or visibility are refused, naming the stored document; nothing attached") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto u = fx.unit("101", 100);
    const auto quote = fx.attach(pdf_bytes, "unit", u["id"], "application/pdf",
                                 {{"kind", "quote"}, {"title", "Soumission toiture"}});
    const auto e = fx.error("attach_document", {{"contentBase64", b64(pdf_bytes)}, {"fileName", "etats-financiers.pdf"},
                                                {"mimeType", "application/pdf"}, {"kind", "financial-statements"},
                                                {"title", "États financiers 2026"}, {"visibility", "co-owners"},
                                                {"recordType", "meeting"}, {"recordId", m["id"]}});
    CHECK(e.code() == "DOCUMENT_ALREADY_STORED");
    CHECK(e.field() == "/kind");
    CHECK(figure(e, "documentId") == quote["id"].get<std::string>());
    CHECK(figure(e, "kind") == "quote");
    CHECK(figure(e, "title") == "Soumission toiture");
    CHECK(figure(e, "visibility") == "board");
    CHECK(std::string(e.what()).find("Soumission toiture") != std::string::npos);
    CHECK(links_of(fx, quote) == 1);

    const auto visible = fx.error("attach_document", {{"contentBase64", b64(pdf_bytes)}, {"fileName", "x.pdf"},
                                                      {"mimeType", "application/pdf"}, {"kind", "quote"},
                                                      {"title", "Soumission toiture"}, {"visibility", "co-owners"},
                                                      {"recordType", "meeting"}, {"recordId", m["id"]}});
    CHECK(visible.code() == "DOCUMENT_ALREADY_STORED");
    CHECK(visible.field() == "/visibility");

    // By documentId with a kind that is not its own: refused the same way.
    CHECK_REFUSED(fx, "DOCUMENT_ALREADY_STORED", "attach_document",
                  (json{{"documentId", quote["id"]}, {"kind", "financial-statements"}, {"recordType", "meeting"},
                        {"recordId", m["id"]}}));
    CHECK(links_of(fx, quote) == 1);
}

TEST_CASE("the same bytes with the same kind: reused as stored, a different title said in warnings") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto u = fx.unit("101", 100);
    const auto first = fx.attach(pdf_bytes, "unit", u["id"]);
    const auto same = fx.attach(pdf_bytes, "meeting", m["id"], "application/pdf", {{"title", " Facture de déneigement "}});
    CHECK(same["reused"] == true);
    CHECK_FALSE(same.contains("warnings"));
    const auto renamed = fx.attach(pdf_bytes, "co-owner", fx.co_owner(u["id"], "Marie", "Tremblay")["id"], "application/pdf",
                                   {{"title", "Facture de janvier"}});
    CHECK(renamed["id"] == first["id"]);
    CHECK(renamed["reused"] == true);
    CHECK(renamed["title"] == "Facture de déneigement");
    CHECK(renamed["kind"] == "invoice");
    CHECK(renamed["visibility"] == "board");
    REQUIRE(renamed["warnings"].size() == 1);
    const std::string warning = renamed["warnings"][0];
    CHECK(warning.find("Facture de déneigement") != std::string::npos);
    CHECK(warning.find("Facture de janvier") != std::string::npos);
    CHECK(renamed["links"].size() == 3);
}

}  // TEST_SUITE

}  // namespace documents_reuse_test
