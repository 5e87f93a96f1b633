#include "modules/logbook/update_pdf.hpp"

#include <cstdio>

#include "core/reader_format.hpp"
#include "modules/documents/pdf_words.hpp"

namespace syndic::logbook {

using nlohmann::json;

namespace {

struct Writer : PdfWords {
    std::string day(const json& d) const { return d.is_string() ? long_date(d.get<std::string>(), language) : (en() ? "none" : "aucune"); }
};

// 3 -> "3 %" (fr) or "3%" (en); 3.5 -> "3,5 %" or "3.5%".
std::string percent_text(double percent, bool en) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", percent);
    std::string s = text;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    if (!en)
        for (auto& c : s)
            if (c == '.') c = ',';
    return en ? s + "%" : s + "\u00a0%";
}

std::string condition_word(const std::string& c, bool en) {
    if (c == "good") return en ? "good" : "bon";
    if (c == "fair") return en ? "fair" : "passable";
    if (c == "poor") return en ? "poor" : "mauvais";
    if (c == "critical") return en ? "critical" : "critique";
    return en ? "unknown" : "inconnu";
}

void status_part(Writer& w, const json& status) {
    w.add(PdfBlock::Kind::heading, w.t("État du carnet", "The logbook's status"), true);
    w.add(PdfBlock::Kind::item, w.t("Préparation initiale", "Initial preparation") + w.colon() + w.day(status["preparedOn"]));
    if (status["preparer"].is_object()) {
        const auto& p = status["preparer"];
        std::string who = bidi_isolate(p["name"].get<std::string>());
        if (p["order"].is_string()) who += " (" + p["order"].get<std::string>() + ")";
        if (p["firm"].is_string()) who += ", " + bidi_isolate(p["firm"].get<std::string>());
        w.add(PdfBlock::Kind::item, w.t("Professionnel", "Professional") + w.colon() + who);
    }
    w.add(PdfBlock::Kind::item, w.t("Prochaine révision professionnelle", "Next professional revision") + w.colon() +
                                    w.day(status["nextProfessionalRevisionDue"]) + " (" + std::to_string(status["revisionIntervalYears"].get<int>()) +
                                    w.t(" ans)", " years)"));
    w.add(PdfBlock::Kind::item, w.t("Prochaine mise à jour annuelle", "Next yearly update") + w.colon() + w.day(status["nextAnnualUpdateDue"]));
    const auto& c = status["counts"];
    std::string counts;
    for (const char* k : {"good", "fair", "poor", "critical", "unknown"})
        counts += (counts.empty() ? "" : ", ") + condition_word(k, w.en()) + " " + std::to_string(c[k].get<std::int64_t>());
    w.add(PdfBlock::Kind::item, w.t("Composantes", "Components") + w.colon() + std::to_string(c["total"].get<std::int64_t>()) + " (" + counts + ")");
}

void late_part(Writer& w, const json& status, const json& revision, const json& names) {
    w.add(PdfBlock::Kind::heading, w.t("Travaux non réalisés et motifs", "Works not done and why"), true);
    if (revision["worksNotDone"].empty()) w.add(PdfBlock::Kind::paragraph, w.t("Aucun travail requis n’est en retard.", "No required work is late."));
    for (const auto& item : revision["worksNotDone"]) {
        const auto id = item["componentId"].get<std::string>();
        w.add(PdfBlock::Kind::item, bidi_isolate(names.value(id, id)) + w.colon() + bidi_isolate(item["reason"].get<std::string>()));
    }
    if (!status["overdueSchedules"].empty()) {
        w.add(PdfBlock::Kind::subheading, w.t("Entretien en retard", "Overdue maintenance"), true);
        for (const auto& s : status["overdueSchedules"])
            w.add(PdfBlock::Kind::item, bidi_isolate(s["componentName"].get<std::string>()) + " — " + bidi_isolate(s["task"].get<std::string>()) +
                                            w.colon() + w.t("prévu le ", "due ") + w.day(s["nextDueOn"]));
    }
}

// The inventory: each component's condition, age, life and replacement, as the fund-study preparer reads it.
void inventory_part(Writer& w, const json& components) {
    w.add(PdfBlock::Kind::heading, w.t("Inventaire des composantes", "Inventory of the components"), true);
    for (const auto& c : components) {
        std::string line = bidi_isolate(c["name"].get<std::string>()) + w.colon() + condition_word(c["condition"].get<std::string>(), w.en());
        if (c["installedYear"].is_number()) line += w.t(", installée en ", ", installed in ") + std::to_string(c["installedYear"].get<int>());
        if (c["expectedLifeYears"].is_number()) line += w.t(", durée de vie de ", ", life of ") + std::to_string(c["expectedLifeYears"].get<int>()) + w.t(" ans", " years");
        if (c["replacementYear"].is_number()) line += w.t(", remplacement prévu en ", ", replacement due in ") + std::to_string(c["replacementYear"].get<int>());
        if (c["replacementCostCents"].is_number()) line += w.t(" (coût actuel ", " (cost today ") + w.money(c["replacementCostCents"].get<std::int64_t>()) + ")";
        w.add(PdfBlock::Kind::item, line + ".");
    }
}

void plan_part(Writer& w, const json& plan) {
    w.add(PdfBlock::Kind::heading, w.t("Plan des travaux majeurs sur ", "Plan of major works over ") + std::to_string(plan["years"].size()) +
                                       w.t(" ans", " years"), true);
    w.add(PdfBlock::Kind::paragraph,
          w.t("Coûts de remplacement d’aujourd’hui indexés de ", "Today's replacement costs inflated by ") +
              percent_text(plan["inflationPercent"].get<double>(), w.en()) + w.t(" par année. Solde du fonds de prévoyance au ", " a year. Contingency fund balance on ") +
              w.day(plan["openingBalanceOn"]) + w.colon() + w.money(plan["openingBalanceCents"].get<std::int64_t>()) + ".");
    for (const auto& y : plan["years"]) {
        const bool shortfall = y["shortfall"].get<bool>();
        w.add(PdfBlock::Kind::subheading, std::to_string(y["year"].get<int>()) + (shortfall ? w.t(" — insuffisance", " — shortfall") : ""), true);
        for (const auto& work : y["works"])
            w.add(PdfBlock::Kind::item, bidi_isolate(work["name"].get<std::string>()) +
                                            (work["overdue"].get<bool>() ? w.t(" (durée de vie dépassée)", " (past its life)") : "") + w.colon() +
                                            w.money(work["plannedCents"].get<std::int64_t>()));
        for (const auto& project : y["projects"])
            w.add(PdfBlock::Kind::item, project["number"].get<std::string>() + " " + bidi_isolate(project["title"].get<std::string>()) +
                                            w.t(" (projet en cours)", " (project under way)") + w.colon() + w.money(project["plannedCents"].get<std::int64_t>()));
        w.add(PdfBlock::Kind::paragraph, w.t("Travaux", "Works") + w.colon() + w.money(y["plannedCents"].get<std::int64_t>()) + " · " +
                                             w.t("Contribution", "Contribution") + w.colon() + w.money(y["contributionCents"].get<std::int64_t>()) +
                                             " · " + w.t("Solde projeté", "Projected balance") + w.colon() +
                                             w.money(y["closingBalanceCents"].get<std::int64_t>()));
    }
    if (!plan["unplanned"].empty()) {
        w.add(PdfBlock::Kind::subheading, w.t("Composantes sans année ou coût de remplacement", "Components without a replacement year or cost"), true);
        for (const auto& u : plan["unplanned"]) w.add(PdfBlock::Kind::item, bidi_isolate(u["name"].get<std::string>()));
    }
}

}  // namespace

PdfDocument update_document(const json& status, const json& plan, const json& revision, const json& components, const std::string& syndicate,
                            const std::string& language) {
    json names = json::object();
    for (const auto& c : components) names[c["id"].get<std::string>()] = c["name"];
    Writer w{{{}, language}};
    const auto on = long_date(revision["performedOn"].get<std::string>(), language);
    w.doc.pdf_title = w.t("Carnet d’entretien — mise à jour annuelle du ", "Maintenance logbook — yearly update of ") + on;
    w.doc.footer = syndicate;
    w.number_pages();
    w.add(PdfBlock::Kind::title, w.t("Carnet d’entretien", "Maintenance logbook"));
    w.add(PdfBlock::Kind::subtitle, bidi_isolate(syndicate) + " — " + w.t("mise à jour annuelle du ", "yearly update of ") + on);
    status_part(w, status);
    late_part(w, status, revision, names);
    inventory_part(w, components);
    plan_part(w, plan);
    return std::move(w.doc);
}

}  // namespace syndic::logbook
