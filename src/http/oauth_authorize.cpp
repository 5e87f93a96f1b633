#include "http/oauth_authorize.hpp"

#include <algorithm>

#include "auth/credentials.hpp"
#include "auth/oauth.hpp"
#include "auth/sign_in_throttle.hpp"
#include "auth/users.hpp"
#include "http/oauth_endpoints.hpp"
#include "http/pages.hpp"
#include "storage/database.hpp"

namespace syndic::http {

namespace {

// An authorization request checked: the client and redirect URI first (their errors are shown,
// never sent to an unchecked address), then the rest (their errors go back to the client).
struct AuthorizeRequest {
    oauth::Client client;
    std::string redirect_uri, state, code_challenge, resource;
    std::vector<std::string> scopes;
    Fields echo;  // the parameters, as the forms carry them on
};

struct PageError {
    std::string title, message;
};

// The client and its redirect URI; PageError otherwise.
AuthorizeRequest checked_client(Database& db, Instant now, const Params& p, const std::string& lang) {
    const bool e = lang == "en";
    const auto client = oauth::find_client(db, get(p, "client_id"), now);
    if (!client || client->disabled_at)
        throw PageError{e ? "Unknown application" : "Application inconnue",
                        e ? "The application that sent you here is not registered with this server (client_id)."
                          : "L'application qui vous a envoyé ici n'est pas inscrite auprès de ce serveur (client_id)."};
    std::string redirect_uri = get(p, "redirect_uri");
    if (redirect_uri.empty() && client->redirect_uris.size() == 1) redirect_uri = client->redirect_uris.front();
    if (std::find(client->redirect_uris.begin(), client->redirect_uris.end(), redirect_uri) == client->redirect_uris.end())
        throw PageError{e ? "Wrong return address" : "Adresse de retour invalide",
                        e ? "The return address (redirect_uri) is not one the application registered."
                          : "L'adresse de retour (redirect_uri) n'est pas une de celles que l'application a inscrites."};
    AuthorizeRequest r;
    r.client = *client;
    r.redirect_uri = redirect_uri;
    return r;
}

// The whole request; an error after the client's check is thrown as the redirect URI's address
// (a std::string) carrying it.
AuthorizeRequest check_authorize(const OAuthSettings& s, Database& db, Instant now, const Params& p, const std::string& lang) {
    AuthorizeRequest r = checked_client(db, now, p, lang);
    r.state = get(p, "state");
    const auto fail = [&](const std::string& error, const std::string& description) {
        Fields f = {{"error", error}, {"error_description", description}};
        if (!r.state.empty()) f.emplace_back("state", r.state);
        f.emplace_back("iss", s.base_url);
        return with_query(r.redirect_uri, f);
    };
    if (get(p, "response_type") != "code") throw fail("unsupported_response_type", "response_type must be code.");
    r.code_challenge = get(p, "code_challenge");
    if (r.code_challenge.size() != 43) throw fail("invalid_request", "PKCE is required: a code_challenge of 43 characters (S256).");
    if (get(p, "code_challenge_method") != "S256") throw fail("invalid_request", "code_challenge_method must be S256.");
    r.resource = get(p, "resource").empty() ? s.base_url : get(p, "resource");
    while (r.resource.size() > 1 && r.resource.back() == '/') r.resource.pop_back();
    const auto mcp = s.base_url + "/mcp";
    if (r.resource == mcp) r.resource = s.base_url;  // the MCP endpoint is part of the API
    if (r.resource != s.base_url) throw fail("invalid_target", "resource must be " + s.base_url + ".");
    r.scopes = split_scopes(get(p, "scope"));
    if (r.scopes.empty()) r.scopes = s.scopes;
    for (const auto& scope : r.scopes)
        if (std::find(s.scopes.begin(), s.scopes.end(), scope) == s.scopes.end())
            throw fail("invalid_scope", "Unknown scope " + scope.substr(0, 100) + ".");
    r.echo = authorization_fields(p);
    return r;
}

SignInThrottle& sign_in_throttle() {
    static SignInThrottle throttle;
    return throttle;
}

// The syndicate's name on the consent page; its id when it has none.
std::string shown_syndicate_name(Database& db, const std::string& id) {
    for (const auto& s : list_syndicates(db))
        if (s.id == id) return s.name;
    return id;
}

std::string sign_in_address(const OAuthContext& c) { return c.settings.base.path + "/oauth/signin"; }
std::string authorize_address(const OAuthContext& c) { return c.settings.base.path + "/oauth/authorize"; }

// An authorization request with the person's session, once both are known good.
struct Authorization {
    Params params;
    std::optional<std::pair<User, std::string>> session;  // the user and the session's CSRF token
    std::string lang;
    AuthorizeRequest request;
};

// The request checked and, without a session, the sign-in page sent; nullopt when an answer
// (an error page, a redirect, the sign-in page) is already sent.
std::optional<Authorization> start_authorization(const OAuthContext& c, const Request& req, Response& res, Params params) {
    Authorization a{std::move(params), session_user(c.db, c.clock, cookie(req, session_cookie)), "", {}};
    std::optional<User> user;
    if (a.session) user = a.session->first;
    a.lang = language_of(req, user, a.params);
    const auto& lang = a.lang;
    try {
        a.request = check_authorize(c.settings, c.db, c.clock.now(), a.params, lang);
    } catch (const PageError& e) {
        send_page(res, 400, error_page(lang, e.title, e.message));
        return std::nullopt;
    } catch (const std::string& location) {
        // An application that registered itself could use this server to bounce people to
        // any address (RFC 9700, 4.11.2): its errors are shown here, signed in or not; it
        // is sent to its redirect URI only after a person's click on the consent page.
        if (oauth::find_client(c.db, get(a.params, "client_id"), c.clock.now())->registered_by == "dynamic") {
            const auto error = get(parse_form(location.substr(location.find('?') + 1)), "error_description");
            send_page(res, 400, error_page(lang, lang == "en" ? "Invalid request" : "Demande invalide", error));
            return std::nullopt;
        }
        redirect(res, location);
        return std::nullopt;
    }
    if (!a.session) {
        Fields hidden = a.request.echo;
        hidden.emplace_back("return_to", authorize_address(c));
        send_page(res, 200, sign_in_page(lang, sign_in_address(c), hidden, a.request.client.name, "",
                                         a.request.client.registered_by == "dynamic"));
        return std::nullopt;
    }
    return a;
}

void send_expired_form(Response& res, const std::string& lang, const char* en, const char* fr) {
    send_page(res, 403, error_page(lang, lang == "en" ? "Expired form" : "Formulaire expiré", lang == "en" ? en : fr));
}

}  // namespace

void authorize_get(const OAuthContext& c, const Request& req, Response& res) {
    const auto a = start_authorization(c, req, res, query_of(req));
    if (!a) return;
    const auto& ar = a->request;
    const auto& user = a->session->first;
    ConsentRequest consent{ar.client.name, ar.client.registered_by == "dynamic", csp_source(ar.redirect_uri), ar.scopes,
                           user.name, user.email, shown_syndicate_name(c.db, user.syndicate_id), user.role == Role::admin};
    send_page(res, 200,
              consent_page(a->lang, authorize_address(c), ar.echo, consent,
                           c.settings.base.path + "/oauth/signout?lang=" + a->lang, a->session->second),
              csp_source(ar.redirect_uri));
}

void authorize_post(const OAuthContext& c, const Request& req, Response& res) {
    const auto a = start_authorization(c, req, res, parse_form(req.body));
    if (!a) return;
    const auto& ar = a->request;
    // The decision, from the consent form of this session.
    if (!csrf_token_matches(a->session->second, get(a->params, "csrf_token")))
        return send_expired_form(res, a->lang, "This form is no longer valid; go back to the application and start again.",
                                 "Ce formulaire n'est plus valide ; retournez à l'application et recommencez.");
    Fields answer;
    if (get(a->params, "decision") == "allow") {
        WriteTransaction tx(c.db);
        const auto code = oauth::issue_code(c.db, c.clock, {ar.client.id, a->session->first.id, ar.redirect_uri,
                                                            ar.code_challenge, join_scopes(ar.scopes), ar.resource});
        tx.commit();
        answer.emplace_back("code", code);
    } else {
        answer = {{"error", "access_denied"}, {"error_description", "The user refused."}};
    }
    if (!ar.state.empty()) answer.emplace_back("state", ar.state);
    answer.emplace_back("iss", c.settings.base_url);
    redirect(res, with_query(ar.redirect_uri, answer));
}

void sign_in_endpoint(const OAuthContext& c, const Request& req, Response& res) {
    const auto form = parse_form(req.body);
    const auto lang = language_of(req, std::nullopt, form);
    const auto email = get(form, "email").substr(0, 254);
    if (const int wait = sign_in_throttle().wait(email, req.client, c.clock.now()); wait > 0) {
        res.set_header("Retry-After", std::to_string(wait));
        const auto minutes = std::to_string((wait + 59) / 60);
        send_page(res, 429, error_page(lang, lang == "en" ? "Too many attempts" : "Trop de tentatives",
                                       lang == "en" ? "Too many failed sign-ins: wait " + minutes + " minute(s), then try again."
                                                    : "Trop de connexions échouées : attendez " + minutes +
                                                          " minute(s), puis réessayez."));
        return;
    }
    const auto user = sign_in(c.db, email, get(form, "password"));
    if (user) sign_in_throttle().succeeded(email, req.client, c.clock.now());
    else sign_in_throttle().failed(email, req.client, c.clock.now());
    // Back to the authorization request, with its parameters (never anywhere else).
    const Fields back = authorization_fields(form);
    if (!user) {
        const auto client = oauth::find_client(c.db, get(form, "client_id"), c.clock.now());
        Fields hidden = back;
        hidden.emplace_back("return_to", authorize_address(c));
        send_page(res, 401, sign_in_page(lang, sign_in_address(c), hidden, client ? client->name : "",
                                         lang == "en" ? "Wrong e-mail or password." : "Courriel ou mot de passe incorrect.",
                                         client && client->registered_by == "dynamic"));
        return;
    }
    WriteTransaction tx(c.db);
    const auto session = start_session(c.db, c.clock, user->id);
    tx.commit();
    res.set_header("Set-Cookie", session_cookie_header(c.settings, session.token, false));
    redirect(res, back.empty() ? c.settings.base.path + "/oauth/signout" : with_query(authorize_address(c), back));
}

void sign_out_get(const OAuthContext& c, const Request& req, Response& res) {
    const auto session = session_user(c.db, c.clock, cookie(req, session_cookie));
    const auto lang = language_of(req, session ? std::optional<User>(session->first) : std::nullopt);
    if (!session) return send_page(res, 200, signed_out_page(lang));
    // Signed in: a button, so no link can sign anyone out.
    send_page(res, 200, sign_out_page(lang, c.settings.base.path + "/oauth/signout", session->first.name,
                                      session->first.email, session->second));
}

void sign_out_post(const OAuthContext& c, const Request& req, Response& res) {
    const auto token = cookie(req, session_cookie);
    const auto session = session_user(c.db, c.clock, token);
    const auto lang = language_of(req, session ? std::optional<User>(session->first) : std::nullopt);
    if (!session) return send_page(res, 200, signed_out_page(lang));
    if (!csrf_token_matches(session->second, get(parse_form(req.body), "csrf_token")))
        return send_expired_form(res, lang, "This form is no longer valid; you are still signed in.",
                                 "Ce formulaire n'est plus valide ; vous êtes toujours connecté.");
    WriteTransaction tx(c.db);
    end_session(c.db, c.clock, token);
    tx.commit();
    res.set_header("Set-Cookie", session_cookie_header(c.settings, "", true));
    send_page(res, 200, signed_out_page(lang));
}

}  // namespace syndic::http
