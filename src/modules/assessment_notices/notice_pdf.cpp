#include "modules/assessment_notices/notice_pdf.hpp"

#include "core/reader_format.hpp"

namespace syndic::assessment_notices {

using nlohmann::json;

namespace {

std::string fund_label(const std::string& fund, bool en) {
    if (fund == "operating") return en ? "Operating fund" : "Fonds d’exploitation";
    if (fund == "contingency") return en ? "Contingency fund" : "Fonds de prévoyance";
    return en ? "Self-insurance fund" : "Fonds d’autoassurance";
}

}  // namespace

PdfDocument notice_document(const json& notice, const std::string& syndicate, const std::string& address, const std::string& language,
                            const std::string& issued_on, const std::string& interest_rate, const std::string& payment_instructions) {
    const bool en = language == "en";
    const auto year = std::to_string(notice["fiscalYear"].get<std::int64_t>());
    const bool special = notice["kind"] == "special";
    PdfDocument doc;
    doc.pdf_title = (en ? (special ? "Notice of special assessment " : "Notice of assessment ") : (special ? "Avis de cotisation spéciale " : "Avis de cotisation ")) +
                    year + " — " + notice["number"].get<std::string>();
    doc.pdf_subject = syndicate;
    doc.footer = syndicate + " — " + (en ? "Notice " : "Avis ") + notice["number"].get<std::string>();
    doc.page_label = [en](int page, int pages) { return "Page " + std::to_string(page) + (en ? " of " : " de ") + std::to_string(pages); };
    auto add = [&](PdfBlock::Kind kind, std::string text) { doc.blocks.push_back({kind, std::move(text), false}); };
    const std::string colon = en ? ": " : "\u00a0: ";  // French sets a space before the colon
    add(PdfBlock::Kind::title, en ? (special ? "Notice of special assessment" : "Notice of assessment " + year)
                                  : (special ? "Avis de cotisation spéciale" : "Avis de cotisation " + year));
    add(PdfBlock::Kind::subtitle, bidi_isolate(syndicate));
    if (!address.empty()) add(PdfBlock::Kind::paragraph, bidi_isolate(address));
    add(PdfBlock::Kind::paragraph, (en ? "Notice no. " : "Avis nº ") + notice["number"].get<std::string>() + (en ? ", issued " : ", émis le ") +
                                       long_date(issued_on, language) + ".");
    doc.blocks.push_back({PdfBlock::Kind::heading, en ? "Addressed to" : "Destinataires", true});
    if (notice["addressees"].empty())
        add(PdfBlock::Kind::paragraph, en ? "No co-owner of the lot is recorded; the contribution attaches to the fraction (arts. 1064, 1069 C.C.Q.)."
                                          : "Aucun copropriétaire du lot n’est inscrit ; la contribution se rattache à la fraction (art. 1064 et 1069 C.c.Q.).");
    for (const auto& a : notice["addressees"]) add(PdfBlock::Kind::item, bidi_isolate(a["name"].get<std::string>()));
    if (special) {
        const auto& s = notice["specialAssessment"];
        doc.blocks.push_back({PdfBlock::Kind::heading, bidi_isolate(s["title"].get<std::string>()), true});
        add(PdfBlock::Kind::paragraph, bidi_isolate(s["reason"].get<std::string>()));
        add(PdfBlock::Kind::paragraph, (en ? "Decided by the board of directors on " : "Décidée par le conseil d’administration le ") +
                                           long_date(s["decidedOn"].get<std::string>(), language) + ".");
    }
    doc.blocks.push_back({PdfBlock::Kind::heading, special ? (en ? "Your share" : "Votre quote-part") : (en ? "Contributions of the year" : "Contributions de l’exercice"), true});
    for (const auto& l : notice["lines"]) {
        const auto basis = l["basis"] == "restricted-users" ? (en ? " (restricted common portion, its users)" : " (partie commune à usage restreint, ses usagers)")
                           : l["basis"] == "resolution"     ? (en ? " (share fixed by the general meeting's resolution)" : " (quote-part fixée par la résolution de l’assemblée)")
                                                            : std::string();
        add(PdfBlock::Kind::item, (en ? "Unit " : "Unité ") + bidi_isolate(l["unitNumber"].get<std::string>()) + " — " +
                                      fund_label(l["fund"].get<std::string>(), en) + basis + colon + format_money(l["amountCents"].get<std::int64_t>(), language));
    }
    add(PdfBlock::Kind::paragraph, (special ? (en ? "Total: " : "Total\u00a0: ") : (en ? "Total for the year: " : "Total de l’exercice\u00a0: ")) +
                                       format_money(notice["totalCents"].get<std::int64_t>(), language));
    if (const auto paid = notice["paidCents"].get<std::int64_t>(); paid > 0)
        add(PdfBlock::Kind::paragraph, (en ? "Already received (credit applied): " : "Déjà reçu (crédit appliqué)\u00a0: ") + format_money(paid, language) +
                                           (en ? "; balance: " : "\u00a0; solde\u00a0: ") + format_money(notice["totalCents"].get<std::int64_t>() - paid, language));
    doc.blocks.push_back({PdfBlock::Kind::heading, en ? "Instalments" : "Versements", true});
    const auto count = notice["installments"].size();
    for (const auto& i : notice["installments"])
        add(PdfBlock::Kind::item, (en ? "Instalment " : "Versement ") + std::to_string(i["number"].get<std::int64_t>()) + (en ? " of " : " de ") +
                                      std::to_string(count) + (en ? ", due " : ", payable le ") + long_date(i["dueOn"].get<std::string>(), language) +
                                      colon + format_money(i["amountCents"].get<std::int64_t>(), language));
    doc.blocks.push_back({PdfBlock::Kind::heading, en ? "How to pay" : "Comment payer", true});
    if (payment_instructions.empty())
        add(PdfBlock::Kind::paragraph, en ? "Ask the syndicate's board or manager how to pay." : "Demandez au conseil d’administration ou au gestionnaire comment payer.");
    else
        for (std::size_t start = 0; start <= payment_instructions.size();) {  // the syndicate's lines, as it wrote them
            const auto end = std::min(payment_instructions.find('\n', start), payment_instructions.size());
            auto line = payment_instructions.substr(start, end - start);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (!line.empty()) add(PdfBlock::Kind::paragraph, bidi_isolate(line));
            start = end + 1;
        }
    add(PdfBlock::Kind::paragraph, (en ? "Quote notice no. " : "Indiquez l’avis nº ") + notice["number"].get<std::string>() +
                                       (en ? " with each payment." : " avec chaque paiement."));
    doc.blocks.push_back({PdfBlock::Kind::heading, en ? "Please note" : "À noter", true});
    add(PdfBlock::Kind::paragraph,
        en ? "Each instalment is due on its date. Unpaid amounts bear interest at " + interest_rate + " a year. A co-owner "
             "who has not paid their share of the common expenses for more than three months is deprived of their right to vote at "
             "general meetings until it is paid (art. 1094 C.C.Q.)."
           : "Chaque versement est exigible à sa date. Les sommes impayées portent intérêt au taux de " + interest_rate + " par année. "
             "Le copropriétaire qui, depuis plus de trois mois, n’a pas acquitté sa quote-part des charges communes est privé de son droit "
             "de vote aux assemblées jusqu’au paiement (art. 1094 C.c.Q.).");
    return doc;
}

}  // namespace syndic::assessment_notices
