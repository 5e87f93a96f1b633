#include "modules/accounting/statements_pdf.hpp"

#include "core/reader_format.hpp"
#include "modules/documents/pdf_words.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

std::string fund_title(const std::string& fund, bool en) {
    if (fund == "operating") return en ? "Operating fund" : "Fonds d’exploitation";
    if (fund == "contingency") return en ? "Contingency fund" : "Fonds de prévoyance";
    return en ? "Self-insurance fund" : "Fonds d’autoassurance";
}

struct Writer : PdfWords {
    void accounts(const json& rows) {
        for (const auto& r : rows)
            add(PdfBlock::Kind::item, r["code"].get<std::string>() + " " + bidi_isolate(r["name"].get<std::string>()) + colon() +
                                          money(r["amountCents"].get<std::int64_t>()));
    }
    void total(const std::string& label, std::int64_t cents) { add(PdfBlock::Kind::paragraph, label + colon() + money(cents)); }
};

void fund_pages(Writer& w, const std::string& fund, const json& f, const std::string& to) {
    const bool en = w.en();
    const auto& sheet = f["balanceSheet"];
    const auto& result = f["incomeStatement"];
    w.add(PdfBlock::Kind::heading, fund_title(fund, en), true);
    w.add(PdfBlock::Kind::subheading, (en ? "Balance sheet at " : "Bilan au ") + long_date(to, w.language) + " — " + fund_title(fund, en), true);
    for (const auto& r : sheet["assets"]) {  // an interfund balance below zero is what the fund owes the others
        const auto cents = r["amountCents"].get<std::int64_t>();
        const bool owed = r["code"] == "1900" && cents < 0;
        w.add(PdfBlock::Kind::item, r["code"].get<std::string>() + " " + bidi_isolate(r["name"].get<std::string>()) +
                                        (owed ? (en ? " (owed to the other funds)" : " (dû aux autres fonds)") : "") + w.colon() + w.money(cents));
    }
    w.total(en ? "Total assets" : "Total de l’actif", sheet["totalAssetsCents"].get<std::int64_t>());
    w.accounts(sheet["liabilities"]);
    w.total(en ? "Total liabilities" : "Total du passif", sheet["totalLiabilitiesCents"].get<std::int64_t>());
    w.total(en ? "Fund balance" : "Solde du fonds", sheet["fundBalanceCents"].get<std::int64_t>());
    w.add(PdfBlock::Kind::subheading, (en ? "Income statement — " : "État des résultats — ") + fund_title(fund, en), true);
    w.accounts(result["income"]);
    w.total(en ? "Total income" : "Total des revenus", result["totalIncomeCents"].get<std::int64_t>());
    w.accounts(result["expenses"]);
    w.total(en ? "Total expenses" : "Total des dépenses", result["totalExpensesCents"].get<std::int64_t>());
    w.total(en ? "Surplus (deficit)" : "Excédent (déficit)", result["surplusCents"].get<std::int64_t>());
}

void debts_pages(Writer& w, const json& debts) {
    const bool en = w.en();
    w.add(PdfBlock::Kind::heading, en ? "Statement of debts and claims" : "État des dettes et des créances", true);
    const auto& r = debts["receivables"];
    const auto& b = r["byBucket"];
    w.total(en ? "Owed by the co-owners" : "Sommes dues par les copropriétaires", r["totalCents"].get<std::int64_t>());
    w.add(PdfBlock::Kind::item, (en ? "Not yet due" : "Non échues") + w.colon() + w.money(b["notYetDue"].get<std::int64_t>()));
    w.add(PdfBlock::Kind::item, (en ? "Past due 30 days or less" : "Échues depuis 30 jours ou moins") + w.colon() + w.money(b["days0to30"].get<std::int64_t>()));
    w.add(PdfBlock::Kind::item, (en ? "Past due 31 to 60 days" : "Échues depuis 31 à 60 jours") + w.colon() + w.money(b["days31to60"].get<std::int64_t>()));
    w.add(PdfBlock::Kind::item, (en ? "Past due 61 to 90 days" : "Échues depuis 61 à 90 jours") + w.colon() + w.money(b["days61to90"].get<std::int64_t>()));
    w.add(PdfBlock::Kind::item, (en ? "Past due over 90 days" : "Échues depuis plus de 90 jours") + w.colon() + w.money(b["over90"].get<std::int64_t>()));
    w.total(en ? "Paid in advance by the co-owners" : "Sommes payées d’avance par les copropriétaires", debts["coOwnerCreditCents"].get<std::int64_t>());
    const auto& p = debts["payables"];
    w.total(en ? "Owed to suppliers" : "Sommes dues aux fournisseurs", p["totalCents"].get<std::int64_t>());
    for (const auto& i : p["invoices"])
        w.add(PdfBlock::Kind::item, bidi_isolate(i["payee"].get<std::string>()) + (en ? ", invoice " : ", facture ") +
                                        bidi_isolate(i["invoiceNumber"].get<std::string>()) + w.colon() + w.money(i["amountCents"].get<std::int64_t>()));
}

