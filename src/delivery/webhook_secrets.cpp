#include "delivery/webhook_secrets.hpp"

#include <SQLiteCpp/Statement.h>
#include <fcntl.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "storage/database.hpp"

namespace syndic {
namespace {

constexpr std::size_t key_bytes = 32;

std::string hex(const unsigned char* bytes, std::size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < n; ++i) {
        out += digits[bytes[i] >> 4];
        out += digits[bytes[i] & 15];
    }
    return out;
}

std::string new_key_hex() {
    std::array<unsigned char, key_bytes> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) throw std::runtime_error("no random bytes for the webhook key");
    return hex(bytes.data(), bytes.size());
}

bool valid_key(const std::string& text) {
    if (text.size() != 2 * key_bytes) return false;
    for (char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

std::string read_key_file(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// The key file's content, creating it if missing: written whole under a temporary name, then
// linked to its name, which fails if another process linked its own first (then that one is read).
std::string file_key(const std::string& path) {
    if (::access(path.c_str(), F_OK) != 0) {
        const auto key = new_key_hex();
        const auto temporary = path + ".tmp-" + std::to_string(::getpid());
        const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) throw std::runtime_error("cannot write the webhook key " + temporary + ": " + std::strerror(errno));
        const std::string line = key + "\n";
        const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) && ::fsync(fd) == 0;
        ::close(fd);
        if (!written) {
            ::unlink(temporary.c_str());
            throw std::runtime_error("cannot write the webhook key " + temporary);
        }
        ::link(temporary.c_str(), path.c_str());  // EEXIST: another process made it first
        ::unlink(temporary.c_str());
    }
    const auto key = read_key_file(path);
    if (!valid_key(key))
        throw std::runtime_error("the webhook key file " + path + " does not hold 64 hexadecimal digits; restore it from "
                                 "where it was kept (every webhook secret comes from it)");
    return key;
}

std::string memory_key(Database& db) {
    db.sql().exec("CREATE TEMP TABLE IF NOT EXISTS webhook_key (key TEXT NOT NULL)");
    SQLite::Statement q(db.sql(), "SELECT key FROM temp.webhook_key");
    if (q.executeStep()) return q.getColumn(0).getString();
    const auto key = new_key_hex();
    SQLite::Statement insert(db.sql(), "INSERT INTO temp.webhook_key (key) VALUES (?)");
    insert.bind(1, key);
    insert.exec();
    return key;
}

std::string hmac_sha256(std::string_view key, std::string_view text) {
    unsigned char digest[32];
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(text.data()),
         text.size(), digest, &length);
    return std::string(reinterpret_cast<const char*>(digest), length);
}

// Bytes as a base62 number (0-9, A-Z, a-z), most significant digit first.
std::string base62(std::string_view bytes) {
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    std::vector<unsigned> number(bytes.begin(), bytes.end());
    for (auto& d : number) d &= 0xFF;
    std::string out;
    while (!number.empty()) {
        unsigned remainder = 0;
        std::vector<unsigned> quotient;
        for (unsigned d : number) {
            const unsigned value = remainder * 256 + d;
            if (!quotient.empty() || value / 62) quotient.push_back(value / 62);
            remainder = value % 62;
        }
        out.insert(out.begin(), digits[remainder]);
        number = std::move(quotient);
    }
    return out;
}

}  // namespace

std::string webhook_key_path(const Database& db) { return db.path() == ":memory:" ? std::string() : db.path() + ".webhook-key"; }

std::string webhook_secret(Database& db, const std::string& webhook_id, std::int64_t generation) {
    const auto path = webhook_key_path(db);
    const auto key = path.empty() ? memory_key(db) : file_key(path);
    return "whsec_" + base62(hmac_sha256(key, webhook_id + ":" + std::to_string(generation)));
}

std::string webhook_signature(const std::string& secret, std::int64_t unix_time, std::string_view body) {
    const auto mac = hmac_sha256(secret, std::to_string(unix_time) + "." + std::string(body));
    return hex(reinterpret_cast<const unsigned char*>(mac.data()), mac.size());
}

}  // namespace syndic
