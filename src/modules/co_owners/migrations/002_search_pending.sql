-- co-owners 002 (schema version 12): the search index no longer writes at every one-row
-- transaction. FTS5 flushes what it was given as a new segment of its index at every commit, and
-- merges segments as they pile up: indexing one new co-owner per transaction cost more than half of
-- a create. Now a co-owner whose search_text the index does not hold yet (a new row, a changed
-- text, a deleted row) is noted in co_owner_search_pending, a small table searched beside the index
-- (instr over those rows); once it holds 64 rows, they are folded into the index in one statement,
-- one flush for 64 writes. Answers stay exact: a search takes the index's candidates and the
-- pending rows, and checks every candidate's current search_text. indexed_text is what the index
-- holds for that rowid (NULL: nothing), so that the fold can remove exactly that (an
-- external-content FTS5 index removes an entry given its text). Invariant: the index holds text T
-- for rowid r iff r is pending with indexed_text T, or r is not pending and co_owners row r has
-- search_text T. A row already pending keeps its indexed_text.
CREATE TABLE co_owner_search_pending (
    row          INTEGER PRIMARY KEY,  -- co_owners.rowid
    indexed_text TEXT                  -- what co_owner_search holds for it, NULL for nothing
) STRICT;

DROP TRIGGER co_owners_search_delete;
DROP TRIGGER co_owners_search_update;

CREATE TRIGGER co_owners_search_insert AFTER INSERT ON co_owners BEGIN
    INSERT INTO co_owner_search_pending (row, indexed_text) VALUES (new.rowid, NULL)
        ON CONFLICT (row) DO NOTHING;
END;
CREATE TRIGGER co_owners_search_update AFTER UPDATE OF search_text ON co_owners
    WHEN old.search_text IS NOT new.search_text
BEGIN
    INSERT INTO co_owner_search_pending (row, indexed_text) VALUES (old.rowid, old.search_text)
        ON CONFLICT (row) DO NOTHING;
END;
CREATE TRIGGER co_owners_search_delete AFTER DELETE ON co_owners BEGIN
    INSERT INTO co_owner_search_pending (row, indexed_text) VALUES (old.rowid, old.search_text)
        ON CONFLICT (row) DO NOTHING;
END;

-- The fold: for each pending rowid in order, its old entry out and its current text in (rowids
-- in increasing order, so FTS5 keeps them in one in-memory batch), then the pending rows gone.
CREATE TRIGGER co_owner_search_fold AFTER INSERT ON co_owner_search_pending
    WHEN (SELECT count(*) FROM co_owner_search_pending) >= 64
BEGIN
    INSERT INTO co_owner_search (co_owner_search, rowid, search_text)
        SELECT command, row, text FROM (
            SELECT 'delete' AS command, row, indexed_text AS text, 0 AS step
                FROM co_owner_search_pending WHERE indexed_text IS NOT NULL
            UNION ALL
            SELECT NULL, p.row, c.search_text, 1
                FROM co_owner_search_pending p JOIN co_owners c ON c.rowid = p.row)
        ORDER BY row, step;
    DELETE FROM co_owner_search_pending;
END;
