// Messages with files (the minutes sent to the co-owners): compose_mail writes a multipart/mixed
// message, the body first then each file in base64 under its name; deliver_mail reads each attached
// document's file, and fails a message at once when a file is gone (it will not come back).
#include "meetings/meetings_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/ids.hpp"
#include "delivery/mail_queue.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace mail_attachments_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;

namespace {

const syndic::SmtpSettings smtp{"smtp://127.0.0.1:2525", "", "", "Syndicat <ca@example.org>", false, 30};

// The base64 of `bytes` as compose_mail cuts it into lines.
std::string in_lines(const std::string& bytes) {
    const auto encoded = syndic::base64_encode(bytes);
    std::string out;
    for (std::size_t i = 0; i < encoded.size(); i += 76) out += encoded.substr(i, 76) + "\r\n";
    return out;
}

}  // namespace

TEST_SUITE("mail-attachments") {

TEST_CASE("compose_mail with files: multipart/mixed, the body first, each file named and in base64") {
    const std::string pdf = "%PDF-1.7\n" + std::string(300, 'x');
    const auto mail = syndic::compose_mail("ca@example.org", "marie@example.ca", "Procès-verbal", "Bonjour,\nci-joint.\n",
                                           "m-1", fixed_now(),
                                           {{"procès-verbal 2026.pdf", "application/pdf", pdf}, {"plan.png", "image/png", "PNG"}});
    CHECK(mail.find("Content-Type: multipart/mixed; boundary=\"syndic-mcp-m-1\"\r\n") != std::string::npos);
    const auto text = mail.find("--syndic-mcp-m-1\r\nContent-Type: text/plain; charset=UTF-8\r\n");
    const auto first = mail.find("--syndic-mcp-m-1\r\nContent-Type: application/pdf\r\n");
    const auto second = mail.find("--syndic-mcp-m-1\r\nContent-Type: image/png\r\n");
    CHECK(text != std::string::npos);
    CHECK(first > text);
    CHECK(second > first);
    CHECK(mail.find("filename=\"proc__s-verbal 2026.pdf\"; filename*=UTF-8''proc%C3%A8s-verbal%202026.pdf") !=
          std::string::npos);
    CHECK(mail.find("filename=\"plan.png\"\r\n") != std::string::npos);
    CHECK(mail.find(in_lines(pdf)) != std::string::npos);
    CHECK(mail.ends_with("--syndic-mcp-m-1--\r\n"));
    // Without files, the single part of before.
    CHECK(syndic::compose_mail("a@b.c", "d@e.f", "s", "b", "m-2", fixed_now()).find("multipart") == std::string::npos);
}

TEST_CASE("deliver_mail attaches the documents' files; a file gone fails the message at once") {
    Building fx;
    fx.notice(fx.meeting());
    const auto folder = std::filesystem::temp_directory_path() / ("syndic-attach-" + syndic::new_record_id());
    std::filesystem::create_directories(folder);
    const auto file = folder / "pv.pdf";
    std::ofstream(file, std::ios::binary) << "%PDF-1.7 the minutes";
    SQLite::Statement doc(fx.db->sql(),
                          "INSERT INTO documents (id, syndicate_id, kind, draft, language, path, pages, size_bytes, sha256, "
                          "created_at, file_name, mime_type) VALUES ('d1', ?, 'minutes', 0, 'fr', ?, 1, 20, 'x', "
                          "'2026-11-21T15:00:00.000Z', 'Procès-verbal.pdf', 'application/pdf')");
    doc.bind(1, fx.syndicate);
    doc.bind(2, file.string());
    doc.exec();
    fx.db->sql().exec("UPDATE outbox SET attachments = '[\"d1\"]'");

    std::vector<std::string> texts;
    const syndic::MailSender keep = [&](const std::string&, const std::string&, const std::string& text) {
        texts.push_back(text);
        return syndic::TransferResult{true, 250, "250 OK", false};
    };
    // The first message goes with its file; then the file disappears and the others fail for good.
    fx.db->sql().exec("UPDATE outbox SET next_attempt_at = '2030-01-01T00:00:00.000Z' WHERE rowid <> (SELECT min(rowid) FROM outbox)");
    CHECK(syndic::deliver_mail(*fx.db, fx.clock, smtp, "w", keep).sent == 1);
    REQUIRE(texts.size() == 1);
    CHECK(texts[0].find(in_lines("%PDF-1.7 the minutes")) != std::string::npos);
    CHECK(texts[0].find("filename*=UTF-8''Proc%C3%A8s-verbal.pdf") != std::string::npos);

    std::filesystem::remove_all(folder);
    fx.db->sql().exec("UPDATE outbox SET next_attempt_at = NULL");
    const auto run = syndic::deliver_mail(*fx.db, fx.clock, smtp, "w", keep);
    CHECK(run.sent == 0);
    CHECK(run.failed > 0);
    CHECK(texts.size() == 1);
    SQLite::Statement failed(fx.db->sql(), "SELECT error FROM outbox WHERE status = 'failed' LIMIT 1");
    REQUIRE(failed.executeStep());
    CHECK(failed.getColumn(0).getString().find("file of the attached document d1 is missing") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace mail_attachments_test
