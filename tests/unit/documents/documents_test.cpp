// The documents module's tools (catalogue 4.1): attach_document (new content, a stored document,
// the same bytes twice), list_documents, get_document with its content, archive_document
// (detaching one link, archiving, protected minutes), and each refusal changing nothing.
#include "documents/documents_fixture.hpp"

#include <filesystem>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace documents_test {

using namespace syndic::test;
using namespace syndic::test::documents_fixture;

TEST_SUITE("documents") {

TEST_CASE("attach_document stores a file under documents/ and attaches it to the record") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto d = fx.attach(pdf_bytes, "meeting", m["id"], "application/pdf",
                             {{"registerItem", "contracts"}, {"visibility", "co-owners"}, {"language", "fr"}});
    CHECK(d["kind"] == "invoice");
    CHECK(d["title"] == "Facture de déneigement");
    CHECK(d["fileName"] == "facture-2026.pdf");
    CHECK(d["mimeType"] == "application/pdf");
    CHECK(d["sizeBytes"] == pdf_bytes.size());
    CHECK(d["sha256"] == syndic::sha256_hex(pdf_bytes));
    CHECK(d["pages"].is_null());
    CHECK(d["language"] == "fr");
    CHECK(d["draft"] == false);
    CHECK(d["registerItem"] == "contracts");
    CHECK(d["visibility"] == "co-owners");
    CHECK(d["protected"] == false);
    CHECK(d["uploadedBy"] == "key-admin");
    CHECK(d["reused"] == false);
    CHECK(d["deletedAt"].is_null());
    CHECK(d["links"] == json::array({json{{"recordType", "meeting"}, {"recordId", m["id"]}}}));
    const std::string path = d["path"];
    CHECK(path.rfind(fx.documents_folder() + "/", 0) == 0);
    CHECK(path.ends_with(".pdf"));
    CHECK(std::filesystem::file_size(path) == pdf_bytes.size());
    CHECK(fx.stored_files() == 1);  // no temporary left beside it

    SUBCASE("visibility defaults to board, language to none") {
        const auto other = fx.attach(png_bytes, "meeting", m["id"], "image/png", {{"kind", "photo"}, {"fileName", "toit.png"}});
        CHECK(other["visibility"] == "board");
        CHECK(other["language"].is_null());
        CHECK(other["registerItem"].is_null());
        CHECK(std::string(other["path"]).ends_with(".png"));
    }
    SUBCASE("a remote caller is given a download address, not the path") {
        auto remote = fx.admin;
        remote.remote_base = "https://syndic.example/api";
        const auto shown = fx.call_as(remote, "get_document", {{"id", d["id"]}});
        CHECK(shown["downloadUrl"] == "https://syndic.example/api/documents/" + d["id"].get<std::string>() + "/content");
        CHECK_FALSE(shown.contains("path"));
    }
}

TEST_CASE("the same bytes twice: one document, one file, one more link") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto u = fx.unit("101", 100);
    const auto first = fx.attach(pdf_bytes, "meeting", m["id"]);
    const auto second = fx.attach(pdf_bytes, "unit", u["id"], "application/pdf", {{"title", "Autre titre"}});
    CHECK(second["id"] == first["id"]);
    CHECK(second["reused"] == true);
    CHECK(second["title"] == "Facture de déneigement");  // the stored document, as it was
    CHECK(second["links"].size() == 2);
    CHECK(fx.stored_files() == 1);
    CHECK(fx.call("list_documents")["pagination"]["total"] == 1);

    SUBCASE("attaching it again to the same record changes nothing") {
        const auto again = fx.attach(pdf_bytes, "unit", u["id"]);
        CHECK(again["links"].size() == 2);
    }
    SUBCASE("documentId attaches a stored document") {
        const auto c = fx.co_owner(u["id"], "Marie", "Tremblay");
        const auto linked = fx.call("attach_document", {{"documentId", first["id"]}, {"recordType", "co-owner"}, {"recordId", c["id"]}});
        CHECK(linked["id"] == first["id"]);
        CHECK(linked["links"].size() == 3);
        CHECK(fx.stored_files() == 1);
    }
    SUBCASE("after the document is archived, the same bytes make a new document on the same file") {
        fx.call("archive_document", {{"id", first["id"]}, {"reason", "Erreur"}});
        const auto fresh = fx.attach(pdf_bytes, "meeting", m["id"]);
        CHECK(fresh["id"] != first["id"]);
        CHECK(fresh["reused"] == false);
        CHECK(fresh["path"] == first["path"]);
        CHECK(fx.stored_files() == 1);
    }
}

