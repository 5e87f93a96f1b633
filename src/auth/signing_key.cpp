#include "auth/signing_key.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "auth/openssl_handles.hpp"
#include "core/base64url.hpp"
#include "core/ids.hpp"
#include "storage/file_modes.hpp"

namespace syndic {
namespace {

using openssl::Bio;
using openssl::Bn;
using openssl::Pkey;

constexpr const char* kid_label = "kid ";

[[noreturn]] void key_crypto_failed(const std::string& what) {
    throw std::runtime_error(what + " failed (OpenSSL)");
}

// A P-256 coordinate of a key, as the JWK writes it (32 bytes, base64url).
std::string coordinate(EVP_PKEY* key, const char* name) {
    BIGNUM* raw = nullptr;
    if (EVP_PKEY_get_bn_param(key, name, &raw) != 1) key_crypto_failed("reading a P-256 coordinate");
    Bn bn(raw);
    unsigned char bytes[32];
    if (BN_bn2binpad(bn.get(), bytes, sizeof bytes) != 32) key_crypto_failed("writing a P-256 coordinate");
    return base64url_encode({reinterpret_cast<const char*>(bytes), sizeof bytes});
}

std::string public_jwk(EVP_PKEY* key, const std::string& kid) {
    const nlohmann::json jwk = {{"kty", "EC"},  {"crv", "P-256"}, {"x", coordinate(key, OSSL_PKEY_PARAM_EC_PUB_X)},
                                {"y", coordinate(key, OSSL_PKEY_PARAM_EC_PUB_Y)},
                                {"alg", "ES256"}, {"use", "sig"}, {"kid", kid}};
    return jwk.dump();
}

// The temporary table that holds an in-memory database's key: its connection's alone.
void ensure_memory_store(Database& db) {
    db.sql().exec("CREATE TEMP TABLE IF NOT EXISTS signing_key_secret (kid TEXT NOT NULL, private_pem TEXT NOT NULL)");
}

}  // namespace

SigningKeyPair make_signing_key_pair() {
    Pkey key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
    if (!key) key_crypto_failed("making a P-256 key");
    Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PKCS8PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
        key_crypto_failed("writing a private key");
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    SigningKeyPair made{new_uuid(), std::string(data, size > 0 ? static_cast<std::size_t>(size) : 0), ""};
    made.public_jwk = public_jwk(key.get(), made.kid);
    return made;
}

SigningKeyPair signing_key_pair_of(const std::string& kid, const std::string& private_pem) {
    Bio bio(BIO_new_mem_buf(private_pem.data(), static_cast<int>(private_pem.size())));
    Pkey key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    if (!key || EVP_PKEY_get_base_id(key.get()) != EVP_PKEY_EC || EVP_PKEY_get_bits(key.get()) != 256)
        throw std::runtime_error("the signing key " + kid + " is not a P-256 private key");
    return {kid, private_pem, public_jwk(key.get(), kid)};
}

std::string signing_key_path(const Database& db) {
    return db.path() == ":memory:" ? std::string() : db.path() + ".signing-key";
}

std::optional<SigningKeyPair> read_signing_key(Database& db) {
    const auto path = signing_key_path(db);
    if (path.empty()) {
        ensure_memory_store(db);
        SQLite::Statement q(db.sql(), "SELECT kid, private_pem FROM temp.signing_key_secret");
        if (!q.executeStep()) return std::nullopt;
        return signing_key_pair_of(q.getColumn(0).getString(), q.getColumn(1).getString());
    }
    // The open's own errno says whether the file is absent: asking afterwards would race with
    // another process that renames its new key into place in between.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return std::nullopt;
        throw std::runtime_error("cannot read the signing key file " + path + ": " + std::strerror(errno));
    }
    std::string content;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int why = errno;
            ::close(fd);
            throw std::runtime_error("cannot read the signing key file " + path + ": " + std::strerror(why));
        }
        if (n == 0) break;
        content.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    std::istringstream in(content);
    std::string first;
    std::getline(in, first);
    std::stringstream rest;
    rest << in.rdbuf();
    if (first.rfind(kid_label, 0) != 0 || first.size() <= std::string(kid_label).size())
        throw std::runtime_error("the signing key file " + path + " does not start with \"kid <id>\"; remove it to have a new key made");
    return signing_key_pair_of(first.substr(std::string(kid_label).size()), rest.str());
}

void keep_signing_key(Database& db, const SigningKeyPair& key) {
    const auto path = signing_key_path(db);
    if (path.empty()) {
        ensure_memory_store(db);
        db.sql().exec("DELETE FROM temp.signing_key_secret");
        SQLite::Statement q(db.sql(), "INSERT INTO temp.signing_key_secret (kid, private_pem) VALUES (?, ?)");
        q.bind(1, key.kid);
        q.bind(2, key.private_pem);
        q.exec();
        return;
    }
    write_private_file(path, kid_label + key.kid + "\n" + key.private_pem);
}

}  // namespace syndic
