// The network module (syndic-net.so): libcurl's SMTP and HTTP transfers behind two C entry points
// that src/delivery/net_transfer.cpp loads on first use.
#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <mutex>
#include <string>

#include "delivery/net_transfer.hpp"

namespace {

// Why a POST got no HTTP answer, in words that say nothing of the receiver's address or ports
// (issue 28, point 6): "Connection refused" against a timeout told a syndicate's admin which
// ports were open. Only a TLS failure is named apart, since its fix is the receiver's.
std::string webhook_failure(CURLcode code) {
    switch (code) {
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_SSL_CERTPROBLEM:
        case CURLE_SSL_CIPHER:
        case CURLE_SSL_CACERT_BADFILE:
        case CURLE_SSL_ISSUER_ERROR:
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        case CURLE_SSL_INVALIDCERTSTATUS:
            return "no answer: the receiver's TLS certificate or handshake was not accepted";
        default:  // refused, timed out, reset, closed without an answer, unresolved...
            return "no answer: the receiver could not be reached, or gave no HTTP answer in time";
    }
}

void global_init() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Upload {
    const std::string* text;
    std::size_t at = 0;
};

std::size_t read_upload(char* buffer, std::size_t size, std::size_t count, void* user) {
    auto* up = static_cast<Upload*>(user);
    const std::size_t n = std::min(size * count, up->text->size() - up->at);
    std::memcpy(buffer, up->text->data() + up->at, n);
    up->at += n;
    return n;
}

std::size_t discard(char*, std::size_t size, std::size_t count, void*) { return size * count; }

// The server's replies as libcurl sees them: the first refusal (4xx, 5xx) is the answer kept, not
// the "221 Bye" that follows it; without one, the last reply.
struct Replies {
    std::string last, refusal;
};

int watch_replies(CURL*, curl_infotype type, char* data, std::size_t size, void* user) {
    if (type != CURLINFO_HEADER_IN) return 0;
    auto* replies = static_cast<Replies*>(user);
    std::string line(data, size);
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
    if (line.empty()) return 0;
    replies->last = line;
    if (replies->refusal.empty() && (line[0] == '4' || line[0] == '5')) replies->refusal = line;
    return 0;
}

// The address of "Name <address>", or the text itself.
std::string bare_address(const std::string& text) {
    const auto open = text.rfind('<');
    const auto close = text.rfind('>');
    if (open != std::string::npos && close != std::string::npos && close > open) return text.substr(open + 1, close - open - 1);
    return text;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void syndic_send_mail(const syndic::SmtpSettings* smtp,
                                                                         const std::string* recipient,
                                                                         const std::string* message,
                                                                         syndic::TransferResult* out) {
    global_init();
    CURL* curl = curl_easy_init();
    if (!curl) {
        out->answer = "libcurl could not start a transfer";
        return;
    }
    char error[CURL_ERROR_SIZE] = {0};
    Replies replies;
    Upload upload{message};
    curl_slist* recipients = curl_slist_append(nullptr, ("<" + bare_address(*recipient) + ">").c_str());
    const std::string from = "<" + bare_address(smtp->from) + ">";
    curl_easy_setopt(curl, CURLOPT_URL, smtp->url.c_str());
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from.c_str());
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
    curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message->size()));
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, smtp->timeout_seconds);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, watch_replies);
    curl_easy_setopt(curl, CURLOPT_DEBUGDATA, &replies);
    curl_easy_setopt(curl, CURLOPT_VERBOSE, 1L);  // the replies reach watch_replies only this way
    if (smtp->url.rfind("smtp://", 0) == 0)
        curl_easy_setopt(curl, CURLOPT_USE_SSL, smtp->require_tls ? static_cast<long>(CURLUSESSL_ALL) : static_cast<long>(CURLUSESSL_TRY));
    if (!smtp->user.empty()) {
        curl_easy_setopt(curl, CURLOPT_USERNAME, smtp->user.c_str());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, smtp->password.c_str());
    }
    const CURLcode code = curl_easy_perform(curl);
    long reply = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply);
    out->status = reply;
    out->ok = code == CURLE_OK;
    const auto& r = replies.refusal;
    if (!out->ok && r.size() >= 3 && std::isdigit(static_cast<unsigned char>(r[1])) && std::isdigit(static_cast<unsigned char>(r[2])))
        out->status = reply = (r[0] - '0') * 100 + (r[1] - '0') * 10 + (r[2] - '0');
    out->permanent = !out->ok && reply >= 500 && reply < 600;
    if (out->ok) out->answer = replies.last;
    else if (!replies.refusal.empty()) out->answer = replies.refusal;
    else out->answer = error[0] ? std::string(error) : std::string(curl_easy_strerror(code));
    curl_slist_free_all(recipients);
    curl_easy_cleanup(curl);
}

extern "C" __attribute__((visibility("default"))) void syndic_post(const syndic::HttpPost* request,
                                                                    syndic::TransferResult* out) {
    global_init();
    CURL* curl = curl_easy_init();
    if (!curl) {
        out->answer = "libcurl could not start a transfer";
        return;
    }
    curl_slist* headers = nullptr;
    for (const auto& h : request->headers) headers = curl_slist_append(headers, h.c_str());
    curl_slist* resolve = request->resolve.empty() ? nullptr : curl_slist_append(nullptr, request->resolve.c_str());
    curl_easy_setopt(curl, CURLOPT_URL, request->url.c_str());
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request->body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request->body.size()));
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (resolve) curl_easy_setopt(curl, CURLOPT_RESOLVE, resolve);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, request->timeout_seconds);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, std::min(request->timeout_seconds, 10L));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");  // the checked address is the one connected to
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "syndic-mcp-webhooks/1");
    const CURLcode code = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    out->status = status;
    out->ok = code == CURLE_OK && status >= 200 && status < 300;
    if (code != CURLE_OK) out->answer = webhook_failure(code);
    else out->answer = "HTTP " + std::to_string(status);
    curl_slist_free_all(headers);
    if (resolve) curl_slist_free_all(resolve);
    curl_easy_cleanup(curl);
}
