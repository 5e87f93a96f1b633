// The minutes of a meeting: the PDF document (header, sitting, agenda, attendance, quorum,
// resolutions with their results and the directors elected, adjournment, signatures: the parts are
// minutes_sections') in French or English, written whole to the data folder's exports. Reads rows
// through the store and wording; knows no JSON shapes and records nothing itself.
#pragma once
#include <string>

#include "modules/meetings/store.hpp"

namespace syndic::meetings {

// Renders the minutes and writes them durably to <data>/exports (removed again if the
// transaction rolls back); returns the document's record, not yet inserted. A draft carries a
// watermark and a banner.
MinutesRecord write_minutes(Database& db, const std::string& syndicate_id, const Meeting& m, bool draft,
                            const std::string& language, Instant now);

}  // namespace syndic::meetings
