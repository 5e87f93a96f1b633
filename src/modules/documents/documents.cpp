// One thin function per documents tool: reads the call's arguments, checks the rules, writes
// through the store and answers with the document as shown; and the module's registration.
#include "modules/documents/documents.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/documents/file_types.hpp"
#include "modules/documents/store.hpp"
#include "modules/documents/targets.hpp"
#include "storage/database.hpp"
#include "storage/durable_file.hpp"

namespace syndic {

using nlohmann::json;

namespace documents {
namespace {

std::string required_with_content(const Arguments& a, const char* key) {
    if (!a.given(key))
        throw invalid_argument(a.pointer(key), "is required with contentBase64",
                               std::string(key) + " is required when contentBase64 is given.");
    return a.text(key);
}

// The new file's document: its bytes checked, written under <data dir>/documents/ (or the stored
// file with the same bytes reused), its row inserted; or the active document that has these bytes.
struct Stored {
    std::string id;
    bool reused = false;
};
Stored store_content(const ToolCall& call, const std::string& now) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto& text = a.text("contentBase64");
    auto bytes = decode_base64(text);
    if (!bytes)
        throw invalid_argument("/contentBase64", "is not base64",
                               "contentBase64 is not standard base64 (A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4).");
    if (bytes->size() > max_file_bytes)
        throw DomainError(codes::document_too_large, "The file has " + std::to_string(bytes->size()) +
                                                         " bytes; a document holds at most 3,000,000.")
            .at("/contentBase64")
            .with("sizeBytes", static_cast<std::int64_t>(bytes->size()))
            .with("limitBytes", static_cast<std::int64_t>(max_file_bytes));
    if (bytes->empty()) throw invalid_argument("/contentBase64", "is empty", "contentBase64 holds no bytes: the file is empty.");
    NewDocument d;
    d.file_name = nonblank_text(json(required_with_content(a, "fileName")), "/fileName");
    d.mime_type = required_with_content(a, "mimeType");
    d.kind = required_with_content(a, "kind");
    d.title = nonblank_text(json(required_with_content(a, "title")), "/title");
    if (const auto why = type_mismatch(d.mime_type, *bytes); !why.empty())
        throw DomainError(codes::document_type_not_allowed, why + " It was declared " + d.mime_type + ".")
            .at("/contentBase64")
            .with("mimeType", d.mime_type);
    d.sha256 = sha256_hex(*bytes);
    if (auto same = active_document_with(call.db, syndicate, d.sha256)) return {*same, true};

