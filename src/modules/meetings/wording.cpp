#include "modules/meetings/wording.hpp"

#include <array>
#include <cstdio>

namespace syndic::wording {

Language language_of(const std::string& code) { return code == "en" ? Language::en : Language::fr; }

namespace {

constexpr std::array<const char*, 12> months_fr = {"janvier", "février", "mars", "avril", "mai", "juin", "juillet",
                                                   "août", "septembre", "octobre", "novembre", "décembre"};
constexpr std::array<const char*, 12> months_en = {"January", "February", "March", "April", "May", "June", "July",
                                                   "August", "September", "October", "November", "December"};

}  // namespace

std::string date_time(Instant t, Language lang) {
    static constexpr std::array<const char*, 7> days_fr = {"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"};
    static constexpr std::array<const char*, 7> days_en = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
    const LocalTime l = montreal_local(t);
    char buffer[128];
    if (lang == Language::fr) {
        std::snprintf(buffer, sizeof buffer, "%s %d%s %s %d à %d h %02d", days_fr[static_cast<std::size_t>(l.weekday)], l.day,
                      l.day == 1 ? "er" : "", months_fr[static_cast<std::size_t>(l.month - 1)], l.year, l.hour, l.minute);
    } else {
        const int hour12 = l.hour % 12 == 0 ? 12 : l.hour % 12;
        std::snprintf(buffer, sizeof buffer, "%s, %s %d, %d at %d:%02d %s", days_en[static_cast<std::size_t>(l.weekday)],
                      months_en[static_cast<std::size_t>(l.month - 1)], l.day, l.year, hour12, l.minute, l.hour < 12 ? "AM" : "PM");
    }
    return buffer;
}

std::string time_of_day(Instant t, Language lang) {
    const LocalTime l = montreal_local(t);
    char buffer[32];
    if (lang == Language::fr) std::snprintf(buffer, sizeof buffer, "%d h %02d", l.hour, l.minute);
    else std::snprintf(buffer, sizeof buffer, "%d:%02d %s", l.hour % 12 == 0 ? 12 : l.hour % 12, l.minute, l.hour < 12 ? "AM" : "PM");
    return buffer;
}

std::string day(const std::string& ymd, Language lang) {
    int year = 0, month = 0, d = 0;
    if (std::sscanf(ymd.c_str(), "%d-%d-%d", &year, &month, &d) != 3 || month < 1 || month > 12) return ymd;
    const auto m = static_cast<std::size_t>(month - 1);
    char buffer[64];
    if (lang == Language::fr) std::snprintf(buffer, sizeof buffer, "%d%s %s %d", d, d == 1 ? "er" : "", months_fr[m], year);
    else std::snprintf(buffer, sizeof buffer, "%s %d, %d", months_en[m], d, year);
    return buffer;
}

std::string percent(Fraction f, Language lang) {
    std::string number = f.to_string();
    if (lang == Language::fr) {
        for (auto& c : number)
            if (c == '.') c = ',';
        return number + " %";
    }
    return number + "%";
}

std::string meeting_type(const std::string& type, Language lang) {
    const bool fr = lang == Language::fr;
    if (type == "aga") return fr ? "Assemblée générale annuelle des copropriétaires" : "Annual general meeting of the co-owners";
    if (type == "aga-special") return fr ? "Assemblée générale extraordinaire des copropriétaires" : "Special general meeting of the co-owners";
    return fr ? "Réunion du conseil d'administration" : "Meeting of the board of directors";
}

std::string attendance(const std::string& a, Language lang) {
    const bool fr = lang == Language::fr;
    if (a == "present") return fr ? "Présence" : "Present";
    if (a == "proxy") return fr ? "Procuration" : "By proxy";
    return fr ? "Absence" : "Absent";
}

std::string office(const std::string& role, Language lang) {
    const bool fr = lang == Language::fr;
    if (role == "president") return fr ? "présidence" : "president";
    if (role == "vice-president") return fr ? "vice-présidence" : "vice-president";
    if (role == "secretary") return fr ? "secrétariat" : "secretary";
    if (role == "treasurer") return fr ? "trésorerie" : "treasurer";
    return fr ? "membre du conseil" : "director";
}

std::string majority(const std::string& m, Language lang) {
    const bool fr = lang == Language::fr;
    if (m == "simple")
        return fr ? "majorité simple (plus de 50 % des voix en présence ou par procuration, abstentions comprises)"
                  : "simple majority (more than 50% of the votes present or by proxy, abstentions included)";
    if (m == "absolute")
        return fr ? "majorité absolue (plus de 75 % des voix en présence ou par procuration, abstentions comprises)"
                  : "absolute majority (more than 75% of the votes present or by proxy, abstentions included)";
    if (m == "double")
        return fr ? "double majorité (les trois quarts des copropriétaires représentant 90 % des voix, art. 1098 C.c.Q.)"
                  : "double majority (three quarters of the co-owners holding 90% of the votes, art. 1098 C.C.Q.)";
    return fr ? "unanimité" : "unanimity";
}

std::string board_majority(const std::string& m, Language lang) {
    const bool fr = lang == Language::fr;
    if (m == "simple")
        return fr ? "majorité simple (plus de la moitié des administrateurs présents pouvant voter, abstentions comprises)"
                  : "simple majority (more than half of the directors present who may vote, abstentions included)";
    if (m == "absolute")
        return fr ? "majorité absolue (plus des trois quarts des administrateurs présents pouvant voter, abstentions comprises)"
                  : "absolute majority (more than three quarters of the directors present who may vote, abstentions included)";
    if (m == "double")
        return fr ? "double majorité (les trois quarts des administrateurs en fonction)"
                  : "double majority (three quarters of the directors in office)";
    return fr ? "unanimité (tous les administrateurs en fonction)" : "unanimity (every director in office)";
}

std::string directors(std::int64_t n, Language lang) {
    const bool fr = lang == Language::fr;
    return std::to_string(n) + (n == 1 ? (fr ? " administrateur" : " director") : (fr ? " administrateurs" : " directors"));
}

std::string outcome(const std::string& o, Language lang) {
    const bool fr = lang == Language::fr;
    if (o == "passed") return fr ? "ADOPTÉE" : "PASSED";
    if (o == "rejected") return fr ? "REJETÉE" : "REJECTED";
    return fr ? "en attente du vote" : "vote pending";
}

}  // namespace syndic::wording
