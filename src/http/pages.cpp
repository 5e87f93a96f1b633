#include "http/pages.hpp"

#include <algorithm>
#include <cctype>

#include "tools/manifests.hpp"

namespace syndic::http {

namespace {

bool en(const std::string& lang) { return lang == "en"; }

const char* style = R"(<style>
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f4f5f7}
body{margin:0;padding:2rem 1rem}
main{max-width:32rem;margin:0 auto;background:#fff;border:1px solid #d9dde3;border-radius:8px;padding:1.5rem 1.75rem}
h1{font-size:1.35rem;margin:0 0 1rem}
p{line-height:1.5}
.app{font-weight:600}
.note{color:#52606d;font-size:.9rem}
.error{background:#fde8e8;border:1px solid #f5b4b4;color:#8a1c1c;padding:.6rem .8rem;border-radius:6px}
ul.scopes{padding-left:1.2rem}
ul.scopes li{margin:.35rem 0}
label{display:block;margin:.8rem 0 .3rem;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #9aa5b1;border-radius:6px;font-size:1rem}
.actions{display:flex;gap:.75rem;margin-top:1.25rem;flex-wrap:wrap}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #9aa5b1;background:#fff;cursor:pointer}
button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
form.inline{display:inline}
footer{max-width:32rem;margin:1rem auto 0;color:#7b8794;font-size:.8rem;text-align:center}
</style>)";

std::string page(const std::string& lang, const std::string& title, const std::string& body) {
    return "<!DOCTYPE html>\n<html lang=\"" + std::string(en(lang) ? "en" : "fr") +
           "\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<meta name=\"referrer\" content=\"same-origin\">\n<title>" +
           html_escape(title) + " · syndic-mcp</title>\n" + style + "\n</head>\n<body>\n<main>\n" + body +
           "</main>\n<footer>syndic-mcp · " + (en(lang) ? "co-ownership syndicate registers" : "registres du syndicat de copropriété") +
           "</footer>\n</body>\n</html>\n";
}

std::string hidden_inputs(const FormFields& fields) {
    std::string out;
    for (const auto& [name, value] : fields)
        out += "<input type=\"hidden\" name=\"" + html_escape(name) + "\" value=\"" + html_escape(value) + "\">\n";
    return out;
}

}  // namespace

std::string html_escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string page_language(const std::string& accept_language) {
    std::string lower = accept_language;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    std::size_t start = 0;
    while (start < lower.size()) {
        const auto end = std::min(lower.find(',', start), lower.size());
        auto range = lower.substr(start, end - start);
        range = range.substr(0, range.find(';'));
        range.erase(0, range.find_first_not_of(' '));
        if (range.rfind("fr", 0) == 0) return "fr";
        if (range.rfind("en", 0) == 0) return "en";
        start = end + 1;
    }
    return "fr";
}

// The texts of the scope's manifest (schemas/<module>/module.json, "scopes"); the scope's own name
// when none gives them (the registry refuses to start with a tool whose scope has none).
std::string scope_description(const std::string& lang, const std::string& scope) {
    const auto* texts = find_scope_text(scope);
    if (!texts) return scope;
    return en(lang) ? texts->en : texts->fr;
}

std::string sign_in_page(const std::string& lang, const std::string& action, const FormFields& hidden,
                         const std::string& app_name, const std::string& error_message, bool registered_dynamically) {
    const bool e = en(lang);
    std::string body = "<h1>" + std::string(e ? "Sign in" : "Connexion") + "</h1>\n";
    if (!app_name.empty())
        body += "<p><span class=\"app\">" + html_escape(app_name) + "</span> " +
                (e ? "asks for access to your syndicate's registers. Sign in to decide."
                   : "demande l'accès aux registres de votre syndicat. Connectez-vous pour décider.") +
                "</p>\n";
    if (!app_name.empty() && registered_dynamically)
        body += "<p class=\"note\">" +
                std::string(e ? "This application registered itself; its name is the one it gave."
                              : "Cette application s'est inscrite elle-même ; son nom est celui qu'elle a donné.") +
                "</p>\n";
    if (!error_message.empty()) body += "<p class=\"error\" role=\"alert\">" + html_escape(error_message) + "</p>\n";
    body += "<form method=\"post\" action=\"" + html_escape(action) + "\">\n" + hidden_inputs(hidden) +
            "<label for=\"email\">" + (e ? "E-mail" : "Courriel") +
            "</label>\n<input type=\"email\" id=\"email\" name=\"email\" autocomplete=\"username\" required autofocus>\n"
            "<label for=\"password\">" + (e ? "Password" : "Mot de passe") +
            "</label>\n<input type=\"password\" id=\"password\" name=\"password\" autocomplete=\"current-password\" required>\n"
            "<div class=\"actions\"><button class=\"primary\" type=\"submit\">" + (e ? "Sign in" : "Se connecter") +
            "</button></div>\n</form>\n";
    return page(lang, e ? "Sign in" : "Connexion", body);
}

std::string consent_page(const std::string& lang, const std::string& action, const FormFields& hidden,
                         const ConsentRequest& r, const std::string& sign_out_action, const std::string& csrf) {
    const bool e = en(lang);
    std::string body = "<h1>" + std::string(e ? "Allow access?" : "Autoriser l'accès ?") + "</h1>\n";
    body += "<p><span class=\"app\">" + html_escape(r.app_name) + "</span> " +
            (e ? "asks to act for you on the registers of " : "demande à agir en votre nom sur les registres de ") + "<strong>" +
            html_escape(r.syndicate_name) + "</strong>.</p>\n";
    if (r.registered_dynamically)
        body += "<p class=\"note\">" +
                std::string(e ? "This application registered itself; its name is the one it gave. Allow it only if you started this connection."
                              : "Cette application s'est inscrite elle-même ; son nom est celui qu'elle a donné. N'autorisez que si vous avez lancé cette connexion.") +
                "</p>\n";
    body += "<p>" + std::string(e ? "It will be able to:" : "Elle pourra :") + "</p>\n<ul class=\"scopes\">\n";
    for (const auto& scope : r.scopes)
        body += "<li>" + html_escape(scope_description(lang, scope)) + " <span class=\"note\">(" + html_escape(scope) + ")</span></li>\n";
    body += "</ul>\n";
    if (!r.user_is_admin)
        body += "<p class=\"note\">" +
                std::string(e ? "Within your role: what only an administrator may do (such as archiving a co-owner) stays refused."
                              : "Dans les limites de votre rôle : ce que seul un administrateur peut faire (comme archiver un copropriétaire) reste refusé.") +
                "</p>\n";
    body += "<p class=\"note\">" +
            std::string(e ? "Access lasts 15 minutes at a time and the application may renew it without asking you for up to 30 days; "
                            "an administrator of the syndicate can withdraw it at any moment."
                          : "L'accès dure 15 minutes à la fois et l'application peut le renouveler sans vous le redemander pendant 30 jours ; "
                            "un administrateur du syndicat peut le retirer en tout temps.") +
            "</p>\n";
    body += "<p class=\"note\">" + std::string(e ? "The answer goes to " : "La réponse sera envoyée à ") + "<strong>" +
            html_escape(r.redirect_host) + "</strong>. " +
            (e ? "Signed in as " : "Connecté en tant que ") + html_escape(r.user_name) + " (" + html_escape(r.user_email) + ").</p>\n";
    body += "<form method=\"post\" action=\"" + html_escape(action) + "\">\n" + hidden_inputs(hidden) +
            "<input type=\"hidden\" name=\"csrf_token\" value=\"" + html_escape(csrf) + "\">\n"
            "<div class=\"actions\"><button class=\"primary\" type=\"submit\" name=\"decision\" value=\"allow\">" +
            (e ? "Allow" : "Autoriser") + "</button>\n<button type=\"submit\" name=\"decision\" value=\"deny\">" + (e ? "Deny" : "Refuser") +
            "</button></div>\n</form>\n";
    body += "<form class=\"inline\" method=\"post\" action=\"" + html_escape(sign_out_action) + "\">\n" +
            "<input type=\"hidden\" name=\"csrf_token\" value=\"" + html_escape(csrf) + "\">\n<p class=\"note\"><button type=\"submit\">" +
            (e ? "Sign out" : "Se déconnecter") + "</button></p>\n</form>\n";
    return page(lang, e ? "Allow access?" : "Autoriser l'accès ?", body);
}

std::string error_page(const std::string& lang, const std::string& title, const std::string& message) {
    return page(lang, title, "<h1>" + html_escape(title) + "</h1>\n<p class=\"error\" role=\"alert\">" + html_escape(message) + "</p>\n");
}

std::string signed_out_page(const std::string& lang) {
    const bool e = en(lang);
    return page(lang, e ? "Signed out" : "Déconnecté",
                std::string("<h1>") + (e ? "Signed out" : "Déconnecté") + "</h1>\n<p>" +
                    (e ? "You are signed out. You may close this page." : "Vous êtes déconnecté. Vous pouvez fermer cette page.") + "</p>\n");
}

std::string sign_out_page(const std::string& lang, const std::string& action, const std::string& name, const std::string& email,
                          const std::string& csrf) {
    const bool e = en(lang);
    return page(lang, e ? "Signed in" : "Connecté",
                std::string("<h1>") + (e ? "Signed in" : "Connecté") + "</h1>\n<p>" + (e ? "Signed in as " : "Connecté en tant que ") +
                    html_escape(name) + " (" + html_escape(email) + ").</p>\n<form method=\"post\" action=\"" + html_escape(action) +
                    "\">\n<input type=\"hidden\" name=\"csrf_token\" value=\"" + html_escape(csrf) +
                    "\">\n<div class=\"actions\"><button class=\"primary\" type=\"submit\">" + (e ? "Sign out" : "Se déconnecter") +
                    "</button></div>\n</form>\n");
}

}  // namespace syndic::http
