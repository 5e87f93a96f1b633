-- meetings 003 (schema version 17): what the voting roll, adjournments, agenda additions and
-- ballots need (catalogue §3.2). Resolutions are rebuilt, since SQLite cannot alter a CHECK:
-- majority_required accepts 'double' (art. 1098), meeting_id becomes nullable (written
-- resolutions), and they gain the head count for, whether ballots were recorded and the last day an
-- action in annulment may be brought (art. 1103). Every column is kept, body, source and decided_on
-- of meetings 002 included. Foreign keys stay on during migrations (they run in one transaction,
-- where the pragma cannot change): the rows of bylaws and declaration_amendments that name a
-- resolution are kept valid by deferring the checks to the commit, dropping the old table (its
-- implicit delete counts a violation per referencing row) and inserting the same ids into the new
-- table (each insert resolves them again), so the table keeps its name and the children's
-- REFERENCES are untouched.
PRAGMA defer_foreign_keys = ON;

CREATE TEMP TABLE resolutions_before AS SELECT * FROM resolutions;
DROP TABLE resolutions;

CREATE TABLE resolutions (
    id                TEXT PRIMARY KEY,
    meeting_id        TEXT REFERENCES meetings(id),   -- null for a written resolution
    syndicate_id      TEXT NOT NULL REFERENCES syndicates(id),
    position          INTEGER NOT NULL,
    title             TEXT NOT NULL,
    description       TEXT NOT NULL DEFAULT '',
    majority_required TEXT NOT NULL CHECK (majority_required IN ('simple', 'absolute', 'double', 'special')),
    votes_recorded    INTEGER NOT NULL DEFAULT 0,
    votes_for         INTEGER NOT NULL DEFAULT 0,
    votes_against     INTEGER NOT NULL DEFAULT 0,
    votes_abstain     INTEGER NOT NULL DEFAULT 0,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    body              TEXT CHECK (body IS NULL OR body IN ('general', 'board')),
    source            TEXT CHECK (source IS NULL OR source IN ('meeting', 'written')),
    decided_on        TEXT,
    ballots_recorded  INTEGER NOT NULL DEFAULT 0,
    -- Once ballots are recorded: the co-owners for, the co-owners entitled to vote and the votes
    -- that count (votingBase, millionths of a percent) at that moment, which a double majority
    -- is measured against (art. 1098).
    headcount_for      INTEGER,
    headcount_entitled INTEGER,
    voting_base_units  INTEGER,
    -- At a meeting reconvened after an adjournment (art. 1089 para 2): whether those present or
    -- represented held a majority of all votes when the votes were recorded; null elsewhere. An
    -- absolute or double resolution is rejected without it.
    majority_of_all_votes INTEGER,
    contestable_until TEXT                              -- decided_on + 90 days (art. 1103), once decided
) STRICT;

INSERT INTO resolutions (id, meeting_id, syndicate_id, position, title, description, majority_required,
                         votes_recorded, votes_for, votes_against, votes_abstain, created_at, updated_at,
                         body, source, decided_on)
SELECT id, meeting_id, syndicate_id, position, title, description, majority_required,
       votes_recorded, votes_for, votes_against, votes_abstain, created_at, updated_at,
       body, source, decided_on
FROM temp.resolutions_before;
DROP TABLE temp.resolutions_before;
CREATE INDEX resolutions_by_meeting ON resolutions (meeting_id, position);

-- A meeting adjourned for want of quorum names the meeting reconvened after it, and the reverse;
-- the reconvened meeting's quorum follows art. 1089 para 2 ('adjourned'). Both name a meeting of
-- the same table, written together by adjourn_meeting; no REFERENCES, so that a column can still
-- be dropped (SQLite refuses to drop a column a foreign key uses).
ALTER TABLE meetings ADD COLUMN adjourned_from_meeting_id TEXT;
ALTER TABLE meetings ADD COLUMN reconvened_meeting_id TEXT;
ALTER TABLE meetings ADD COLUMN quorum_rule TEXT NOT NULL DEFAULT 'standard'
    CHECK (quorum_rule IN ('standard', 'adjourned'));
ALTER TABLE meetings ADD COLUMN adjournment TEXT CHECK (adjournment IS NULL OR json_valid(adjournment));  -- {reason, justification}
-- [{text, requestedByCoOwnerId, requestedOn, supplementaryNoticeQueuedAt}] (art. 1088)
ALTER TABLE meetings ADD COLUMN agenda_additions TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(agenda_additions));
ALTER TABLE meetings ADD COLUMN minutes_sent_at TEXT;

-- Each co-owner's vote on a resolution, weighed by their votes on the roll when cast (art. 1098).
CREATE TABLE ballots (
    resolution_id TEXT NOT NULL REFERENCES resolutions(id),
    co_owner_id   TEXT NOT NULL REFERENCES co_owners(id),
    syndicate_id  TEXT NOT NULL REFERENCES syndicates(id),
    choice        TEXT NOT NULL CHECK (choice IN ('for', 'against', 'abstain')),
    votes_units   INTEGER NOT NULL CHECK (votes_units >= 0),
    cast_by       TEXT NOT NULL CHECK (cast_by IN ('owner', 'proxy')),
    recorded_at   TEXT NOT NULL,
    PRIMARY KEY (resolution_id, co_owner_id)
) STRICT;
