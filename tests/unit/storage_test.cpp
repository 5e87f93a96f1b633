// storage/: the durable writer of generated files (whole under its final name or absent, checked,
// 0600, errors as STORAGE_FULL / STORAGE_UNAVAILABLE), the removal of leftover temporaries, the
// mapping of SQLite errors to refusals, a database that cannot be used refused at open, and files
// removed with the write they were made for.
#include <doctest/doctest.h>

#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "core/ids.hpp"
#include "storage/database.hpp"
#include "storage/durable_file.hpp"
#include "storage/storage_error.hpp"
#include "tools/wire_error.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace storage_test {

using namespace syndic;
namespace fs = std::filesystem;

namespace {

struct TempFolder {
    fs::path path;
    TempFolder() {
        char name[] = "/tmp/syndic-storage-test-XXXXXX";
        path = ::mkdtemp(name);
    }
    ~TempFolder() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::string read(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::size_t entries(const fs::path& folder) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(folder)) ++n;
    return n;
}

const std::string small_pdf = "%PDF-1.5\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";

template <class F>
DomainError refusal_of(F f) {
    try {
        f();
    } catch (const DomainError& e) {
        return e;
    }
    FAIL("expected a DomainError");
    return DomainError("", "");
}

}  // namespace

TEST_CASE("a durable write leaves the whole file under its final name, checked, and no temporary") {
    TempFolder t;
    const auto path = t.path / "exports" / "minutes.pdf";
    const auto written = write_file_durably(path.string(), small_pdf, FileCheck::pdf, "exports/minutes.pdf");
    CHECK(read(path) == small_pdf);
    CHECK(written.size == static_cast<std::int64_t>(small_pdf.size()));
    CHECK(written.sha256 == sha256_hex(small_pdf));
    CHECK(entries(path.parent_path()) == 1);
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);

    SUBCASE("writing again replaces the file whole") {
        write_file_durably(path.string(), small_pdf + "%%EOF\n", FileCheck::pdf, "exports/minutes.pdf");
        CHECK(read(path) == small_pdf + "%%EOF\n");
        CHECK(entries(path.parent_path()) == 1);
    }
}

TEST_CASE("a PDF that is not whole is refused and nothing is left") {
    TempFolder t;
    const auto path = t.path / "cut.pdf";
    const auto e = refusal_of([&] { write_file_durably(path.string(), "%PDF-1.5\n1 0 obj", FileCheck::pdf, "cut.pdf"); });
    CHECK(e.code() == codes::storage_unavailable);
    CHECK(e.detail().find("cut.pdf") != std::string::npos);
    CHECK(e.detail().find("%%EOF") != std::string::npos);
    CHECK(entries(t.path) == 0);
}

TEST_CASE("a folder that cannot be made is STORAGE_UNAVAILABLE naming the file and the cause") {
    TempFolder t;
    std::ofstream(t.path / "a-file") << "x";
    const auto e = refusal_of([&] {
        write_file_durably((t.path / "a-file" / "sub" / "m.pdf").string(), small_pdf, FileCheck::pdf, "sub/m.pdf");
    });
    CHECK(e.code() == codes::storage_unavailable);
    CHECK(e.detail().find("sub/m.pdf") != std::string::npos);
    CHECK(e.detail().find("ENOTDIR") != std::string::npos);
}

TEST_CASE("a write past RLIMIT_FSIZE is STORAGE_FULL (EFBIG) and leaves nothing") {
    TempFolder t;
    const auto before = ::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    rlimit small = old;
    small.rlim_cur = 16;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    const auto e = refusal_of([&] { write_file_durably((t.path / "big.pdf").string(), small_pdf, FileCheck::pdf, "big.pdf"); });
    ::setrlimit(RLIMIT_FSIZE, &old);
    ::signal(SIGXFSZ, before);
    CHECK(e.code() == codes::storage_full);
    CHECK(e.detail().find("EFBIG") != std::string::npos);
    CHECK(entries(t.path) == 0);
}

TEST_CASE("leftover temporaries of dead writers and .part files are removed; others are kept") {
    TempFolder t;
    for (const auto* name : {".syndic-tmp-999999999-00ff-minutes.pdf", "old.pdf.part", "kept.pdf", ".hidden"})
        std::ofstream(t.path / name) << "x";
    const auto live = ".syndic-tmp-" + std::to_string(::getpid()) + "-00ff-minutes.pdf";
    std::ofstream(t.path / live) << "x";
    const auto settled = settle_leftover_temporaries(t.path.string());
    CHECK(settled.removed.size() == 2);
    CHECK(settled.put_in_place.empty());
    CHECK(fs::exists(t.path / "kept.pdf"));
    CHECK(fs::exists(t.path / ".hidden"));
    CHECK(fs::exists(t.path / live));
    CHECK(!fs::exists(t.path / "old.pdf.part"));
    CHECK(settle_leftover_temporaries((t.path / "missing").string()).removed.empty());
}