void comparison_pages(Writer& w, const json& c) {
    const bool en = w.en();
    w.add(PdfBlock::Kind::heading, en ? "Budget and actuals" : "Budget et réalisations", true);
    for (const auto& l : c["lines"]) {
        const auto actual = l["actualCents"].is_null() ? std::string("—") : w.money(l["actualCents"].get<std::int64_t>());
        w.add(PdfBlock::Kind::item, bidi_isolate(l["label"].get<std::string>()) + " (" + fund_title(l["fund"].get<std::string>(), en) + ")" +
                                        w.colon() + (en ? "budget " : "budget ") + w.money(l["budgetCents"].get<std::int64_t>()) +
                                        (en ? ", actual " : ", réel ") + actual);
    }
}

}  // namespace

PdfDocument statements_document(const json& report, const std::string& syndicate, const std::string& language) {
    Writer w{{{}, language}};
    const bool en = w.en();
    const auto year = std::to_string(report["fiscalYear"].get<std::int64_t>());
    const auto to = report["to"].get<std::string>();
    w.doc.pdf_title = (en ? "Financial statements " : "États financiers ") + year;
    w.doc.pdf_subject = syndicate;
    w.doc.footer = syndicate + " — " + w.doc.pdf_title;
    w.number_pages();
    w.add(PdfBlock::Kind::title, (en ? "Financial statements — fiscal year " : "États financiers — exercice ") + year);
    w.add(PdfBlock::Kind::subtitle, bidi_isolate(syndicate));
    w.add(PdfBlock::Kind::paragraph, (en ? "From " : "Du ") + long_date(report["from"].get<std::string>(), language) + (en ? " to " : " au ") +
                                         long_date(to, language) + "." +
                                         (report["closed"].get<bool>() ? (en ? " The fiscal year is closed." : " L’exercice est clos.")
                                                                       : (en ? " The fiscal year is not closed." : " L’exercice n’est pas clos.")));
    w.add(PdfBlock::Kind::paragraph, en ? "Each fund is kept apart (arts. 1071, 1071.1 C.C.Q.); presented to the general meeting (art. 1087 C.C.Q.)."
                                        : "Chaque fonds est tenu à part (art. 1071 et 1071.1 C.c.Q.) ; présentés à l’assemblée des copropriétaires (art. 1087 C.c.Q.).");
    for (const char* fund : {"operating", "contingency", "self-insurance"}) fund_pages(w, fund, report["funds"][fund], to);
    debts_pages(w, report["debtsAndClaims"]);
    if (report["budgetComparison"].is_object()) comparison_pages(w, report["budgetComparison"]);
    return std::move(w.doc);
}

PdfDocument forecast_document(const json& forecast, const std::string& syndicate, const std::string& language) {
    Writer w{{{}, language}};
    const bool en = w.en();
    const auto year = std::to_string(forecast["fiscalYear"].get<std::int64_t>());
    w.doc.pdf_title = (en ? "Budget forecast " : "Prévisions budgétaires ") + year;
    w.doc.pdf_subject = syndicate;
    w.doc.footer = syndicate + " — " + w.doc.pdf_title;
    w.number_pages();
    w.add(PdfBlock::Kind::title, (en ? "Budget forecast — fiscal year " : "Prévisions budgétaires — exercice ") + year);
    w.add(PdfBlock::Kind::subtitle, bidi_isolate(syndicate));
    for (const char* fund : {"operating", "contingency", "self-insurance"}) {
        json lines = json::array();
        for (const auto& l : forecast["lines"])
            if (l["fund"] == fund) lines.push_back(l);
        if (lines.empty()) continue;
        w.add(PdfBlock::Kind::heading, fund_title(fund, en), true);
        for (const auto& l : lines) {
            const auto kind = l["kind"].get<std::string>();
            const auto what = kind == "income" ? (en ? " (income)" : " (revenu)") : kind == "contribution" ? (en ? " (contribution)" : " (contribution)") : "";
            w.add(PdfBlock::Kind::item, bidi_isolate(l["label"].get<std::string>()) + what + w.colon() + w.money(l["amountCents"].get<std::int64_t>()));
        }
    }
    const auto& c = forecast["contributionsCents"];
    w.add(PdfBlock::Kind::heading, en ? "Contributions of the co-owners" : "Contributions des copropriétaires", true);
    w.add(PdfBlock::Kind::item, fund_title("operating", en) + w.colon() + w.money(c["operating"].get<std::int64_t>()));
    w.add(PdfBlock::Kind::item, fund_title("contingency", en) + w.colon() + w.money(c["contingency"].get<std::int64_t>()));
    w.add(PdfBlock::Kind::item, fund_title("self-insurance", en) + w.colon() + w.money(c["selfInsurance"].get<std::int64_t>()));
    w.total(en ? "Total" : "Total", c["total"].get<std::int64_t>());
    w.add(PdfBlock::Kind::paragraph, en ? "Each co-owner contributes in proportion to the relative value of their fraction (art. 1064 C.C.Q.)."
                                        : "Chaque copropriétaire contribue en proportion de la valeur relative de sa fraction (art. 1064 C.c.Q.).");
    return std::move(w.doc);
}

}  // namespace syndic::accounting
