-- meetings 007: what decisions that hold in court need (catalogue §0 "Authorising decisions",
-- §3.2; decisions.md §10).
-- * resolutions.quorum: the quorum as it stood when the resolution's votes were recorded, JSON
--   {reached, basis, votesPresentUnits, votingBaseUnits, requiredUnits, rule, majorityOfAllVotes,
--   takenAt} (votes in millionths of a percent; directors as whole percents); the majority is
--   measured against votesPresent and the authorising check reads reached. headcount_basis says
--   whether a double majority's head count was by person or by record.
-- * meeting_roll: the voting roll frozen as a whole (entries after suspension and the developer's
--   cap; art. 1091 is applied each time, as it depends on who attends) when the first votes or
--   ballots are recorded or the meeting is held; a later payment or reversal never rewrites it.
-- * board_attendees, board_ballots: a board meeting is the directors', one vote each.
ALTER TABLE resolutions ADD COLUMN quorum TEXT CHECK (quorum IS NULL OR json_valid(quorum));
ALTER TABLE resolutions ADD COLUMN headcount_basis TEXT
    CHECK (headcount_basis IS NULL OR headcount_basis IN ('persons', 'records'));

ALTER TABLE meetings ADD COLUMN roll_frozen_at TEXT;
ALTER TABLE meetings ADD COLUMN roll_as_of TEXT;           -- the day the frozen roll was read for
ALTER TABLE meetings ADD COLUMN roll_fractions INTEGER;    -- lots then (art. 1091 applies under 5)

CREATE TABLE meeting_roll (
    meeting_id     TEXT NOT NULL REFERENCES meetings(id),
    co_owner_id    TEXT NOT NULL REFERENCES co_owners(id),
    syndicate_id   TEXT NOT NULL REFERENCES syndicates(id),
    name           TEXT NOT NULL,
    unit_id        TEXT NOT NULL,
    unit_number    TEXT NOT NULL,
    fraction_units INTEGER NOT NULL,
    votes_units    INTEGER NOT NULL,       -- after suspension (art. 1094) and the developer's cap (art. 1092)
    status         TEXT NOT NULL CHECK (status IN ('entitled', 'suspended-arrears', 'reduced-developer', 'syndicate-held')),
    overdue_since  TEXT,
    overdue_cents  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (meeting_id, co_owner_id)
) STRICT;

CREATE TABLE board_attendees (
    meeting_id   TEXT NOT NULL REFERENCES meetings(id),
    director_id  TEXT NOT NULL REFERENCES directors(id),
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    name         TEXT NOT NULL,
    attendance   TEXT NOT NULL CHECK (attendance IN ('present', 'absent')),
    recorded_at  TEXT NOT NULL,
    PRIMARY KEY (meeting_id, director_id)
) STRICT;

CREATE TABLE board_ballots (
    resolution_id TEXT NOT NULL REFERENCES resolutions(id),
    director_id   TEXT NOT NULL REFERENCES directors(id),
    syndicate_id  TEXT NOT NULL REFERENCES syndicates(id),
    choice        TEXT NOT NULL CHECK (choice IN ('for', 'against', 'abstain')),
    recorded_at   TEXT NOT NULL,
    PRIMARY KEY (resolution_id, director_id)
) STRICT;

-- Existing data keeps its meaning (issue 27, item 2): each resolution of a meeting whose votes were
-- recorded gets the snapshot its recorded attendance gives, computed once here: the fractions of
-- the co-owners recorded present or by proxy (no vote could be suspended yet: there was no ledger),
-- against all votes, quorum the syndicate's requiredQuorumPercent of them (rounded up to the
-- millionth), or, at a reconvened meeting, anyone present. Its outcome is then read against the
-- votes present, as the law says: a resolution that now fails stays recorded, shows rejected, and
-- no longer authorises anything. Board meetings' resolutions had no directors' attendance: their
-- snapshot says quorum not reached (no director recorded present), so they authorise nothing until
-- their votes are recorded again by the directors. docs/decisions.md says what a syndicate sees.
UPDATE resolutions SET quorum = (
    SELECT json_object(
        'reached', CASE
            WHEN m.type = 'board' THEN json('false')
            WHEN m.quorum_rule = 'adjourned' THEN CASE WHEN coalesce(p.units, 0) > 0 THEN json('true') ELSE json('false') END
            WHEN coalesce(p.units, 0) >= (coalesce(q.percent_units, 51000000) * 100000000 + 99999999) / 100000000
                THEN json('true') ELSE json('false') END,
        'basis', CASE WHEN m.type = 'board' THEN 'directors' ELSE 'votes' END,
        'votesPresentUnits', CASE WHEN m.type = 'board' THEN 0 ELSE coalesce(p.units, 0) END,
        'votingBaseUnits', CASE WHEN m.type = 'board' THEN 0 ELSE 100000000 END,
        'requiredUnits', CASE WHEN m.type = 'board' OR m.quorum_rule = 'adjourned' THEN 0
                              ELSE (coalesce(q.percent_units, 51000000) * 100000000 + 99999999) / 100000000 END,
        'rule', CASE WHEN m.type = 'board' THEN 'standard' ELSE m.quorum_rule END,
        'majorityOfAllVotes', CASE WHEN m.type <> 'board' AND coalesce(p.units, 0) * 2 > 100000000
                                   THEN json('true') ELSE json('false') END,
        'takenAt', resolutions.updated_at)
    FROM meetings m
    LEFT JOIN (SELECT meeting_id, sum(fraction_units) AS units FROM meeting_attendees
               WHERE attendance IN ('present', 'proxy') GROUP BY meeting_id) p ON p.meeting_id = m.id
    LEFT JOIN (SELECT syndicate_id, CAST(round(CAST(value AS REAL) * 1000000) AS INTEGER) AS percent_units
               FROM settings WHERE name = 'requiredQuorumPercent') q ON q.syndicate_id = m.syndicate_id
    WHERE m.id = resolutions.meeting_id)
WHERE meeting_id IS NOT NULL AND votes_recorded = 1;
UPDATE resolutions SET headcount_basis = 'records' WHERE ballots_recorded = 1;
