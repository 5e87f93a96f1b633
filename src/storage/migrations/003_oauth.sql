-- core 003 (schema version 3): people who sign in (users of a syndicate) and their browser
-- sessions; OAuth 2.1 clients, authorization codes, refresh tokens and revoked access tokens; the
-- keys that sign access tokens. Secrets are stored only as hashes (SHA-256 for random tokens,
-- argon2id for passwords).

CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    syndicate_id  TEXT NOT NULL REFERENCES syndicates(id),
    email         TEXT NOT NULL,
    name          TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    password_hash TEXT NOT NULL,            -- argon2id, PHC string form
    language      TEXT NOT NULL DEFAULT 'fr' CHECK (language IN ('fr', 'en')),
    created_at    TEXT NOT NULL,
    disabled_at   TEXT
) STRICT;
-- One account per e-mail address in the whole database: signing in needs no syndicate.
CREATE UNIQUE INDEX users_email_unique ON users (email COLLATE NOCASE);

CREATE TABLE user_sessions (
    token_hash TEXT PRIMARY KEY,             -- SHA-256 of the cookie's value
    user_id    TEXT NOT NULL REFERENCES users(id),
    csrf_token TEXT NOT NULL,                -- echoed by the forms of the session
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    ended_at   TEXT
) STRICT;
CREATE INDEX user_sessions_user ON user_sessions (user_id);

CREATE TABLE oauth_clients (
    id                  TEXT PRIMARY KEY,    -- the client_id
    name                TEXT NOT NULL,
    redirect_uris       TEXT NOT NULL,       -- JSON array, matched exactly
    secret_hash         TEXT,                -- SHA-256; NULL for a public client (PKCE only)
    auth_method         TEXT NOT NULL CHECK (auth_method IN ('none', 'client_secret_basic', 'client_secret_post')),
    registered_by       TEXT NOT NULL CHECK (registered_by IN ('dynamic', 'admin')),
    client_uri          TEXT,
    created_at          TEXT NOT NULL,
    disabled_at         TEXT
) STRICT;

CREATE TABLE oauth_codes (
    code_hash      TEXT PRIMARY KEY,
    client_id      TEXT NOT NULL REFERENCES oauth_clients(id),
    user_id        TEXT NOT NULL REFERENCES users(id),
    redirect_uri   TEXT NOT NULL,
    code_challenge TEXT NOT NULL,            -- S256 only
    scope          TEXT NOT NULL,            -- space-separated, as granted
    resource       TEXT NOT NULL,            -- RFC 8707: the audience of the tokens
    family_id      TEXT NOT NULL,            -- the refresh tokens it leads to, revoked if it is reused
    created_at     TEXT NOT NULL,
    expires_at     TEXT NOT NULL,
    used_at        TEXT
) STRICT;

CREATE TABLE oauth_refresh_tokens (
    token_hash  TEXT PRIMARY KEY,
    family_id   TEXT NOT NULL,               -- every rotation of one grant; reuse revokes them all
    client_id   TEXT NOT NULL REFERENCES oauth_clients(id),
    user_id     TEXT NOT NULL REFERENCES users(id),
    scope       TEXT NOT NULL,
    resource    TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    rotated_at  TEXT,                        -- replaced by its successor
    revoked_at  TEXT
) STRICT;
CREATE INDEX oauth_refresh_tokens_family ON oauth_refresh_tokens (family_id);

-- The access tokens each grant (refresh family) gave, until they expire: revoking the family
-- (a code or refresh token replayed, a revocation) revokes them too.
CREATE TABLE oauth_issued_access_tokens (
    jti        TEXT PRIMARY KEY,
    family_id  TEXT NOT NULL,
    expires_at TEXT NOT NULL
) STRICT;
CREATE INDEX oauth_issued_access_tokens_family ON oauth_issued_access_tokens (family_id);

-- Access tokens revoked before they expire (RFC 7009): their jti until then.
CREATE TABLE oauth_revoked_access_tokens (
    jti        TEXT PRIMARY KEY,
    expires_at TEXT NOT NULL
) STRICT;

-- ES256 key pairs; the newest signs, every one not retired verifies and is in the JWKS.
CREATE TABLE signing_keys (
    kid         TEXT PRIMARY KEY,
    private_pem TEXT NOT NULL,
    public_jwk  TEXT NOT NULL,               -- JSON object, as the JWKS publishes it
    created_at  TEXT NOT NULL,
    retired_at  TEXT
) STRICT;
