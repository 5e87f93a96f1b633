// The private half of the access-token signing key (ES256, P-256): kept out of the database, in a
// file beside it (<database>.signing-key, mode 0600), so a backup or a copy of the database cannot
// sign tokens; an in-memory database keeps it in its connection's temporary schema. Makes key
// pairs and their public JWK. Knows files and OpenSSL, not the tokens' claims or the tables.
#pragma once
#include <optional>
#include <string>

#include "storage/database.hpp"

namespace syndic {

struct SigningKeyPair {
    std::string kid;
    std::string private_pem;  // PKCS#8 PEM
    std::string public_jwk;   // {"kty":"EC","crv":"P-256","x","y","alg":"ES256","use":"sig","kid"}, as text
};

// A new P-256 key pair with a new kid.
SigningKeyPair make_signing_key_pair();

// The pair of a stored private key (its public JWK computed from it). Throws std::runtime_error
// when `private_pem` is not a P-256 private key.
SigningKeyPair signing_key_pair_of(const std::string& kid, const std::string& private_pem);

// Where the database's private signing key is kept: <database>.signing-key, or "" for ":memory:".
std::string signing_key_path(const Database& db);

// The private key kept for the database (the one that signs), if any. A file that cannot be read
// as "kid <kid>" followed by a PEM is an error (std::runtime_error naming it), never ignored.
std::optional<SigningKeyPair> read_signing_key(Database& db);

// Keeps `key` as the database's private signing key, in place of any other: the file is replaced
// whole, with mode 0600.
void keep_signing_key(Database& db, const SigningKeyPair& key);

}  // namespace syndic
