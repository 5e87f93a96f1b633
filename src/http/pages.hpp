// The pages a person sees while an application asks for access (docs/oauth.md): sign-in,
// consent and error pages, server-rendered HTML and CSS without JavaScript, in French or English.
// Every value is escaped here. Knows wording and markup, not sessions, clients or tokens.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace syndic::http {

using FormFields = std::vector<std::pair<std::string, std::string>>;  // hidden inputs, in order

std::string html_escape(const std::string& text);
// "fr" or "en": the first of the Accept-Language ranges that is one of them; "fr" otherwise.
std::string page_language(const std::string& accept_language);

std::string sign_in_page(const std::string& lang, const std::string& action, const FormFields& hidden,
                         const std::string& app_name, const std::string& error_message, bool registered_dynamically = false);

struct ConsentRequest {
    std::string app_name;
    bool registered_dynamically = false;
    std::string redirect_host;          // where the answer goes (scheme and host): shown so a person can judge
    std::vector<std::string> scopes;    // asked for
    std::string user_name, user_email, syndicate_name;
    bool user_is_admin = false;
};
std::string consent_page(const std::string& lang, const std::string& action, const FormFields& hidden,
                         const ConsentRequest& request, const std::string& sign_out_action, const std::string& csrf);

std::string error_page(const std::string& lang, const std::string& title, const std::string& message);
std::string signed_out_page(const std::string& lang);
// Signed in (after a sign-in without an application waiting, or a visit to the sign-out
// address): who, and a button to sign out.
std::string sign_out_page(const std::string& lang, const std::string& action, const std::string& name, const std::string& email,
                          const std::string& csrf);

// What a scope lets an application do, in the page's language.
std::string scope_description(const std::string& lang, const std::string& scope);

}  // namespace syndic::http