    d.id = new_record_id();
    d.size_bytes = static_cast<std::int64_t>(bytes->size());
    if (auto kept = file_with(call.db, syndicate, d.sha256)) {
        d.path = *kept;  // an archived document's file holds these bytes: no second copy
    } else {
        const std::string file = d.id + "." + extension_for(d.mime_type);
        d.path = (std::filesystem::path(call.db.data_dir()) / "documents" / file).string();
        const auto staged = stage_file_durably(d.path, *bytes, FileCheck::none, "documents/" + file);
        call.db.publish_on_commit(staged.temporary, staged.final_path);
        d.sha256 = staged.written.sha256;
    }
    d.language = a.optional_text("language");
    d.register_item = a.optional_text("registerItem");
    d.visibility = a.text_or("visibility", "board");
    d.uploaded_by = call.caller.api_key_id;
    d.created_at = now;
    // An admin's upload is certified as it is stored; a member's waits for an admin (certify).
    if (call.caller.role == Role::admin) d.certified_by = call.caller.api_key_id.empty() ? "admin" : call.caller.api_key_id;
    insert_document(call.db, syndicate, d);
    return {d.id, false};
}

// A stored document attached again (the same bytes, or its documentId): its kind and visibility
// must be those the call gives, if it gives them, as they decide which notices carry it and who
// may read it, and a document has one of each (DOCUMENT_ALREADY_STORED); a different title is
// recorded as a warning, the stored title kept (docs/decisions.md, "What a new user tripped on").
json reuse_warnings(const Arguments& a, const json& stored) {
    const auto& id = stored["id"].get<std::string>();
    const auto& title = stored["title"].get<std::string>();
    for (const char* key : {"kind", "visibility"}) {
        if (!a.has(key) || a.text(key) == stored[key].get<std::string>()) continue;
        throw DomainError(codes::document_already_stored,
                          "This file is already stored as document " + id + ", \"" + title + "\" (kind " +
                              stored["kind"].get<std::string>() + ", visibility " + stored["visibility"].get<std::string>() +
                              "), and this call gives " + key + " " + a.text(key) +
                              ": a document has one kind and one visibility. Check that this is the file you meant; to "
                              "attach that document as it is, give documentId " + id + " without kind and visibility.")
            .at(a.pointer(key))
            .with("documentId", id)
            .with("kind", stored["kind"].get<std::string>())
            .with("title", title)
            .with("visibility", stored["visibility"].get<std::string>());
    }
    json warnings = json::array();
    if (a.has("title") && trim(a.text("title")) != title)
        warnings.push_back("This file is already stored as document " + id + ", \"" + title + "\": it keeps that title, not \"" +
                           trim(a.text("title")) + "\".");
    return warnings;
}

// An admin certifies a stored document as the register's record: its protected kind then protects
// it (a member's upload of final minutes is not the register's until then).
void certify(const ToolCall& call, const std::string& id, const std::string& now) {
    if (call.caller.role != Role::admin)
        throw DomainError(codes::admin_required, "Only an admin certifies a document as the register's record.")
            .at("/certify");
    auto q = call.db.prepare(
        "UPDATE documents SET certified_at = ?1, certified_by = ?2, updated_at = ?1 WHERE id = ?3 AND certified_at IS NULL");
    bind_parameters(*q, now, call.caller.api_key_id.empty() ? std::string("admin") : call.caller.api_key_id, id);
    q->exec();
}

json attach_document(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string record_type = a.text("recordType"), record_id = a.text("recordId");
    const auto now = to_utc_iso(call.clock.now());
    require_target(call.db, call.caller, record_type, record_id);
    if (a.has("documentId") == a.has("contentBase64"))
        throw invalid_argument(a.has("documentId") ? "/documentId" : "/contentBase64", "give one of contentBase64 and documentId",
                               "Give contentBase64 (a new file) or documentId (a stored document), not both and not neither.");
    const auto [id, reused] = a.has("documentId")
                                  ? Stored{require_document(call.db, syndicate, a.text("documentId"), "/documentId", false).id, true}
                                  : store_content(call, now);
    const auto warnings = reused ? reuse_warnings(a, document_json(call.db, call.caller, id)) : json::array();
    if (a.flag("certify", false)) certify(call, id, now);
    attach(call.db, syndicate, id, record_type, record_id, now);
    auto out = document_json(call.db, call.caller, id);
    out["reused"] = reused;
    if (!warnings.empty()) out["warnings"] = warnings;
    return out;
}

json list_documents(const ToolCall& call) {
    const auto a = call.arguments();
    DocumentFilter f{a.optional_text("recordType"), a.optional_text("recordId"),
                     a.optional_text("kind"),       a.optional_text("registerItem"),
                     std::nullopt,                                a.flag("includeArchived", false)};
    if (a.has("search")) f.search = trim(a.text("search"));
    return document_page(call.db, call.caller, f, page_request(a));
}

json get_document(const ToolCall& call) {
    const std::string id = call.arguments().text("id");
    auto out = document_json(call.db, call.caller, id);
    if (!call.arguments().flag("includeContent", false)) return out;
    const auto stored = require_document(call.db, call.caller.syndicate_id, id, "/id", true);
    if (stored.size_bytes > static_cast<std::int64_t>(max_file_bytes))
        throw DomainError(codes::document_too_large, "The file has " + std::to_string(stored.size_bytes) +
                                                         " bytes, more than the 3,000,000 given as content; download it instead.")
            .at("/includeContent")
            .with("sizeBytes", stored.size_bytes)
            .with("limitBytes", static_cast<std::int64_t>(max_file_bytes));
    std::ifstream in(stored.path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.is_open() || (!in.good() && !in.eof()))
        throw DomainError(codes::document_not_found, "The file of document " + id + " is no longer on the server.").at("/id");
    out["contentBase64"] = base64_encode(bytes);
    return out;
}

json archive_document(const ToolCall& call) {
    const auto a = call.arguments();
    const std::string id = a.text("id");
    const auto reason = a.nonblank("reason");
    const auto now = to_utc_iso(call.clock.now());
    const auto stored = require_document(call.db, call.caller.syndicate_id, id, "/id", false);
    if (a.has("recordType") && !a.has("recordId"))
        throw invalid_argument("/recordId", "is required with recordType",
                               "recordId names the record to detach the document from; recordType alone names none.");
    // A protected document is kept, unless an admin voids it (void: true), its reason kept with it
    // and in the audit trail: a record of the register entered in error.
    const bool voiding = stored.is_protected && a.flag("void", false);
    if (stored.is_protected && !voiding)
        throw DomainError(codes::document_protected,
                          "Document " + id + " (" + stored.kind + ") is " + stored.protected_because +
                              ", a legal record the register keeps (art. 1070 C.c.Q.): it cannot be archived or detached "
                              "(an admin may void one entered in error: void true, with the reason).")
            .at("/id")
            .with("kind", stored.kind)
            .with("reason", stored.protected_because);
    if (voiding) {
        auto q = call.db.prepare("UPDATE documents SET voided_at = ?1, updated_at = ?1 WHERE id = ?2");
        bind_parameters(*q, now, id);
        q->exec();
    }
    if (a.has("recordId")) {
        const std::string record_id = a.text("recordId");
        const auto record_type = a.optional_text("recordType");
        if (!detach(call.db, id, record_type, record_id, reason, now)) {
            auto e = DomainError(codes::link_not_found, "Document " + id + " is not attached to " +
                                                            (record_type ? *record_type + " " : std::string("record ")) +
                                                            record_id + ".")
                         .at("/recordId");
            if (record_type) e.with("recordType", *record_type);
            throw e;
        }
    } else {
        archive(call.db, id, reason, now);
    }
    return document_json(call.db, call.caller, id);
}

}  // namespace
}  // namespace documents

void register_documents_module(ToolTable& table) {
    using namespace documents;
    table.bind("attach_document", attach_document);
    table.bind("list_documents", list_documents);
    table.bind("get_document", get_document);
    table.bind("archive_document", archive_document);
}

}  // namespace syndic
