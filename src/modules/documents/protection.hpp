// Which documents the register keeps (art. 1070 C.c.Q.; catalogue §4.1): a table of rules, each a
// reason and its condition on the document row `d`, so that what is protected is read in one place
// and tested rule by rule. A protected document can be neither archived nor detached
// (DOCUMENT_PROTECTED). `protected` is computed, never stored: a rule that comes to hold (an
// amendment registered) protects its document from then on. Knows SQL; not JSON.
#pragma once
#include <string>
#include <vector>

namespace syndic::documents {

struct ProtectionRule {
    const char* reason;     // what the register keeps, as a refusal says it: "final minutes"
    std::string condition;  // SQL over the document row `d` (and the tables it names)
};

// The rules, in the catalogue's order: kinds kept once final (not drafts), then documents kept for
// the record they belong to (a registered amendment, a signature of an adopted written resolution).
const std::vector<ProtectionRule>& protection_rules();

// Whether the row `d` is protected: any rule's condition, as one SQL expression.
const std::string& protected_sql();

// The reason of the first rule the row `d` meets, or NULL: an SQL expression.
const std::string& protection_reason_sql();

}  // namespace syndic::documents
