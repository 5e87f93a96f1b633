-- core 007 (schema version 11 before migrations were numbered by module, with water-heaters 002):
-- the syndicates' settings in one table, one row per setting a syndicate holds; a setting without
-- a row has the default its module's manifest declares (schemas/<module>/module.json, "settings").
-- Values are JSON text. The required quorum (syndicates.quorum_units, millionths of a percent)
-- moves here with every syndicate's value, and its column goes; the water heaters' replacement
-- age follows in water-heaters 002.

CREATE TABLE settings (
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    value        TEXT NOT NULL CHECK (json_valid(value)),
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (syndicate_id, name)
) STRICT;

INSERT INTO settings (syndicate_id, name, value, updated_at)
SELECT id, 'requiredQuorumPercent',
       CASE WHEN quorum_units % 1000000 = 0 THEN CAST(quorum_units / 1000000 AS TEXT)
            ELSE rtrim(printf('%d.%06d', quorum_units / 1000000, quorum_units % 1000000), '0') END,
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM syndicates;

ALTER TABLE syndicates DROP COLUMN quorum_units;
