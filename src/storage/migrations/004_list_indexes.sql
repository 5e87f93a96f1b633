-- core 004 (schema version 4): what lists, counts and searches of co-owners read, so that they cost
-- the page they show rather than the size of the register.
-- * The register order over live rows (a partial index) and over all rows (includeArchived).
-- * co_owner_tallies: how many co-owners each syndicate has, live or archived, with or without
--   portal access, kept by triggers, so a list's total is not a count over the table.
-- * co_owner_search: a trigram index (FTS5) of search_text, so a substring search reads the rows
--   holding its trigrams instead of every row. It refers to co-owners by rowid; VACUUM keeps the
--   rowids of a table that has indexes, and INSERT INTO co_owner_search (co_owner_search)
--   VALUES ('rebuild') rebuilds it from co_owners if ever needed. Updates and deletions reach it
--   through triggers; insertions through co_owners.cpp, which indexes a transaction's new rows in
--   one statement.
-- * A covering index for the sum of unit fractions, which every unit write checks.

DROP INDEX co_owners_by_name;
CREATE INDEX co_owners_live_by_name ON co_owners (syndicate_id, sort_key, id) WHERE deleted_at IS NULL;
CREATE INDEX co_owners_by_name ON co_owners (syndicate_id, sort_key, id);

CREATE TABLE co_owner_tallies (
    syndicate_id      TEXT NOT NULL REFERENCES syndicates(id),
    archived          INTEGER NOT NULL,
    has_portal_access INTEGER NOT NULL,
    n                 INTEGER NOT NULL,
    PRIMARY KEY (syndicate_id, archived, has_portal_access)
) STRICT, WITHOUT ROWID;
INSERT INTO co_owner_tallies (syndicate_id, archived, has_portal_access, n)
    SELECT syndicate_id, deleted_at IS NOT NULL, has_portal_access, count(*) FROM co_owners GROUP BY 1, 2, 3;

CREATE TRIGGER co_owners_tally_insert AFTER INSERT ON co_owners BEGIN
    INSERT INTO co_owner_tallies (syndicate_id, archived, has_portal_access, n)
        VALUES (new.syndicate_id, new.deleted_at IS NOT NULL, new.has_portal_access, 1)
        ON CONFLICT (syndicate_id, archived, has_portal_access) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER co_owners_tally_delete AFTER DELETE ON co_owners BEGIN
    UPDATE co_owner_tallies SET n = n - 1
        WHERE syndicate_id = old.syndicate_id AND archived = (old.deleted_at IS NOT NULL)
          AND has_portal_access = old.has_portal_access;
END;
CREATE TRIGGER co_owners_tally_update AFTER UPDATE OF syndicate_id, deleted_at, has_portal_access ON co_owners
    WHEN old.syndicate_id IS NOT new.syndicate_id OR (old.deleted_at IS NULL) <> (new.deleted_at IS NULL)
      OR old.has_portal_access <> new.has_portal_access
BEGIN
    UPDATE co_owner_tallies SET n = n - 1
        WHERE syndicate_id = old.syndicate_id AND archived = (old.deleted_at IS NOT NULL)
          AND has_portal_access = old.has_portal_access;
    INSERT INTO co_owner_tallies (syndicate_id, archived, has_portal_access, n)
        VALUES (new.syndicate_id, new.deleted_at IS NOT NULL, new.has_portal_access, 1)
        ON CONFLICT (syndicate_id, archived, has_portal_access) DO UPDATE SET n = n + 1;
END;

CREATE VIRTUAL TABLE co_owner_search USING fts5(
    search_text, content = 'co_owners', content_rowid = 'rowid', tokenize = 'trigram');
INSERT INTO co_owner_search (co_owner_search) VALUES ('rebuild');

-- New rows are indexed by the code that inserts them, once per transaction for all its rows
-- (a trigger would write the index once per row, and each such write makes FTS5 flush).
CREATE TRIGGER co_owners_search_delete AFTER DELETE ON co_owners BEGIN
    INSERT INTO co_owner_search (co_owner_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
CREATE TRIGGER co_owners_search_update AFTER UPDATE OF search_text ON co_owners
    WHEN old.search_text IS NOT new.search_text
BEGIN
    INSERT INTO co_owner_search (co_owner_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
    INSERT INTO co_owner_search (rowid, search_text) VALUES (new.rowid, new.search_text);
END;

CREATE INDEX units_live_fractions ON units (syndicate_id, fraction_units) WHERE deleted_at IS NULL;
