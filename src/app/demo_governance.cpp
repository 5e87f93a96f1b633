#include "app/demo_governance.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace syndic {

using nlohmann::json;

void seed_demo_declaration(const DemoCall& call, const std::map<std::string, std::string>& units,
                           const std::function<std::string(int)>& days_ago) {
    const auto registered = days_ago(6 * 365 + 40);
    call("update_declaration",
         {{"registrationNumber", "21 456 789"},
          {"registeredOn", registered},
          {"notary", "Me Isabelle Fortin, notaire"},
          {"immovableName", "Le Jardin Saint-Denis"},
          {"address", "4520 rue Saint-Denis, Montréal (Québec) H2J 2L3"},
          {"commonCadastralLots", {"6 123 400"}},
          {"destination", "residential"},
          {"storeysAboveGround", 3},
          {"fiscalYearStart", "01-01"},
          {"arrearsInterestRatePercent", 5},
          {"penaltiesAllowed", true},
          {"boardSize", {{"min", 3}, {"max", 3}}},
          {"directorTermYears", 2},
          {"directorsMustBeCoOwners", true},
          {"vacancyFilledByBoard", true}});

    struct DemoBylaw {
        const char *article, *title, *category, *text;
    };
    const DemoBylaw bylaws[] = {
        {"4.1", "Animaux", "pets",
         "Un seul animal domestique est permis par partie privative. Dans les parties communes, les chiens sont tenus "
         "en laisse et leurs besoins ramassés."},
        {"5.2", "Bruit", "noise",
         "Aucun bruit excessif n'est permis entre 22 h et 7 h, ni aucun bruit de travaux les dimanches et jours fériés."},
        {"7.1", "Stationnement", "parking",
         "Chaque espace de stationnement est réservé au copropriétaire de la partie privative qui y est rattachée. Aucun "
         "véhicule ne peut stationner dans les allées du garage ni devant sa porte."},
        {"8.3", "Rénovations", "renovation",
         "Tout travail touchant la plomberie, l'électricité ou l'insonorisation d'une partie privative est annoncé au "
         "conseil d'administration au moins 15 jours à l'avance, avec le nom de l'entrepreneur et sa licence RBQ."},
    };
    for (const auto& b : bylaws)
        call("set_bylaw", {{"article", b.article}, {"title", b.title}, {"category", b.category}, {"text", b.text},
                           {"depositedOn", registered}, {"initial", true}});

    call("set_common_portion", {{"name", "Hall d'entrée, corridors et toiture"}, {"kind", "general"}, {"initial", true},
                                {"description", "Les parties communes à l'usage de tous (art. 1043 C.c.Q.)."}});
    call("set_common_portion",
         {{"name", "Garage intérieur : allées et porte"},
          {"kind", "restricted"},
          {"initial", true},
          {"majorCostsTo", "all"},
          {"unitIds", {units.at("P-1"), units.at("P-2"), units.at("P-3"), units.at("P-4")}},
          {"description", "Partie commune à usage restreint des espaces de stationnement P-1 à P-4 : leur entretien "
                          "courant est à la charge de leurs copropriétaires (art. 1064 C.c.Q.)."}});
}

void seed_demo_administration(const DemoCall& call) {
    // A receiver on this machine that nothing runs yet: kept paused, so the demo posts nothing
    // until someone starts a receiver and resumes it (update_webhook active: true).
    const auto made = call("create_webhook", {{"url", "http://127.0.0.1:8787/syndic-hooks"},
                                              {"events", {"co-owners.*", "meetings.*"}},
                                              {"description", "Récepteur de démonstration sur ce poste (en pause)"}});
    call("update_webhook", {{"id", made["webhook"]["id"]}, {"active", false}});
}

void seed_demo_board(const DemoCall& call, const std::function<std::string(int)>& days_ago) {
    const auto owners = call("list_co_owners", {{"pageSize", 200}})["data"];
    const auto named = [&](const char* first) {
        for (const auto& c : owners)
            if (c["firstName"] == first) return c["id"].get<std::string>();
        throw std::logic_error(std::string("demo co-owner ") + first + " missing");
    };
    // Last year's election, signed by every co-owner (art. 354) rather than at a meeting.
    json signatures = json::array();
    for (const auto& c : owners) signatures.push_back({{"signerId", c["id"]}, {"signedOn", days_ago(330)}});
    const auto election = call("record_written_resolution",
                               {{"body", "general"},
                                {"title", "Élection du conseil d'administration"},
                                {"majorityRequired", "simple"},
                                {"text", "Les copropriétaires élisent Marie Tremblay, David Thompson et Sophie Lavoie "
                                         "administrateurs pour un mandat de deux ans."},
                                {"signatures", signatures}});
    struct Officer {
        const char *first, *role;
    };
    json directors = json::array();
    for (const auto& o : {Officer{"Marie", "president"}, Officer{"David", "secretary"}, Officer{"Sophie", "treasurer"}})
        directors.push_back(call("appoint_director", {{"coOwnerId", named(o.first)}, {"role", o.role}, {"appointedBy", "meeting"},
                                                      {"resolutionId", election["id"]}, {"termStart", days_ago(330)},
                                                      {"termEnd", days_ago(330 - 730)}})["id"]);
    json board_signatures = json::array();
    for (const auto& d : directors) board_signatures.push_back({{"signerId", d}, {"signedOn", days_ago(320)}});
    const auto hiring = call("record_written_resolution",
                             {{"body", "board"},
                              {"title", "Mandat de gestion"},
                              {"majorityRequired", "simple"},
                              {"text", "Le conseil confie l'administration courante du syndicat à Gestion Riverin inc. "
                                       "(art. 1085 C.c.Q.), pour 850 $ par mois."},
                              {"signatures", board_signatures}});
    call("set_management_mandate", {{"managerName", "Julie Riverin"}, {"firm", "Gestion Riverin inc."},
                                    {"email", "julie@gestion-riverin.example"}, {"startOn", days_ago(310)},
                                    {"feeCentsPerMonth", 85'000},
                                    {"delegatedPowers", {"perception des contributions", "entretien courant", "registre"}},
                                    {"resolutionId", hiring["id"]}});
    // The messages those resolutions queued went out then: sent, but one address bounced.
    const auto queued = call("list_outbox_messages", {{"status", "queued"}, {"pageSize", 200}});
    for (const auto& m : queued["data"]) {
        if (m["recipient"] == "isabelle.roy@example.ca")
            call("update_outbox_message", {{"id", m["id"]}, {"status", "failed"}, {"error", "550 5.1.1 mailbox unavailable"}});
        else
            call("update_outbox_message", {{"id", m["id"]}, {"status", "sent"}});
    }
}

}  // namespace syndic