TEST_CASE("each allowed type with its signature; bytes of another type are refused") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto docx = zip_with({"[Content_Types].xml", "_rels/.rels", "word/document.xml"});
    const auto xlsx = zip_with({"[Content_Types].xml", "_rels/.rels", "xl/workbook.xml"});
    CHECK(fx.attach(jpeg_bytes, "meeting", m["id"], "image/jpeg")["mimeType"] == "image/jpeg");
    CHECK(fx.attach(png_bytes, "meeting", m["id"], "image/png")["mimeType"] == "image/png");
    CHECK(fx.attach(webp_bytes, "meeting", m["id"], "image/webp")["mimeType"] == "image/webp");
    CHECK(fx.attach("Procès-verbal, notes\n", "meeting", m["id"], "text/plain")["mimeType"] == "text/plain");
    CHECK(fx.attach("unité;quote-part\n101;30\n", "meeting", m["id"], "text/csv")["mimeType"] == "text/csv");
    CHECK(fx.attach(docx, "meeting", m["id"], docx_mime)["mimeType"] == docx_mime);
    CHECK(fx.attach(xlsx, "meeting", m["id"], xlsx_mime)["mimeType"] == xlsx_mime);
    CHECK(fx.stored_files() == 7);

    const auto refused = [&](const std::string& bytes, const std::string& mime) {
        json args = {{"contentBase64", b64(bytes)}, {"fileName", "x"}, {"mimeType", mime}, {"kind", "other"},
                     {"title", "x"}, {"recordType", "meeting"}, {"recordId", m["id"]}};
        const auto before = fx.snapshot();
        const auto e = fx.error("attach_document", args);
        CHECK(fx.snapshot() == before);
        CHECK(fx.stored_files() == 7);
        return e;
    };
    const auto png_as_pdf = refused(png_bytes, "application/pdf");
    CHECK(png_as_pdf.code() == "DOCUMENT_TYPE_NOT_ALLOWED");
    CHECK(png_as_pdf.field() == "/contentBase64");
    CHECK(refused(pdf_bytes, "image/png").code() == "DOCUMENT_TYPE_NOT_ALLOWED");
    CHECK(refused(std::string("RIFF\0\0\0\0WAVE", 12), "image/webp").code() == "DOCUMENT_TYPE_NOT_ALLOWED");
    CHECK(refused(std::string("a\0b", 3), "text/plain").code() == "DOCUMENT_TYPE_NOT_ALLOWED");
    CHECK(refused("caf\xE9 latin-1", "text/csv").code() == "DOCUMENT_TYPE_NOT_ALLOWED");
    CHECK(refused("\xED\xA0\x80 surrogate", "text/plain").code() == "DOCUMENT_TYPE_NOT_ALLOWED");
    CHECK(refused(xlsx, docx_mime).code() == "DOCUMENT_TYPE_NOT_ALLOWED");  // a workbook declared a Word file
    CHECK(refused(docx, xlsx_mime).code() == "DOCUMENT_TYPE_NOT_ALLOWED");
    CHECK(refused("PK\x03\x04 not a whole archive", docx_mime).code() == "DOCUMENT_TYPE_NOT_ALLOWED");
    // A type off the list is refused by the schema, with the documents' code.
    const auto zip = refused(docx, "application/zip");
    CHECK(zip.code() == "DOCUMENT_TYPE_NOT_ALLOWED");
}

