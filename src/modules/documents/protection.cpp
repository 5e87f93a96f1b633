// The register's protected documents as a table (documents/protection.hpp).
#include "modules/documents/protection.hpp"

namespace syndic::documents {

namespace {

// A kind the register keeps once final and certified: a generated draft is not the record (the
// minutes' drafts; a notice is written final once sent, financial statements once their year is
// closed), an upload is never a draft, and a member's upload is the register's only once an admin
// certifies it (documents migration 004; what the server writes is certified as it is written).
ProtectionRule kind(const char* reason, const std::string& kind_name) {
    return {reason, "(d.draft = 0 AND d.kind = '" + kind_name + "' AND d.certified_at IS NOT NULL)"};
}

}  // namespace

const std::vector<ProtectionRule>& protection_rules() {
    static const std::vector<ProtectionRule> rules = {
        kind("final minutes", "minutes"),
        kind("a notice sent", "notice"),
        kind("an assessment notice issued", "assessment-notice"),
        kind("an attestation", "attestation"),
        kind("a statement of common expenses", "charges-statement"),
        kind("financial statements of a closed year", "financial-statements"),
        kind("the declaration of co-ownership", "declaration"),
        // The deed of an amendment once registered: the document it names, or one attached to it.
        {"a registered amendment of the declaration",
         "EXISTS (SELECT 1 FROM declaration_amendments a WHERE a.syndicate_id = d.syndicate_id AND a.status = 'registered' "
         "AND (a.document_id = d.id OR EXISTS (SELECT 1 FROM document_links l WHERE l.document_id = d.id "
         "AND l.deleted_at IS NULL AND l.record_type = 'declaration-amendment' AND l.record_id = a.id)))"},
        kind("a contract", "contract"),
        kind("the by-laws", "bylaws"),
        kind("plans and specifications", "plans-specs"),
        kind("the cadastral plan", "cadastral-plan"),
        // A written resolution adopted (every signature given, art. 354): the documents of its signatures.
        {"a signature of an adopted written resolution",
         "EXISTS (SELECT 1 FROM resolution_signatures s JOIN resolutions r ON r.id = s.resolution_id "
         "WHERE s.document_id = d.id AND r.source = 'written' AND r.decided_on IS NOT NULL)"},
        kind("a maintenance logbook report", "logbook"),
        kind("a contingency fund study", "fund-study"),
    };
    return rules;
}

const std::string& protected_sql() {
    static const std::string sql = [] {
        std::string out;
        for (const auto& r : protection_rules()) out += (out.empty() ? "(" : " OR ") + r.condition;
        return out + ")";
    }();
    return sql;
}

const std::string& protection_reason_sql() {
    static const std::string sql = [] {
        std::string out = "(CASE";
        for (const auto& r : protection_rules()) out += " WHEN " + r.condition + " THEN '" + r.reason + "'";
        return out + " END)";
    }();
    return sql;
}

}  // namespace syndic::documents
