// The outbox: what send_meeting_notice queues, how deliver_mail claims each due message under a
// lease (so two processes never send one twice), retries after 1, 5, 30 and 120 minutes, marks it
// failed with the answer, and writes message.sent / message.failed; and the administration tools
// list_outbox_messages and update_outbox_message. The SMTP exchange itself is tested against a
// real server in tests/delivery/run_mail_tests.py; here the sender is the test's own function.
#include "meetings/meetings_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "delivery/mail_queue.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace outbox_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;
using syndic::TransferResult;

namespace {

const syndic::SmtpSettings smtp{"smtp://127.0.0.1:2525", "", "", "Syndicat <ca@example.org>", false, 30};

struct Sent {
    std::vector<std::string> to, envelope_from, texts;
    TransferResult answer{true, 250, "250 OK", false};
    syndic::MailSender sender() {
        return [this](const std::string& from, const std::string& recipient, const std::string& text) {
            envelope_from.push_back(from);
            to.push_back(recipient);
            texts.push_back(text);
            return answer;
        };
    }
};

json outbox(Fixture& fx, json filters = json::object()) { return fx.call("list_outbox_messages", filters); }

int events_of_type(Fixture& fx, const std::string& type) {
    SQLite::Statement q(fx.db->sql(), "SELECT count(*) FROM events WHERE type = ?");
    q.bind(1, type);
    q.executeStep();
    return q.getColumn(0).getInt();
}

}  // namespace

