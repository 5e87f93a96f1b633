#include "modules/meetings/wording.hpp"

#include <array>
#include <cstdio>

namespace syndic::wording {

Language language_of(const std::string& code) { return code == "en" ? Language::en : Language::fr; }

std::string date_time(Instant t, Language lang) {
    static constexpr std::array<const char*, 7> days_fr = {"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"};
    static constexpr std::array<const char*, 7> days_en = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
    static constexpr std::array<const char*, 12> months_fr = {"janvier", "février", "mars", "avril", "mai", "juin", "juillet",
                                                              "août", "septembre", "octobre", "novembre", "décembre"};
    static constexpr std::array<const char*, 12> months_en = {"January", "February", "March", "April", "May", "June", "July",
                                                              "August", "September", "October", "November", "December"};
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
    if (a == "present") return fr ? "présent" : "present";
    if (a == "proxy") return fr ? "représenté par procuration" : "represented by proxy";
    return fr ? "absent" : "absent";
}

std::string majority(const std::string& m, Language lang) {
    const bool fr = lang == Language::fr;
    if (m == "simple")
        return fr ? "majorité simple (plus de 50 % des voix exprimées, abstentions comprises)"
                  : "simple majority (more than 50% of the votes cast, abstentions included)";
    if (m == "absolute")
        return fr ? "majorité absolue (plus de 75 % des voix exprimées, abstentions comprises)"
                  : "absolute majority (more than 75% of the votes cast, abstentions included)";
    if (m == "double")
        return fr ? "double majorité (les trois quarts des copropriétaires représentant 90 % des voix, art. 1098 C.c.Q.)"
                  : "double majority (three quarters of the co-owners holding 90% of the votes, art. 1098 C.C.Q.)";
    return fr ? "unanimité" : "unanimity";
}

std::string outcome(const std::string& o, Language lang) {
    const bool fr = lang == Language::fr;
    if (o == "passed") return fr ? "ADOPTÉE" : "PASSED";
    if (o == "rejected") return fr ? "REJETÉE" : "REJECTED";
    return fr ? "en attente du vote" : "vote pending";
}

}  // namespace syndic::wording
