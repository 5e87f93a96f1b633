// The notice of a meeting: one message per active co-owner with an email, in their language,
// queued in the outbox. Reads and writes rows through the store, words through wording; knows no
// JSON shapes and checks no rule (the notice period is the rules' to check first).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "modules/meetings/notice_package.hpp"
#include "modules/meetings/store.hpp"
#include "modules/meetings/wording.hpp"

namespace syndic::meetings {

// The subject and body one co-owner receives.
std::pair<std::string, std::string> notice_message(const Meeting& m, const std::string& syndicate_name,
                                                   const std::string& first_name, const std::string& last_name,
                                                   wording::Language lang, bool with_agenda,
                                                   const std::vector<std::string>& attached_titles = {});

struct QueuedNotices {
    std::int64_t queued = 0;
    std::vector<Recipient> without_email;  // active co-owners the notice could not reach
};
// Queues the notice of `m` (already marked sent) for every active co-owner of the syndicate (the
// directors in office for a board meeting), with the documents of `package` attached and named.
QueuedNotices queue_notices(Database& db, const std::string& syndicate_id, const Meeting& m, const std::string& channel,
                            bool with_agenda, const NoticePackage& package, Instant now);

// The written notice of a question added to the agenda after the notice (art. 1088 para 2): to
// every active co-owner with an email, in their language, naming the question and the agenda as
// it now stands.
std::pair<std::string, std::string> supplementary_message(const Meeting& m, const std::string& syndicate_name,
                                                          const std::string& first_name, const std::string& last_name,
                                                          wording::Language lang, const std::string& question);
QueuedNotices queue_supplementary_notices(Database& db, const std::string& syndicate_id, const Meeting& m,
                                          const std::string& question, Instant now);

}  // namespace syndic::meetings
