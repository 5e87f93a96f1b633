-- core 009: the migrations a database has applied, one row each, named by module and by number
-- within the module (src/storage/migration_history.hpp), with the order it applied them in: a
-- database upgraded over several versions may have applied two modules' migrations in another
-- order than a new database does, and restore checks a backup's schema by replaying its own order.
-- PRAGMA user_version keeps their count. A database from before (user_version 1..20, one number
-- for every migration) gets the rows of exactly the migrations that version had, in the order they
-- ran (src/storage/legacy_versions.cpp), applied_at null: an older syndic-mcp applied them and did
-- not say when.
CREATE TABLE schema_migrations (
    module     TEXT NOT NULL,             -- 'core' or a module's id
    number     INTEGER NOT NULL CHECK (number >= 1),
    name       TEXT NOT NULL,             -- its file: '<module>/NNN_name.sql'
    seq        INTEGER NOT NULL UNIQUE,   -- 1, 2...: the order this database applied them in
    applied_at TEXT,                      -- UTC instant; null when an older syndic-mcp applied it
    PRIMARY KEY (module, number)
) STRICT, WITHOUT ROWID;
