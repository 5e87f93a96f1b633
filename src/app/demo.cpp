#include "app/demo.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <string>

#include "app/demo_governance.hpp"
#include "auth/credentials.hpp"

namespace syndic {

using nlohmann::json;

namespace {

// The register: six apartments, each floor's two, and the parking and storage units linked to
// them (a lot each), with their cadastral lots. Returns unit number -> id.
std::map<std::string, std::string> seed_demo_units(const DemoCall& call) {
    struct DemoUnit {
        const char* number;
        const char* type;
        int floor;
        double fraction;
        double area_sq_ft;
        const char* linked_to;
    };
    const DemoUnit units[] = {
        {"101", "apartment", 1, 14.5, 980, nullptr}, {"102", "apartment", 1, 14.5, 975, nullptr},
        {"201", "apartment", 2, 15.0, 1010, nullptr}, {"202", "apartment", 2, 15.0, 1005, nullptr},
        {"301", "apartment", 3, 16.0, 1090, nullptr}, {"302", "apartment", 3, 16.0, 1085, nullptr},
        {"P-1", "parking", -1, 1.5, 160, "101"},     {"P-2", "parking", -1, 1.5, 160, "102"},
        {"P-3", "parking", -1, 1.5, 160, "202"},     {"P-4", "parking", -1, 1.5, 160, "301"},
        {"R-1", "storage", -1, 1.5, 45, "201"},      {"R-2", "storage", -1, 1.5, 45, "302"},
    };
    std::map<std::string, std::string> ids;
    int lot = 6'123'401;
    for (const auto& u : units) {
        json args = {{"number", u.number}, {"type", u.type}, {"floor", u.floor},
                     {"fractionPercent", u.fraction}, {"areaSqFt", u.area_sq_ft},
                     {"cadastralLot", std::to_string(lot++)}};
        if (std::string(u.type) == "apartment") {
            args["bedrooms"] = u.floor == 3 ? 3 : 2;
            args["bathrooms"] = u.floor == 3 ? 2 : 1;
        }
        if (u.linked_to) args["linkedUnits"] = json::array({ids.at(u.linked_to)});
        ids[u.number] = call("create_unit", args)["id"];
    }
    return ids;
}

// The co-owners: one or two a lot, their shares, languages and portal access.
void seed_demo_co_owners(const DemoCall& call, const std::map<std::string, std::string>& ids) {
    struct DemoCoOwner {
        const char* unit;
        const char* first;
        const char* last;
        const char* email;
        const char* phone;
        double fraction;
        bool primary;
        bool resident;
        const char* language;
        bool portal;
    };
    const DemoCoOwner people[] = {
        {"101", "Marie", "Tremblay", "marie.tremblay@example.ca", "+15145550101", 16.0, true, true, "fr", true},
        {"102", "Jean-François", "Gagnon", "jf.gagnon@example.ca", "+15145550102", 8.0, true, true, "fr", true},
        {"102", "Isabelle", "Roy", "isabelle.roy@example.ca", nullptr, 8.0, false, true, "fr", false},
        {"201", "Émilie", "Bélanger", "emilie.belanger@example.ca", "+15145550201", 16.5, true, true, "fr", true},
        {"202", "David", "Thompson", "david.thompson@example.com", "+15145550202", 16.5, true, true, "en", true},
        {"301", "Luc", "Côté", "luc.cote@example.ca", "+15145550301", 8.75, true, true, "fr", false},
        {"301", "Nathalie", "Côté", nullptr, nullptr, 8.75, false, true, "fr", false},
        {"302", "Sophie", "Lavoie", "sophie.lavoie@example.ca", "+14385550302", 17.5, true, false, "fr", true},
    };
    for (const auto& p : people) {
        json args = {{"unitId", ids.at(p.unit)}, {"firstName", p.first}, {"lastName", p.last},
                     {"fractionPercent", p.fraction}, {"isPrimary", p.primary}, {"isResident", p.resident},
                     {"language", p.language}, {"hasPortalAccess", p.portal}};
        if (p.email) args["email"] = p.email;
        if (p.phone) args["phone"] = p.phone;
        call("create_co_owner", args);
    }
}

void seed_demo_meeting(const DemoCall& call, const Clock& clock) {
    // The coming annual general meeting, still a draft: 30 days ahead, so its notice can be sent.
    const auto in_30_days = std::chrono::floor<std::chrono::hours>(clock.now() + std::chrono::hours(24 * 30));
    const json meeting = call("create_meeting",
                              {{"title", "Assemblée générale annuelle " + std::to_string(montreal_local(in_30_days).year)},
                               {"type", "aga"},
                               {"scheduledAt", to_utc_iso(in_30_days)},
                               {"location", "Salle communautaire, 4520 rue Saint-Denis, Montréal"},
                               {"agenda", {"Ouverture de l'assemblée et vérification du quorum",
                                           "Élection du président et du secrétaire d'assemblée",
                                           "Adoption du procès-verbal de la dernière assemblée",
                                           "Présentation des états financiers",
                                           "Adoption du budget et de la contribution au fonds de prévoyance",
                                           "Élection des administrateurs", "Varia", "Levée de l'assemblée"}}});
    call("add_resolution", {{"meetingId", meeting["id"]},
                            {"title", "Adoption du budget de l'exercice à venir"},
                            {"description", "Il est résolu d'adopter le budget présenté par le conseil d'administration, "
                                            "incluant une contribution de 25 000 $ au fonds de prévoyance."},
                            {"majorityRequired", "simple"}});
    call("add_resolution", {{"meetingId", meeting["id"]},
                            {"title", "Réfection de la toiture"},
                            {"description", "Il est résolu d'autoriser les travaux de réfection de la toiture selon la "
                                            "soumission retenue par le conseil d'administration."},
                            {"majorityRequired", "absolute"}});
}

// The registers a board answers to its insurer for: the water heaters, the policies, the
// contractors. Dates count back from today, so the demo always has a water heater overdue, one
// due within 180 days and the others fine.
void seed_demo_registers(const DemoCall& call, const std::map<std::string, std::string>& ids,
                         const std::function<std::string(int)>& days_ago) {
    struct DemoHeater {
        const char* unit;
        const char* brand;
        int litres;
        int made_days_ago;
        bool drain_pan, leak_detector, auto_shutoff;
    };
    const DemoHeater heaters[] = {
        {"101", "Giant", 151, 3725, true, false, false},  // ten years and two months: overdue
        {"102", "GSW", 151, 3560, true, true, false},     // due in about three months
        {"201", "Giant", 182, 2200, true, true, true},     {"202", "Rheem", 151, 1500, true, true, false},
        {"301", "Bradford White", 227, 900, true, true, true}, {"302", "Giant", 182, 400, true, true, true},
    };
    for (const auto& h : heaters)
        call("create_water_heater", {{"unitId", ids.at(h.unit)}, {"brand", h.brand}, {"capacityLitres", h.litres},
                                     {"manufactureDate", days_ago(h.made_days_ago)},
                                     {"installDate", days_ago(h.made_days_ago - 60)}, {"hasDrainPan", h.drain_pan},
                                     {"hasLeakDetector", h.leak_detector}, {"hasAutoShutoff", h.auto_shutoff}});
    call("create_insurance_policy",
         {{"kind", "property"}, {"insurer", "Assurances Mont-Royal"}, {"broker", "Cabinet Laurier, courtiers"},
          {"policyNumber", "CP-4520-2026"}, {"startDate", days_ago(320)}, {"endDate", days_ago(320 - 365)},
          {"premiumCents", 2'845'000}, {"lastAppraisalDate", days_ago(5 * 365 + 200)},
          {"coverages", json::array({json{{"peril", "incendie"}, {"amountCents", 1'450'000'000}, {"deductibleCents", 1'000'000}},
                                     json{{"peril", "dégât d'eau"}, {"amountCents", 1'450'000'000}, {"deductibleCents", 2'500'000}},
                                     json{{"peril", "refoulement d'égout"}, {"amountCents", 50'000'000}, {"deductibleCents", 2'500'000}},
                                     json{{"peril", "tremblement de terre"}, {"amountCents", 1'450'000'000}, {"deductibleCents", 7'250'000}}})}});
    call("create_insurance_policy",
         {{"kind", "civil-liability"}, {"insurer", "Assurances Mont-Royal"}, {"broker", "Cabinet Laurier, courtiers"},
          {"policyNumber", "RC-4520-2026"}, {"startDate", days_ago(320)}, {"endDate", days_ago(320 - 365)},
          {"coverages", json::array({json{{"peril", "responsabilité civile"}, {"amountCents", 1'000'000'000}}})}});
    call("create_insurance_policy",
         {{"kind", "directors-and-officers"}, {"insurer", "Mutuelle des administrateurs du Québec"}, {"policyNumber", "DO-88213"},
          {"startDate", days_ago(200)}, {"endDate", days_ago(200 - 365)},
          {"coverages", json::array({json{{"peril", "responsabilité des administrateurs"}, {"amountCents", 200'000'000}}})}});
    call("create_contractor", {{"name", "Plomberie Bélanger inc."}, {"trade", "plomberie"}, {"contactName", "Marc Bélanger"},
                               {"email", "info@plomberie-belanger.example"}, {"phone", "+15145550150"},
                               {"rbqLicence", "5678-1234-01"}, {"neq", "1171234567"}, {"insuranceExpiry", days_ago(-120)}});
    call("create_contractor", {{"name", "Toitures Gagnon et fils"}, {"trade", "couvreur"}, {"phone", "+14505550160"},
                               {"rbqLicence", "8012-3456-78"}, {"neq", "1169876543"}, {"insuranceExpiry", days_ago(15)}});
    call("create_contractor", {{"name", "Structures Lachance ingénieurs-conseils"}, {"trade", "ingénieur en structure"},
                               {"contactName", "Chantal Côté, ing."}, {"email", "c.cote@structures-lachance.example"},
                               {"neq", "1145678901"}, {"professionalOrder", "Ordre des ingénieurs du Québec, membre 5012345"}});
}

}  // namespace

std::string ensure_demo_syndicate(Database& db, const Clock& clock, const ToolRegistry& registry) {
    WriteTransaction whole(db);  // created entirely or not at all, and by one process at a time
    if (auto existing = find_demo_syndicate(db)) return existing->id;
    const std::string syndicate = create_syndicate(db, clock, demo_syndicate_name, true);
    CallerContext admin{syndicate, "", {"*"}, Role::admin};
    const DemoCall call = [&](const char* tool, const json& args) { return registry.call(tool, args, admin, db, clock); };
    const auto ids = seed_demo_units(call);
    seed_demo_co_owners(call, ids);
    seed_demo_meeting(call, clock);
    const std::function<std::string(int)> days_ago = [&](int days) {
        return montreal_date(clock.now() - std::chrono::hours(24 * days));
    };
    seed_demo_registers(call, ids, days_ago);
    seed_demo_declaration(call, ids, days_ago);
    seed_demo_board(call, days_ago);
    seed_demo_administration(call);
    whole.commit();
    return syndicate;
}

}  // namespace syndic
