// What the logbook tests share: a building of three apartments and a parking space, the roof and the
// boiler room as common portions, a contractor, the chart of accounts, and a folder for the PDFs.
// The fixture's clock makes today 2026-11-21.
#pragma once
#include "declaration/declaration_fixture.hpp"

#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <map>
#include <string>
#include <system_error>

namespace syndic::test {

struct LogbookFixture : DeclarationFixture {
    std::string data_dir;
    json u101 = unit("101", 30);
    json u102 = unit("102", 30);
    json u201 = unit("201", 35);
    json p1 = unit("P-1", 5, "parking");
    json roof = call("set_common_portion", {{"name", "Toit"}, {"kind", "general"}, {"description", "La toiture"}, {"initial", true}});
    json contractor = call("create_contractor", {{"name", "Toitures Laval inc."}, {"trade", "Couvreur"}, {"rbqLicence", "5678-1234-01"}});
    std::map<std::pair<std::string, std::string>, std::string> chart;

    LogbookFixture() {
        char pattern[] = "/tmp/syndic-logbook-test-XXXXXX";
        data_dir = mkdtemp(pattern);
        db->set_data_dir(data_dir);
        const auto accounts = call("list_accounts", {{"pageSize", 200}});
        for (const auto& a : accounts["data"]) chart[{a["fund"].get<std::string>(), a["code"].get<std::string>()}] = a["id"].get<std::string>();
    }
    ~LogbookFixture() {
        std::error_code ignored;
        std::filesystem::remove_all(data_dir, ignored);
    }
    std::string account(const std::string& fund, const std::string& code) { return chart.at({fund, code}); }
    std::int64_t balance(const std::string& fund, const std::string& code) {
        const auto accounts = call("list_accounts", {{"fund", fund}, {"pageSize", 200}});
        for (const auto& a : accounts["data"])
            if (a["code"] == code) return a["balanceCents"].get<std::int64_t>();
        return 0;
    }
    void opening(const std::string& fund, std::int64_t cents) {
        call("record_journal_entry", {{"date", "2026-01-01"}, {"description", "Solde d'ouverture"}, {"source", "opening"},
                                      {"lines", {{{"accountId", account(fund, "1010")}, {"debitCents", cents}},
                                                 {{"accountId", account(fund, "3000")}, {"creditCents", cents}}}}});
    }
    // A roof membrane of the common portion, installed in 2001 for 25 years.
    json component(json extra = json::object()) {
        json a = {{"name", "Membrane de toiture"}, {"category", "roofing"}, {"commonPortionId", roof["id"]}, {"installedYear", 2001},
                  {"expectedLifeYears", 25}, {"replacementCostCents", 18500000}};
        a.update(extra);
        return call("create_logbook_component", a);
    }
    std::string document() {
        return call("attach_document", {{"recordType", "unit"}, {"recordId", u101["id"]}, {"contentBase64", "UmFwcG9ydA=="},
                                        {"fileName", "rapport.txt"}, {"mimeType", "text/plain"}, {"kind", "logbook"},
                                        {"title", "Rapport"}})["id"];
    }
    json preparer(const std::string& name = "Hélène Roy") {
        return {{"name", name}, {"firm", "Roy Ingénierie"}, {"order", "OIQ"}, {"memberNumber", "5012345"}};
    }
};

}  // namespace syndic::test
