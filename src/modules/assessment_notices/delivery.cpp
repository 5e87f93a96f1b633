#include "modules/assessment_notices/delivery.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>

#include "auth/credentials.hpp"
#include "core/reader_format.hpp"
#include "core/ids.hpp"
#include "modules/assessment_notices/notice_pdf.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/documents/filing.hpp"
#include "modules/outbox_queue.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::assessment_notices {

using nlohmann::json;

std::string file_notice_pdf(Database& db, const std::string& syndicate_id, const Notice& n, const std::string& language, Instant now,
                            const std::string& uploaded_by) {
    const auto notice = notice_json(db, syndicate_id, n.id);
    // The address the syndicate's settings give, else the declaration's; the declaration's rate,
    // else the legal 5 % (as apply_late_interest charges).
    auto address = get_setting(db, syndicate_id, "address");
    if (!address.is_string()) {
        auto d = db.prepare("SELECT address FROM declarations WHERE syndicate_id = ?");
        bind_parameters(*d, syndicate_id);
        if (d->executeStep() && !d->getColumn(0).isNull()) address = d->getColumn(0).getString();
    }
    // A notice sent again keeps the day it was issued.
    const auto issued_on = notice["issuedAt"].is_string() ? montreal_date(stored_instant(notice["issuedAt"].get<std::string>())) : montreal_date(now);
    const auto rate = declaration::arrears_parameters(db, syndicate_id).interest_rate.value_or(Fraction::percent(5));
    auto rate_text = percent(rate).dump();
    if (language == "fr") std::replace(rate_text.begin(), rate_text.end(), '.', ',');
    const auto instructions = get_setting(db, syndicate_id, "paymentInstructions");
    const auto pdf = render_pdf(notice_document(notice, syndicate_name(db, syndicate_id), address.is_string() ? address.get<std::string>() : "",
                                                language, issued_on, rate_text + (language == "fr" ? "\u00a0%" : "%"),
                                                instructions.is_string() ? instructions.get<std::string>() : ""));
    const auto id = documents::file_generated_pdf(
        db, syndicate_id,
        {"assessment-notice", (language == "en" ? "Notice of assessment " : "Avis de cotisation ") + n.number, "avis-" + n.number + "-" + language,
         "board",  // a unit's amounts are its co-owners' and the board's, not every co-owner's
         language, uploaded_by, to_utc_iso(now), std::nullopt},
        pdf.bytes, pdf.pages);
    documents::attach(db, syndicate_id, id, "assessment-notice", n.id, to_utc_iso(now));
    return id;
}

bool queue_notice_mail(Database& db, const std::string& syndicate_id, const NoticeMail& mail, const std::string& now) {
    const auto& ad = mail.addressee;
    if (!ad["email"].is_string()) return false;
    const auto& n = mail.notice;
    const bool en = mail.language == "en";
    const bool special = n.kind == "special";
    const auto who = ad["name"].get<std::string>();
    const auto& name = mail.syndicate_name;
    const std::string what = en ? (special ? "notice of special assessment " : "notice of assessment ")
                                : (special ? "avis de cotisation spéciale " : "avis de cotisation ");
    const std::string subject = (en ? (special ? "Notice of special assessment " : "Notice of assessment ")
                                    : (special ? "Avis de cotisation spéciale " : "Avis de cotisation ")) +
                                n.number + (mail.resent ? (en ? " (copy)" : " (copie)") : "") + " — " + name;
    const std::string body =
        en ? "Dear " + who + ",\n\nPlease find attached your " + what + n.number + (special ? "" : " for " + std::to_string(n.fiscal_year)) +
                 ": " + format_money(n.total_cents, mail.language) + ", payable in the instalments it lists" +
                 (mail.resent ? ", with what has been received so far" : "") + ".\n\n" + name + "\n"
           : "Bonjour " + who + ",\n\nVous trouverez ci-joint votre " + what + n.number +
                 (special ? "" : " pour " + std::to_string(n.fiscal_year)) + " : " + format_money(n.total_cents, mail.language) +
                 ", payable selon les versements qu'il indique" + (mail.resent ? ", avec ce qui a été reçu à ce jour" : "") + ".\n\n" +
                 name + "\n";
    queue_outbox_message(db, syndicate_id,
                         {ad["coOwnerId"].get<std::string>(), "email", ad["email"].get<std::string>(), mail.language, subject, body,
                          "assessment-notice", n.id, "", json::array({mail.document_id}).dump()},
                         now);
    return true;
}

}  // namespace syndic::assessment_notices