TEST_CASE("attach_document's refusals change nothing") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto base = json{{"contentBase64", b64(pdf_bytes)}, {"fileName", "a.pdf"}, {"mimeType", "application/pdf"},
                           {"kind", "invoice"}, {"title", "Facture"}, {"recordType", "meeting"}, {"recordId", m["id"]}};
    auto with = [&](json extra) {
        json args = base;
        for (const auto& [k, v] : extra.items()) {
            if (v.is_null()) args.erase(k);
            else args[k] = v;
        }
        return args;
    };

    SUBCASE("more than 3,000,000 bytes: DOCUMENT_TOO_LARGE; 3,000,000 are taken") {
        const std::string big = "%PDF-" + std::string(3'000'000 - 5, 'x');
        CHECK_REFUSED(fx, "DOCUMENT_TOO_LARGE", "attach_document", with({{"contentBase64", b64(big + "x")}}));
        CHECK(fx.stored_files() == 0);
        CHECK(fx.call("attach_document", with({{"contentBase64", b64(big)}}))["sizeBytes"] == 3'000'000);
    }
    SUBCASE("a record of another syndicate, an unknown id or type, an archived record: TARGET_NOT_FOUND") {
        const auto theirs = fx.meeting(json::object(), &fx.other_admin);
        for (const auto& args : {with({{"recordId", theirs["id"]}}), with({{"recordId", unknown_id}}),
                                 with({{"recordType", "document"}}), with({{"recordType", "api-key"}, {"recordId", "key-admin"}}),
                                 with({{"recordType", "spaceship"}})}) {
            CAPTURE(args.dump());
            CHECK_REFUSED(fx, "TARGET_NOT_FOUND", "attach_document", args);
        }
        const auto e = fx.error("attach_document", with({{"recordId", theirs["id"]}}));
        CHECK(syndic::error_data(e)["recordType"] == "meeting");
        CHECK(fx.error("attach_document", with({{"recordType", "spaceship"}})).detail().find("meeting") != std::string::npos);
        const auto u = fx.unit("101", 100);
        const auto c = fx.co_owner(u["id"], "Jean", "Roy");
        fx.call("delete_co_owner", {{"id", c["id"]}});
        CHECK_REFUSED(fx, "TARGET_NOT_FOUND", "attach_document", with({{"recordType", "co-owner"}, {"recordId", c["id"]}}));
        CHECK(fx.stored_files() == 0);
    }
    SUBCASE("a stored document of another syndicate, or archived: DOCUMENT_NOT_FOUND") {
        const auto theirs_meeting = fx.meeting(json::object(), &fx.other_admin);
        json theirs_args = base;
        theirs_args["recordId"] = theirs_meeting["id"];
        const auto theirs = fx.call_as(fx.other_admin, "attach_document", theirs_args);
        CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "attach_document",
                      with({{"contentBase64", nullptr}, {"documentId", theirs["id"]}}));
        const auto mine = fx.call("attach_document", base);
        CHECK(mine["id"] != theirs["id"]);  // the same bytes in another syndicate are not shared
        fx.call("archive_document", {{"id", mine["id"]}, {"reason", "Doublon"}});
        CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "attach_document", with({{"contentBase64", nullptr}, {"documentId", mine["id"]}}));
    }
    SUBCASE("content and documentId, neither, or content without its metadata: VALIDATION_FAILED") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "attach_document", with({{"documentId", unknown_id}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "attach_document", with({{"contentBase64", nullptr}}));
        for (const char* key : {"fileName", "mimeType", "kind", "title"}) {
            const auto e = fx.error("attach_document", with({{key, nullptr}}));
            CHECK(e.code() == "VALIDATION_FAILED");
            CHECK(e.field() == std::string("/") + key);
        }
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "attach_document", with({{"contentBase64", "not base64!"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "attach_document", with({{"contentBase64", "JVBERi0x-A=="}}));  // base64url
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "attach_document", with({{"contentBase64", ""}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "attach_document", with({{"title", "   "}}));
    }
    SUBCASE("the schema refuses what it describes: an unknown kind, visibility or argument") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "attach_document", with({{"kind", "receipt"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "attach_document", with({{"visibility", "public"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "attach_document", with({{"recordId", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "attach_document", with({{"path", "/etc/passwd"}}));
    }
}

TEST_CASE("list_documents: newest first, filtered by record, kind, register item, words; archived on request") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto u = fx.unit("101", 100);
    const auto invoice = fx.attach(pdf_bytes, "meeting", m["id"]);
    fx.clock.advance(std::chrono::minutes(1));
    const auto photo = fx.attach(png_bytes, "unit", u["id"], "image/png",
                                 {{"kind", "photo"}, {"title", "Fissure du balcon"}, {"fileName", "balcon.png"}});
    fx.clock.advance(std::chrono::minutes(1));
    const auto plan = fx.attach(jpeg_bytes, "unit", u["id"], "image/jpeg",
                                {{"kind", "plans-specs"}, {"title", "Plan de l'étage"}, {"registerItem", "plans-specs"}});
    const auto ids = [&](json args) {
        std::vector<std::string> out;
        const auto page = fx.call("list_documents", args);
        for (const auto& d : page["data"]) out.push_back(d["id"]);
        return out;
    };
    using V = std::vector<std::string>;
    CHECK(ids(json::object()) == V{plan["id"], photo["id"], invoice["id"]});
    CHECK(ids({{"recordType", "unit"}, {"recordId", u["id"]}}) == V{plan["id"], photo["id"]});
    CHECK(ids({{"recordId", m["id"]}}) == V{invoice["id"]});
    CHECK(ids({{"recordType", "meeting"}}) == V{invoice["id"]});
    CHECK(ids({{"kind", "photo"}}) == V{photo["id"]});
    CHECK(ids({{"registerItem", "plans-specs"}}) == V{plan["id"]});
    CHECK(ids({{"search", "ETAGE"}}) == V{plan["id"]});      // case and accents ignored
    CHECK(ids({{"search", "balcon.png"}}) == V{photo["id"]});  // the file name too
    CHECK(ids({{"pageSize", 1}, {"page", 2}}) == V{photo["id"]});
    CHECK(fx.call_as(fx.other_admin, "list_documents")["data"].empty());

    fx.call("archive_document", {{"id", photo["id"]}, {"reason", "Photo floue"}});
    CHECK(ids(json::object()) == V{plan["id"], invoice["id"]});
    CHECK(ids({{"includeArchived", true}}) == V{plan["id"], photo["id"], invoice["id"]});
}

TEST_CASE("get_document gives the metadata, links and, on request, the bytes") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto d = fx.attach(png_bytes, "meeting", m["id"], "image/png");
    const auto plain = fx.call("get_document", {{"id", d["id"]}});
    CHECK_FALSE(plain.contains("contentBase64"));
    CHECK(plain["links"].size() == 1);
    const auto full = fx.call("get_document", {{"id", d["id"]}, {"includeContent", true}});
    CHECK(syndic::documents::decode_base64(full["contentBase64"].get<std::string>()) == png_bytes);
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "get_document", (json{{"id", unknown_id}}));
    CHECK(fx.error_as(fx.other_admin, "get_document", {{"id", d["id"]}}).code() == "DOCUMENT_NOT_FOUND");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_document", (json{{"id", d["id"]}, {"includeContent", "yes"}}));
    fx.call("archive_document", {{"id", d["id"]}, {"reason", "Erreur"}});
    CHECK_FALSE(fx.call("get_document", {{"id", d["id"]}})["deletedAt"].is_null());  // archived, still readable
}

TEST_CASE("archive_document detaches one link, archives, and keeps legal records and files") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto u = fx.unit("101", 100);
    const auto d = fx.attach(pdf_bytes, "meeting", m["id"]);
    fx.attach(pdf_bytes, "unit", u["id"]);

    const auto detached = fx.call("archive_document", {{"id", d["id"]}, {"recordType", "unit"}, {"recordId", u["id"]}, {"reason", "Mauvaise unité"}});
    CHECK(detached["deletedAt"].is_null());
    CHECK(detached["links"] == json::array({json{{"recordType", "meeting"}, {"recordId", m["id"]}}}));
    CHECK(fx.call("list_documents", {{"recordId", u["id"]}})["data"].empty());
    CHECK_REFUSED(fx, "LINK_NOT_FOUND", "archive_document", (json{{"id", d["id"]}, {"recordId", u["id"]}, {"reason", "x"}}));
    CHECK_REFUSED(fx, "LINK_NOT_FOUND", "archive_document",
                  (json{{"id", d["id"]}, {"recordType", "unit"}, {"recordId", m["id"]}, {"reason", "x"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "archive_document", (json{{"id", d["id"]}, {"recordType", "meeting"}, {"reason", "x"}}));
    CHECK(fx.attach(pdf_bytes, "unit", u["id"])["links"].size() == 2);  // attached again: the link is back

    CHECK(fx.error_as(fx.member, "archive_document", {{"id", d["id"]}, {"reason", "x"}}).code() == "ADMIN_REQUIRED");
    const auto archived = fx.call("archive_document", {{"id", d["id"]}, {"reason", "Facture annulée"}});
    CHECK_FALSE(archived["deletedAt"].is_null());
    CHECK(std::filesystem::exists(archived["path"].get<std::string>()));  // the file is never deleted
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "archive_document", (json{{"id", d["id"]}, {"reason", "x"}}));
    CHECK(fx.error_as(fx.other_admin, "archive_document", {{"id", d["id"]}, {"reason", "x"}}).code() == "DOCUMENT_NOT_FOUND");
}

TEST_CASE("generated minutes are documents attached to their meeting; final ones are protected") {
    DocumentsFixture fx;
    const auto m = fx.meeting();
    const auto draft = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
    fx.notice(m);
    fx.held(m);
    const auto final_minutes = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"language", "en"}});
    const auto f = fx.call("get_document", {{"id", final_minutes["documentId"]}});
    CHECK(f["kind"] == "minutes");
    CHECK(f["title"] == "Minutes — " + meeting_title);
    CHECK(f["mimeType"] == "application/pdf");
    CHECK(std::string(f["fileName"]).starts_with("minutes-"));
    CHECK(f["registerItem"] == "meeting-minutes");
    CHECK(f["visibility"] == "co-owners");
    CHECK(f["language"] == "en");
    CHECK(f["pages"] >= 1);
    CHECK(f["protected"] == true);
    CHECK(f["links"] == json::array({json{{"recordType", "meeting"}, {"recordId", m["id"]}}}));
    CHECK(fx.call("list_documents", {{"recordType", "meeting"}, {"recordId", m["id"]}, {"kind", "minutes"}})["pagination"]["total"] == 2);
    CHECK(fx.call("list_documents", {{"search", "proces"}})["data"].size() == 1);  // the French draft

    CHECK_REFUSED(fx, "DOCUMENT_PROTECTED", "archive_document", (json{{"id", f["id"]}, {"reason", "x"}}));
    CHECK_REFUSED(fx, "DOCUMENT_PROTECTED", "archive_document",
                  (json{{"id", f["id"]}, {"recordType", "meeting"}, {"recordId", m["id"]}, {"reason", "x"}}));
    const auto d = fx.call("get_document", {{"id", draft["documentId"]}});
    CHECK(d["protected"] == false);
    CHECK(d["visibility"] == "board");
    CHECK_FALSE(fx.call("archive_document", {{"id", d["id"]}, {"reason", "Brouillon remplacé"}})["deletedAt"].is_null());
    CHECK(fx.get(m)["documents"].size() == 1);  // the meeting shows the minutes still kept
}

}

}  // namespace documents_test