TEST_CASE("a dead writer's temporary whose row was committed is put under its final name; one without a row is removed") {
    TempFolder t;
    std::ofstream(t.path / ".syndic-tmp-999999999-00ff-minutes-final-fr-1a2b.pdf") << "recorded";
    std::ofstream(t.path / ".syndic-tmp-999999999-0aaa-minutes-final-fr-3c4d.pdf") << "not recorded";
    std::ofstream(t.path / ".syndic-tmp-999999999-0bbb-taken.pdf") << "recorded, but the name is taken";
    std::ofstream(t.path / "taken.pdf") << "already there";
    const auto folder = t.path.filename().string();
    const auto settled = settle_leftover_temporaries(t.path.string(), [&](const std::string& in, const std::string& name) {
        return in == folder && (name == "minutes-final-fr-1a2b.pdf" || name == "taken.pdf");
    });
    CHECK(settled.put_in_place.size() == 1);
    CHECK(settled.removed.size() == 2);
    std::ifstream in(t.path / "minutes-final-fr-1a2b.pdf");
    std::string text;
    std::getline(in, text);
    CHECK(text == "recorded");
    CHECK(!fs::exists(t.path / "minutes-final-fr-3c4d.pdf"));
    std::ifstream taken(t.path / "taken.pdf");
    std::getline(taken, text);
    CHECK(text == "already there");
    CHECK(entries(t.path) == 2);
}

TEST_CASE("errno and SQLite result codes map to refusals, with their HTTP statuses") {
    CHECK(std::string(storage_code_for_errno(ENOSPC)) == codes::storage_full);
    CHECK(std::string(storage_code_for_errno(EDQUOT)) == codes::storage_full);
    CHECK(std::string(storage_code_for_errno(EFBIG)) == codes::storage_full);
    CHECK(std::string(storage_code_for_errno(EROFS)) == codes::storage_unavailable);
    CHECK(std::string(storage_code_for_errno(EACCES)) == codes::storage_unavailable);
    CHECK(std::string(storage_code_for_errno(EIO)) == codes::storage_unavailable);
    CHECK(errno_cause(ENOSPC) == "No space left on device (ENOSPC)");

    const auto code = [](int rc, int sys = 0) { return database_refusal(rc, sys, "syndic.db")->code(); };
    CHECK(code(SQLITE_FULL) == codes::storage_full);
    CHECK(code(SQLITE_IOERR_WRITE, EFBIG) == codes::storage_full);
    CHECK(code(SQLITE_IOERR_WRITE, EIO) == codes::storage_unavailable);
    CHECK(code(SQLITE_READONLY) == codes::storage_unavailable);
    CHECK(code(SQLITE_CANTOPEN, EROFS) == codes::storage_unavailable);
    CHECK(code(SQLITE_NOTADB) == codes::database_unusable);
    CHECK(code(SQLITE_CORRUPT) == codes::database_unusable);
    CHECK(code(SQLITE_BUSY) == codes::server_busy);
    CHECK(!database_refusal(SQLITE_CONSTRAINT_UNIQUE, 0, "syndic.db"));
    CHECK(!database_refusal(SQLITE_ERROR, 0, "syndic.db"));
    const auto e = *database_refusal(SQLITE_IOERR_WRITE, EFBIG, "syndic.db");
    CHECK(e.detail().find("syndic.db") != std::string::npos);
    CHECK(e.detail().find("EFBIG") != std::string::npos);

    CHECK(http_status(codes::storage_full) == 507);
    CHECK(http_status(codes::storage_unavailable) == 503);
    CHECK(http_status(codes::database_unusable) == 503);
}

TEST_CASE("a database that cannot be used is refused at open, naming the file") {
    TempFolder t;
    SUBCASE("not a database") {
        const auto path = (t.path / "notes.db").string();
        std::ofstream(path) << std::string(8192, 'x');
        const auto e = refusal_of([&] { Database::open(path); });
        CHECK(e.code() == codes::database_unusable);
        CHECK(e.detail().find(path) != std::string::npos);
    }
    SUBCASE("its folder cannot be made") {
        std::ofstream(t.path / "a-file") << "x";
        const auto e = refusal_of([&] { Database::open((t.path / "a-file" / "s.db").string()); });
        CHECK(e.code() == codes::storage_unavailable);
    }
}

TEST_CASE("a staged file is under its final name once its write commits, removed if it rolls back") {
    TempFolder t;
    auto db = Database::open((t.path / "s.db").string());
    const auto a = t.path / "a.pdf", b = t.path / "b.pdf";
    const auto stage = [&](const fs::path& path) {
        const auto staged = stage_file_durably(path.string(), small_pdf, FileCheck::pdf, path.filename().string());
        db->publish_on_commit(staged.temporary, staged.final_path);
        return staged;
    };
    {
        WriteTransaction tx(*db);
        const auto staged = stage(a);
        CHECK(fs::exists(staged.temporary));
        CHECK(!fs::exists(a));  // no final name before the row is committed (issue 28, point 7)
        {
            WriteTransaction inner(*db);  // a savepoint that fails alone
            const auto refused = stage(b);
            CHECK(fs::exists(refused.temporary));
        }
        CHECK(!fs::exists(b));
        CHECK(fs::exists(staged.temporary));
    }
    CHECK(!fs::exists(a));
    for (const auto& e : fs::directory_iterator(t.path))  // no temporary left either
        CHECK_MESSAGE(e.path().string().find(".pdf") == std::string::npos, e.path().string());
    {
        WriteTransaction tx(*db);
        const auto staged = stage(a);
        tx.commit();
        CHECK(!fs::exists(staged.temporary));
    }
    { WriteTransaction later(*db); }  // a later rollback does not touch what was committed
    CHECK(fs::exists(a));
}

}  // namespace storage_test
