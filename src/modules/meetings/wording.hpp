// What meetings say to people, in French (the default) or English: dates in words in
// America/Montreal time, labels of meeting types, attendance, majorities, outcomes and offices,
// and percentages written the local way. French words for people are nouns that fit anyone
// (« Présence », « présidence »), never an agreed adjective. Knows no storage.
#pragma once
#include <cstdint>
#include <string>

#include "core/clock.hpp"
#include "core/fraction.hpp"

namespace syndic::wording {

enum class Language { fr, en };
Language language_of(const std::string& code);  // "en" or anything else → French

std::string date_time(Instant t, Language lang);  // "mardi 15 décembre 2026 à 19 h 00"
std::string time_of_day(Instant t, Language lang);  // "19 h 05" / "7:05 PM", Montreal's
std::string day(const std::string& ymd, Language lang);  // "2027-01-14": "14 janvier 2027" / "January 14, 2027"
std::string percent(Fraction f, Language lang);    // "16,5 %" / "16.5%"
std::string meeting_type(const std::string& type, Language lang);
std::string attendance(const std::string& attendance, Language lang);  // "Présence", "Procuration", "Absence"
std::string office(const std::string& role, Language lang);             // a director's: "présidence" / "president"
std::string majority(const std::string& majority, Language lang);
// A board meeting's majority, in directors (one vote each).
std::string board_majority(const std::string& majority, Language lang);
// "3 administrateurs" / "1 director".
std::string directors(std::int64_t n, Language lang);
std::string outcome(const std::string& outcome, Language lang);

}  // namespace syndic::wording
