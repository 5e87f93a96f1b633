// A notice delivered (catalogue §4.5 issue_assessment_notices, resend_assessment_notice): rendered
// as a PDF in a language, kept as a protected document attached to the notice, and queued by
// e-mail to an addressee with the PDF attached. Knows storage, the documents' filing and the
// outbox; not JSON-RPC.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "core/clock.hpp"
#include "modules/assessment_notices/notice_store.hpp"

namespace syndic {
class Database;
}

namespace syndic::assessment_notices {

// Renders the notice in `language` as it stands (what is paid of it included), stages its file and
// records it as a protected document attached to the notice; returns the document's id.
std::string file_notice_pdf(Database& db, const std::string& syndicate_id, const Notice& n, const std::string& language, Instant now,
                            const std::string& uploaded_by);

struct NoticeMail {
    const Notice& notice;
    const nlohmann::json& addressee;  // {coOwnerId, name, email, language}
    std::string language, document_id, syndicate_name;
    bool resent = false;
};

// Queues the e-mail with its PDF to the addressee; false (nothing queued) when they have no e-mail.
bool queue_notice_mail(Database& db, const std::string& syndicate_id, const NoticeMail& mail, const std::string& now);

}  // namespace syndic::assessment_notices
