#include "modules/documents/store.hpp"

#include <filesystem>

#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/documents/document_files.hpp"
#include "modules/documents/protection.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/durable_file.hpp"

namespace syndic::documents {

using nlohmann::json;

namespace {

const std::string columns =
    std::string("d.id, d.kind, d.title, d.file_name, d.mime_type, d.size_bytes, d.sha256, d.pages, d.language, d.draft, "
                "d.register_item, d.visibility, ") +
    protected_sql() + ", d.uploaded_by, d.created_at, d.updated_at, d.deleted_at, d.path, d.certified_at, d.voided_at";

json links_of(Database& db, const std::string& document_id) {
    json out = json::array();
    auto q = db.prepare(
        "SELECT record_type, record_id FROM document_links WHERE document_id = ? AND deleted_at IS NULL "
        "ORDER BY created_at, id");
    q->bind(1, document_id);
    while (q->executeStep())
        out.push_back({{"recordType", q->getColumn(0).getString()}, {"recordId", q->getColumn(1).getString()}});
    return out;
}

json row_json(Database& db, const CallerContext& caller, SQLite::Statement& q) {
    const auto id = q.getColumn(0).getString();
    json d = {{"id", id},
              {"kind", q.getColumn(1).getString()},
              {"title", q.getColumn(2).getString()},
              {"fileName", q.getColumn(3).getString()},
              {"mimeType", q.getColumn(4).getString()},
              {"sizeBytes", q.getColumn(5).getInt64()},
              {"sha256", q.getColumn(6).getString()},
              {"pages", nullable_integer(q.getColumn(7))},
              {"language", nullable_text(q.getColumn(8))},
              {"draft", q.getColumn(9).getInt() != 0},
              {"registerItem", nullable_text(q.getColumn(10))},
              {"visibility", q.getColumn(11).getString()},
              {"protected", q.getColumn(12).getInt() != 0},
              {"links", links_of(db, id)},
              {"uploadedBy", nullable_text(q.getColumn(13))},
              {"createdAt", shown_time(q.getColumn(14))},
              {"updatedAt", q.getColumn(15).isNull() ? shown_time(q.getColumn(14)) : shown_time(q.getColumn(15))},
              {"deletedAt", shown_time(q.getColumn(16))},
              {"certifiedAt", shown_time(q.getColumn(18))},
              {"voidedAt", shown_time(q.getColumn(19))}};
    add_document_location(d, caller, id, q.getColumn(17).getString());
    return d;
}

}  // namespace

StoredDocument require_document(Database& db, const std::string& syndicate_id, const std::string& id,
                                const std::string& field, bool archived_too) {
    auto q = db.prepare("SELECT d.id, d.path, d.kind, d.size_bytes, " + protection_reason_sql() +
                        ", d.deleted_at IS NOT NULL FROM documents d WHERE d.id = ? AND d.syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep() || (!archived_too && q->getColumn(5).getInt() != 0)) throw record_not_found("documents", id, field);
    StoredDocument d{q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(),
                     q->getColumn(3).getInt64(), !q->getColumn(4).isNull(), q->getColumn(5).getInt() != 0, ""};
    if (d.is_protected) d.protected_because = q->getColumn(4).getString();
    return d;
}

json document_json(Database& db, const CallerContext& caller, const std::string& id) {
    auto q = db.prepare("SELECT " + columns + " FROM documents d WHERE d.id = ? AND d.syndicate_id = ?");
    bind_parameters(*q, id, caller.syndicate_id);
    if (!q->executeStep()) throw record_not_found("documents", id, "/id");
    return row_json(db, caller, *q);
}

json document_page(Database& db, const CallerContext& caller, const DocumentFilter& f, const PageRequest& page) {
    // ?1 syndicate, ?2 record type, ?3 record id, ?4 kind, ?5 register item, ?6 search (folded),
    // ?7 search (lower case as typed), ?8 archived too.
    const std::string where =
        " FROM documents d WHERE d.syndicate_id = ?1 AND (?8 OR d.deleted_at IS NULL)"
        " AND (?2 IS NULL AND ?3 IS NULL OR EXISTS (SELECT 1 FROM document_links l WHERE l.document_id = d.id"
        " AND l.deleted_at IS NULL AND (?2 IS NULL OR l.record_type = ?2) AND (?3 IS NULL OR l.record_id = ?3)))"
        " AND (?4 IS NULL OR d.kind = ?4) AND (?5 IS NULL OR d.register_item = ?5)"
        " AND (?6 IS NULL OR instr(d.search_text, ?6) > 0 OR instr(d.search_text, ?7) > 0)";
    std::optional<std::string> folded, lower;
    if (f.search) {
        folded = fold_for_search(*f.search);
        lower = *f.search;
        for (auto& c : *lower)
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    const auto bind = [&](SQLite::Statement& q) {
        bind_parameters(q, caller.syndicate_id, f.record_type, f.record_id, f.kind, f.register_item, folded, lower,
                        f.include_archived ? 1 : 0);
    };
    json data = json::array();
    const auto total = read_page(db, "SELECT count(*)" + where,
                                 "SELECT " + columns + where + " ORDER BY d.created_at DESC, d.id DESC LIMIT ?100 OFFSET ?101",
                                 page, bind, [&](SQLite::Statement& q) { data.push_back(row_json(db, caller, q)); });
    return page_envelope(std::move(data), page, total);
}

std::optional<std::string> active_document_with(Database& db, const std::string& syndicate_id, const std::string& sha256) {
    auto q = db.prepare(
        "SELECT id FROM documents WHERE syndicate_id = ? AND sha256 = ? AND deleted_at IS NULL ORDER BY created_at, id LIMIT 1");
    bind_parameters(*q, syndicate_id, sha256);
    if (!q->executeStep()) return std::nullopt;
    return q->getColumn(0).getString();
}

std::optional<std::string> file_with(Database& db, const std::string& syndicate_id, const std::string& sha256) {
    auto q = db.prepare("SELECT path FROM documents WHERE syndicate_id = ? AND sha256 = ? ORDER BY created_at, id LIMIT 1");
    bind_parameters(*q, syndicate_id, sha256);
    if (!q->executeStep()) return std::nullopt;
    return q->getColumn(0).getString();
}

void insert_document(Database& db, const std::string& syndicate_id, const NewDocument& d) {
    auto q = db.prepare(
        "INSERT INTO documents (id, syndicate_id, meeting_id, kind, draft, language, path, pages, size_bytes, sha256, "
        "title, file_name, mime_type, register_item, visibility, uploaded_by, search_text, created_at, updated_at, "
        "certified_at, certified_by) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?18, "
        "CASE WHEN ?19 IS NULL THEN NULL ELSE ?18 END, ?19)");
    bind_parameters(*q, d.id, syndicate_id, d.meeting_id, d.kind, d.draft ? 1 : 0, d.language, d.path, d.pages, d.size_bytes,
                    d.sha256, d.title, d.file_name, d.mime_type, d.register_item, d.visibility, nonempty_text(d.uploaded_by),
                    fold_for_search(d.title) + "\n" + fold_for_search(d.file_name), d.created_at, nonempty_text(d.certified_by));
    q->exec();
}

std::string file_generated_pdf(Database& db, const std::string& syndicate_id, const GeneratedPdf& meta, const std::string& bytes, int pages) {
    NewDocument d;
    d.id = new_record_id();
    d.kind = meta.kind;
    d.title = meta.title;
    d.file_name = meta.file_stem + "-" + d.id.substr(d.id.size() - 8) + ".pdf";
    d.mime_type = "application/pdf";
    d.path = (std::filesystem::path(db.data_dir()) / "exports" / d.file_name).string();
    const auto staged = stage_file_durably(d.path, bytes, FileCheck::pdf, "exports/" + d.file_name);
    db.publish_on_commit(staged.temporary, staged.final_path);
    d.sha256 = staged.written.sha256;
    d.size_bytes = staged.written.size;
    d.pages = pages;
    d.visibility = meta.visibility;
    d.uploaded_by = meta.uploaded_by;
    d.created_at = meta.created_at;
    d.certified_by = "syndic-mcp";
    d.language = meta.language;
    d.register_item = meta.register_item;
    insert_document(db, syndicate_id, d);
    return d.id;
}

bool attach(Database& db, const std::string& syndicate_id, const std::string& document_id, const std::string& record_type,
            const std::string& record_id, const std::string& now) {
    auto revive = db.prepare(
        "UPDATE document_links SET deleted_at = NULL, reason = NULL WHERE document_id = ? AND record_type = ? "
        "AND record_id = ? AND deleted_at IS NOT NULL");
    bind_parameters(*revive, document_id, record_type, record_id);
    if (revive->exec() > 0) return true;
    auto q = db.prepare(
        "INSERT INTO document_links (id, syndicate_id, document_id, record_type, record_id, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (document_id, record_type, record_id) DO NOTHING");
    bind_parameters(*q, new_record_id(), syndicate_id, document_id, record_type, record_id, now);
    return q->exec() > 0;
}

bool detach(Database& db, const std::string& document_id, const std::optional<std::string>& record_type,
            const std::string& record_id, const std::string& reason, const std::string& now) {
    auto q = db.prepare(
        "UPDATE document_links SET deleted_at = ?1, reason = ?2 WHERE document_id = ?3 AND record_id = ?4 "
        "AND (?5 IS NULL OR record_type = ?5) AND deleted_at IS NULL");
    bind_parameters(*q, now, reason, document_id, record_id);
    if (record_type) q->bind(5, *record_type);
    const int changed = q->exec();
    if (changed > 0) {
        auto touch = db.prepare("UPDATE documents SET updated_at = ? WHERE id = ?");
        bind_parameters(*touch, now, document_id);
        touch->exec();
    }
    return changed > 0;
}

void archive(Database& db, const std::string& document_id, const std::string& reason, const std::string& now) {
    auto q = db.prepare("UPDATE documents SET deleted_at = ?1, archive_reason = ?2, updated_at = ?1 WHERE id = ?3");
    bind_parameters(*q, now, reason, document_id);
    q->exec();
}

}  // namespace syndic::documents
