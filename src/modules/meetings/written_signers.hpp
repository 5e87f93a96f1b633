// Who signs a written resolution (catalogue §3.2 record_written_resolution; art. 354; issue 28,
// point 4): every person entitled to vote on the day it is put forward, fixed then (meetings
// migration 010): general, every active co-owner not suspended for arrears (art. 1094); board,
// every director in office. A signer who is no longer entitled before the last signature makes it
// lapse. Reads rows; no JSON.
#pragma once
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::meetings {

struct Signer {
    std::string type;  // co-owner | director
    std::string id, name;
};

// Those entitled to sign a resolution of `body` on `day`.
std::vector<Signer> entitled_signers(Database& db, const std::string& syndicate, const std::string& body,
                                     const std::string& day);

// The signer set of written resolution `resolution_id` as fixed, and whether it lapsed on `today`.
struct SignerSet {
    std::vector<Signer> signers;
    std::vector<Signer> left;  // signers no longer entitled on `today`: the resolution lapsed
    bool fixed = false;        // false: recorded before the set was kept (the entitled of `today`)
    bool lapsed() const { return !left.empty(); }
};
SignerSet signer_set(Database& db, const std::string& syndicate, const std::string& resolution_id,
                     const std::string& body, const std::string& today);

// Keeps `signers` as the resolution's set (once: a set already kept stays).
void fix_signers(Database& db, const std::string& syndicate, const std::string& resolution_id,
                 const std::vector<Signer>& signers);

}  // namespace syndic::meetings
