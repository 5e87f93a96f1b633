// The documents the notice of an annual meeting carries (art. 1087): the financial statements
// (balance sheet, income statement, statement of debts and claims), the budget forecast, any draft
// amendment of the declaration and a note on any proposed contract or work. They are the
// documents attached to the meeting (documents module) of the item's kinds; only those visible to
// the co-owners leave with the notice. A reconvened meeting (art. 1089) continues the one adjourned:
// documents attached to that one count as its own. Reads rows; knows no JSON shapes or tool calls.
#pragma once
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::meetings {

// One item of art. 1087, the document kinds that make it up, and whether every annual notice
// needs it (the statements and the budget) or only when there is one to send (amendments and
// contracts or works proposed).
struct PackageItem {
    const char* key;
    std::vector<const char*> kinds;
    bool always;
};
const std::vector<PackageItem>& package_items();

struct PackageDocument {
    std::string document_id, title, item;
};
struct NoticePackage {
    std::vector<PackageDocument> sent;      // attached to every co-owner's notice
    std::vector<PackageDocument> withheld;  // of a package kind but visible to the board only
    std::vector<std::string> missing;       // items every annual notice needs, with nothing to send
};

// The ids of the documents sent, as a JSON array: the meeting's `package` and each notice's attachments.
std::string sent_ids_json(const NoticePackage& package);

// The package of meeting `meeting_id` as its documents stand now.
NoticePackage notice_package(Database& db, const std::string& syndicate_id, const std::string& meeting_id);

// The annual meetings (aga) not yet called, to be held after the day `after`: where a closed
// year's statements and the next budget go (accounting's close_fiscal_year asks).
std::vector<std::string> annual_meetings_to_call(Database& db, const std::string& syndicate_id, const std::string& after);

}  // namespace syndic::meetings
