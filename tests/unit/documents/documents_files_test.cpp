// The documents module's file rules and storage: base64 as files travel, each type's signature,
// the record types a document may be attached to, and an old database's minutes becoming
// documents attached to their meeting through migration 013.
#include "documents/documents_fixture.hpp"

#include <SQLiteCpp/Database.h>

#include <filesystem>
#include <unistd.h>

#include "legacy_database.hpp"
#include "modules/documents/targets.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace documents_files_test {

using namespace syndic::test;
using namespace syndic::test::documents_fixture;
using syndic::documents::decode_base64;
using syndic::base64_encode;
using syndic::documents::type_mismatch;

TEST_SUITE("documents") {

TEST_CASE("base64: the standard alphabet with its padding, nothing else") {
    CHECK(base64_encode("") == "");
    CHECK(base64_encode("f") == "Zg==");
    CHECK(base64_encode("fo") == "Zm8=");
    CHECK(base64_encode("foo") == "Zm9v");
    CHECK(base64_encode("\xFB\xFF") == "+/8=");
    CHECK(decode_base64("+/8=") == std::string("\xFB\xFF"));
    CHECK(decode_base64("Zm9vYg==") == std::string("foob"));
    CHECK_FALSE(decode_base64("-_8=").has_value());   // base64url
    CHECK_FALSE(decode_base64("Zm9vYg").has_value()); // no padding
    CHECK_FALSE(decode_base64("Zm9v\nYg==").has_value());
    CHECK_FALSE(decode_base64("Zm=vYg==").has_value());
    CHECK_FALSE(decode_base64("Zh==").has_value());   // unused bits set: another text of "f"
    std::string all;
    for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
    CHECK(decode_base64(base64_encode(all)) == all);
}

TEST_CASE("signatures: each type's first bytes, text as UTF-8, office files by their parts") {
    CHECK(type_mismatch("application/pdf", pdf_bytes).empty());
    CHECK_FALSE(type_mismatch("application/pdf", "%PDF").empty());
    CHECK(type_mismatch("image/jpeg", jpeg_bytes).empty());
    CHECK_FALSE(type_mismatch("image/jpeg", png_bytes).empty());
    CHECK(type_mismatch("image/png", png_bytes).empty());
    CHECK_FALSE(type_mismatch("image/png", std::string("\x89PNG\r\n\x1A", 7)).empty());
    CHECK(type_mismatch("image/webp", webp_bytes).empty());
    CHECK_FALSE(type_mismatch("image/webp", "RIFF").empty());
    CHECK(type_mismatch("text/plain", "Zoé 日本 😀\r\n").empty());
    CHECK(type_mismatch("text/plain", "").empty());
    CHECK_FALSE(type_mismatch("text/plain", "\xC0\x80").empty());      // overlong NUL
    CHECK_FALSE(type_mismatch("text/plain", "\xF4\x90\x80\x80").empty());  // past U+10FFFF
    CHECK_FALSE(type_mismatch("text/csv", "a;\xE9").empty());           // cut short
    CHECK(type_mismatch(docx_mime, zip_with({"[Content_Types].xml", "word/document.xml"})).empty());
    CHECK(type_mismatch(xlsx_mime, zip_with({"[Content_Types].xml", "xl/workbook.xml"})).empty());
    CHECK_FALSE(type_mismatch(docx_mime, zip_with({"word/document.xml"})).empty());  // not OOXML
    CHECK_FALSE(type_mismatch(xlsx_mime, zip_with({"[Content_Types].xml", "ppt/presentation.xml"})).empty());
    auto cut = zip_with({"[Content_Types].xml", "word/document.xml"});
    CHECK_FALSE(type_mismatch(docx_mime, cut.substr(0, cut.size() - 30)).empty());
    CHECK_FALSE(type_mismatch("application/zip", zip_with({"a"})).empty());
}

TEST_CASE("the record types a document may be attached to are the audit trail's, less credentials and documents") {
    Fixture fx;
    const auto types = syndic::documents::target_types(*fx.db);
    for (const char* t : {"co-owner", "contractor", "insurance-policy", "meeting", "resolution", "syndicate", "unit", "water-heater"})
        CHECK_MESSAGE(std::find(types.begin(), types.end(), t) != types.end(), t);
    for (const char* t : {"api-key", "user", "document", "document-link", "setting", "audit-event", "oauth-client"})
        CHECK_MESSAGE(std::find(types.begin(), types.end(), t) == types.end(), t);
    // The syndicate itself takes documents (its declaration, its by-laws), but only the caller's.
    DocumentsFixture dx;
    CHECK(dx.attach(pdf_bytes, "syndicate", dx.syndicate, "application/pdf", {{"kind", "declaration"}})["protected"] == true);
    CHECK(dx.error("attach_document", {{"contentBase64", b64(pdf_bytes)}, {"fileName", "d.pdf"}, {"mimeType", "application/pdf"},
                                       {"kind", "declaration"}, {"title", "Déclaration"}, {"recordType", "syndicate"},
                                       {"recordId", dx.other_syndicate}})
              .code() == "TARGET_NOT_FOUND");
}

TEST_CASE("documents 001 (schema version 13): the minutes of an old database become documents attached to their meeting") {
    const auto path = (std::filesystem::temp_directory_path() / ("syndic-doc-migration-" + std::to_string(::getpid()) + ".db")).string();
    std::filesystem::remove(path);
    {
        SQLite::Database old(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        make_legacy_database(old, 12);
        old.exec("INSERT INTO syndicates (id, name, created_at) VALUES ('s1', 'Les Érables', '2026-01-01T00:00:00.000Z')");
        old.exec("INSERT INTO meetings (id, syndicate_id, title, type, scheduled_at, location, created_at, updated_at) VALUES "
                 "('m1', 's1', 'AGA 2026', 'aga', '2026-12-16T00:00:00.000Z', 'Salle', '2026-11-01T00:00:00.000Z', "
                 "'2026-11-01T00:00:00.000Z'), ('m2', 's1', 'Conseil', 'board', '2026-12-17T00:00:00.000Z', 'Salle', "
                 "'2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')");
        old.exec("INSERT INTO documents (id, syndicate_id, meeting_id, kind, draft, language, path, pages, size_bytes, sha256, "
                 "created_at) VALUES ('d1', 's1', 'm1', 'minutes', 0, 'fr', '/data/exports/minutes-2026-12-15-a-final-fr-b.pdf', "
                 "3, 1000, 'abc', '2026-12-20T00:00:00.000Z'), ('d2', 's1', 'm2', 'minutes', 1, 'en', "
                 "'/data/exports/minutes-2026-12-16-c-draft-en-d.pdf', 2, 900, 'def', '2026-12-21T00:00:00.000Z')");
    }
    auto db = syndic::Database::open(path);
    CHECK(db->schema_version() == syndic::Database::latest_schema_version());
    syndic::CallerContext caller{"s1", "key", {"*"}, syndic::Role::admin};
    syndic::FixedClock clock{fixed_now()};
    syndic::ToolRegistry registry{syndic::all_tool_handlers()};
    const auto page = registry.call("list_documents", json::object(), caller, *db, clock);
    REQUIRE(page["data"].size() == 2);
    const auto& draft = page["data"][0];
    const auto& final_fr = page["data"][1];
    CHECK(final_fr["id"] == "d1");
    CHECK(final_fr["kind"] == "minutes");
    CHECK(final_fr["title"] == "Procès-verbal — AGA 2026");
    CHECK(final_fr["fileName"] == "minutes-2026-12-15-a-final-fr-b.pdf");
    CHECK(final_fr["mimeType"] == "application/pdf");
    CHECK(final_fr["registerItem"] == "meeting-minutes");
    CHECK(final_fr["visibility"] == "co-owners");
    CHECK(final_fr["protected"] == true);
    CHECK(final_fr["pages"] == 3);
    CHECK(final_fr["uploadedBy"].is_null());
    CHECK(final_fr["links"] == json::array({json{{"recordType", "meeting"}, {"recordId", "m1"}}}));
    CHECK(draft["title"] == "Minutes — Conseil");
    CHECK(draft["registerItem"] == "board-minutes");
    CHECK(draft["visibility"] == "board");
    CHECK(draft["protected"] == false);
    CHECK(registry.call("list_documents", {{"search", "procès"}}, caller, *db, clock)["data"].size() == 1);
    // The kinds are checked from now on.
    CHECK_THROWS(db->sql().exec("UPDATE documents SET kind = 'receipt' WHERE id = 'd1'"));
    db.reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

}

}  // namespace documents_files_test