TEST_SUITE("outbox") {

TEST_CASE("list_outbox_messages shows the notices queued, newest first, filtered") {
    Building fx;
    const auto m = fx.meeting();
    const auto sent = fx.notice(m);
    const auto all = outbox(fx);
    CHECK(all["pagination"]["total"] == sent["queued"]);
    for (const auto& message : all["data"]) {
        CHECK(message["status"] == "queued");
        CHECK(message["relatedType"] == "meeting");
        CHECK(message["relatedId"] == m["id"]);
        CHECK(message["attempts"] == 0);
        CHECK(message["sentAt"].is_null());
    }
    const auto one = all["data"][0];
    CHECK(outbox(fx, {{"coOwnerId", one["coOwnerId"]}})["pagination"]["total"] == 1);
    CHECK(outbox(fx, {{"status", "sent"}})["pagination"]["total"] == 0);
    CHECK(outbox(fx, {{"relatedId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}})["pagination"]["total"] == 0);
    CHECK(outbox(fx, {{"from", "2026-11-22"}})["pagination"]["total"] == 0);
    CHECK(outbox(fx, {{"to", "2026-11-21"}})["pagination"]["total"] == sent["queued"]);
    CHECK(fx.call_as(fx.other_admin, "list_outbox_messages")["pagination"]["total"] == 0);
    CHECK(fx.error("list_outbox_messages", {{"status", "lost"}}).code() == "VALIDATION_FAILED");
}

TEST_CASE("update_outbox_message: queued → sent | failed | cancelled; failed → queued; nothing else") {
    Building fx;
    fx.notice(fx.meeting());
    const auto messages = outbox(fx)["data"];
    const json first = messages[0]["id"], second = messages[1]["id"], third = messages[2]["id"];

    // A reported sending lies between the queuing (10:00) and now, and is marked as reported by hand;
    // only an admin reports it (the evidence of a notice's 21 days).
    fx.clock.advance(std::chrono::hours(1));
    for (const char* when : {"2026-11-21T09:59:00-05:00", "2026-11-21T11:01:00-05:00", "1990-01-01T12:00:00-05:00",
                             "2099-01-01T12:00:00-05:00"}) {
        CAPTURE(when);
        const auto e = fx.error("update_outbox_message", {{"id", first}, {"status", "sent"}, {"sentAt", when}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == "/sentAt");
    }
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "update_outbox_message", (json{{"id", first}, {"status", "sent"}}));
    CHECK(outbox(fx, {{"status", "sent"}})["pagination"]["total"] == 0);
    const auto sent = fx.call("update_outbox_message", {{"id", first}, {"status", "sent"}, {"sentAt", "2026-11-21T10:30:00-05:00"}});
    CHECK(sent["status"] == "sent");
    CHECK(sent["sentAt"] == "2026-11-21T10:30:00-05:00");
    CHECK(sent["reportedByHand"] == true);
    CHECK(events_of_type(fx, "message.sent") == 1);
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_outbox_message", (json{{"id", first}, {"status", "queued"}}));

    const auto failed = fx.call("update_outbox_message", {{"id", second}, {"status", "failed"}, {"error", "boîte pleine"}});
    CHECK(failed["error"] == "boîte pleine");
    CHECK(events_of_type(fx, "message.failed") == 1);
    const auto again = fx.call("update_outbox_message", {{"id", second}, {"status", "queued"}});
    CHECK(again["status"] == "queued");
    CHECK(again["error"] == "boîte pleine");  // the last answer stays readable until the next attempt

    CHECK(fx.call("update_outbox_message", {{"id", third}, {"status", "cancelled"}})["status"] == "cancelled");
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_outbox_message", (json{{"id", third}, {"status", "sent"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_outbox_message", (json{{"id", third}, {"status", "lost"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_outbox_message",
                  (json{{"id", second}, {"status", "sent"}, {"error", "x"}}));
    CHECK_REFUSED(fx, "OUTBOX_MESSAGE_NOT_FOUND", "update_outbox_message",
                  (json{{"id", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}, {"status", "sent"}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "OUTBOX_MESSAGE_NOT_FOUND", "update_outbox_message",
                     (json{{"id", second}, {"status", "sent"}}));
}

TEST_CASE("deliver_mail sends each due message once and marks it sent") {
    Building fx;
    fx.notice(fx.meeting());
    const int queued = outbox(fx)["pagination"]["total"];
    Sent sent;
    const auto run = syndic::deliver_mail(*fx.db, fx.clock, smtp, "worker-a", sent.sender());
    CHECK(run.sent == queued);
    CHECK(static_cast<int>(sent.to.size()) == queued);
    CHECK(outbox(fx, {{"status", "sent"}})["pagination"]["total"] == queued);
    const auto delivered = outbox(fx, {{"status", "sent"}});  // kept: a range-for over a temporary's member dangles
    for (const auto& m : delivered["data"]) CHECK(m["reportedByHand"] == false);  // the server's own delivery
    CHECK(events_of_type(fx, "message.sent") == queued);
    CHECK(syndic::deliver_mail(*fx.db, fx.clock, smtp, "worker-b", sent.sender()).sent == 0);
}

TEST_CASE("a lease held by another worker keeps a message from being sent twice, until it runs out") {
    Building fx;
    fx.notice(fx.meeting());
    fx.db->sql().exec("UPDATE outbox SET lease_owner = 'worker-a', lease_until = '2026-11-21T15:05:00.000Z'");
    Sent sent;
    CHECK(syndic::deliver_mail(*fx.db, fx.clock, smtp, "worker-b", sent.sender()).sent == 0);
    fx.clock.advance(std::chrono::minutes(5));
    CHECK(syndic::deliver_mail(*fx.db, fx.clock, smtp, "worker-b", sent.sender()).sent > 0);
}

TEST_CASE("a failure that may pass is retried after 1, 5, 30, 120 minutes, then failed with the answer") {
    Building fx;
    fx.notice(fx.meeting());
    Sent down;
    down.answer = {false, 0, "Failed to connect to 127.0.0.1 port 2525: Connection refused", false};
    const int queued = outbox(fx)["pagination"]["total"];
    for (int attempt = 1; attempt <= 4; ++attempt) {
        CHECK(syndic::deliver_mail(*fx.db, fx.clock, smtp, "w", down.sender()).retrying == queued);
        const auto m = outbox(fx)["data"][0];
        CHECK(m["status"] == "queued");
        CHECK(m["attempts"] == attempt);
        CHECK(m["error"] == down.answer.answer);
        CHECK(syndic::deliver_mail(*fx.db, fx.clock, smtp, "w", down.sender()).retrying == 0);  // not yet due
        fx.clock.advance(syndic::mail_retry_delay(attempt));
    }
    CHECK(syndic::deliver_mail(*fx.db, fx.clock, smtp, "w", down.sender()).failed == queued);
    CHECK(outbox(fx, {{"status", "failed"}})["pagination"]["total"] == queued);
    CHECK(events_of_type(fx, "message.failed") == queued);
}

TEST_CASE("a refusal for good (5xx) fails the message at once with the server's answer") {
    Building fx;
    fx.notice(fx.meeting());
    Sent refused;
    refused.answer = {false, 550, "550 5.1.1 mailbox unavailable", true};
    const auto run = syndic::deliver_mail(*fx.db, fx.clock, smtp, "w", refused.sender());
    CHECK(run.failed == outbox(fx)["pagination"]["total"]);
    CHECK(outbox(fx)["data"][0]["error"] == "550 5.1.1 mailbox unavailable");
}

TEST_CASE("an attempt that fails before it sends gives its claims back: the next pass sends them at once") {
    Building fx;
    fx.notice(fx.meeting());
    const int queued = outbox(fx)["pagination"]["total"];
    const syndic::MailSender unavailable = [](const std::string&, const std::string&, const std::string&) -> TransferResult {
        throw std::runtime_error("Sending e-mail and webhooks unavailable: syndic-net.so: not found");
    };
    try {
        syndic::deliver_mail(*fx.db, fx.clock, smtp, "worker-a", unavailable);
        FAIL("deliver_mail went on without its sender");
    } catch (const std::runtime_error& e) {
        const std::string why = e.what();
        CHECK(why.find("syndic-net.so: not found") != std::string::npos);
        CHECK(why.find("given back") != std::string::npos);
    }
    SQLite::Statement held(fx.db->sql(), "SELECT count(*) FROM outbox WHERE lease_owner IS NOT NULL");
    held.executeStep();
    CHECK(held.getColumn(0).getInt() == 0);
    Sent sent;  // the same minute: no lease of the failed attempt is left to wait for
    CHECK(syndic::deliver_mail(*fx.db, fx.clock, smtp, "worker-b", sent.sender()).sent == queued);
}

TEST_CASE("without --smtp-from each syndicate's mail leaves from its own mailFrom; one without stays queued") {
    Building fx;
    fx.notice(fx.meeting());
    const int queued = outbox(fx)["pagination"]["total"];
    syndic::SmtpSettings no_fallback = smtp;
    no_fallback.from = "";
    Sent sent;
    const auto run = syndic::deliver_mail(*fx.db, fx.clock, no_fallback, "w", sent.sender());
    CHECK(run.sent == 0);
    CHECK(sent.to.empty());
    REQUIRE(run.without_sender.count(fx.syndicate) == 1);
    CHECK(run.without_sender.at(fx.syndicate) == queued);
    CHECK(outbox(fx, {{"status", "queued"}})["pagination"]["total"] == queued);
    SQLite::Statement held(fx.db->sql(), "SELECT count(*) FROM outbox WHERE lease_owner IS NOT NULL OR attempts > 0");
    held.executeStep();
    CHECK(held.getColumn(0).getInt() == 0);  // not claimed, not counted as an attempt

    fx.call("update_settings", {{"mailFrom", "ca@erables.example"}});
    CHECK(syndic::deliver_mail(*fx.db, fx.clock, no_fallback, "w", sent.sender()).sent == queued);
    for (const auto& from : sent.envelope_from) CHECK(from == "ca@erables.example");
    CHECK(sent.texts.at(0).rfind("From: ca@erables.example\r\n", 0) == 0);

    // With --smtp-from, the syndicate's mailFrom is still the From: header; the envelope is the server's.
    fx.notice(fx.meeting());
    Sent fallback;
    CHECK(syndic::deliver_mail(*fx.db, fx.clock, smtp, "w", fallback.sender()).sent > 0);
    for (const auto& from : fallback.envelope_from) CHECK(from == smtp.from);
}

TEST_CASE("mailbox_header: only a display name is encoded or quoted, never the address") {
    CHECK(syndic::mailbox_header("ca@example.org") == "ca@example.org");
    CHECK(syndic::mailbox_header("Syndicat Les Pins <ca@pins.example>") == "Syndicat Les Pins <ca@pins.example>");
    CHECK(syndic::mailbox_header("Syndicat, Les Pins <ca@pins.example>") == "\"Syndicat, Les Pins\" <ca@pins.example>");
    CHECK(syndic::mailbox_header("\"Les \\\"Pins\" <ca@pins.example>") == "\"Les \\\"Pins\" <ca@pins.example>");
    CHECK(syndic::mailbox_header("Les Érables <ca@erables.example\r\nBcc: x@y.z>") ==
          "=?UTF-8?B?TGVzIMOJcmFibGVz?= <ca@erables.exampleBcc: x@y.z>");
}

TEST_CASE("compose_mail: UTF-8 subject as encoded words, body in base64 lines, CRLF") {
    const auto mail = syndic::compose_mail("Syndicat Les Érables <ca@example.org>", "marie@example.ca",
                                           "Avis de convocation — Assemblée", "Bonjour Marie,\nÀ bientôt.\n", "id-1",
                                           fixed_now());
    CHECK(mail.find("Subject: =?UTF-8?B?") != std::string::npos);
    // The display name alone is encoded; the address stays a mailbox a parser (and DMARC) can read.
    CHECK(mail.rfind("From: =?UTF-8?B?U3luZGljYXQgTGVzIMOJcmFibGVz?= <ca@example.org>\r\n", 0) == 0);
    CHECK(mail.find("To: marie@example.ca\r\n") != std::string::npos);
    CHECK(mail.find("Date: Sat, 21 Nov 2026 15:00:00 +0000\r\n") != std::string::npos);
    CHECK(mail.find("Content-Transfer-Encoding: base64\r\n\r\n") != std::string::npos);
    CHECK(mail.find("\n\n") == std::string::npos);
    // An ASCII title that looks like an encoded word is encoded itself, so it reads as typed.
    const auto lookalike = syndic::compose_mail("ca@example.org", "marie@example.ca", "Avis =?UTF-8?B?w4lsZWN0aW9u?=", "x",
                                                "id-2", fixed_now());
    CHECK(lookalike.find("Subject: Avis =?UTF-8?B?w4lsZWN0aW9u?=\r\n") == std::string::npos);
    CHECK(lookalike.find("Subject: =?UTF-8?B?") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace outbox_test
