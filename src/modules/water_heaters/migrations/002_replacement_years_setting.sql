-- water-heaters 002 (schema version 11 before migrations were numbered by module, with core 007):
-- the water heaters' replacement age (syndicates.water_heater_replacement_years, water-heaters 001)
-- moves into the settings (core 007) with every syndicate's value, and its column goes.

INSERT INTO settings (syndicate_id, name, value, updated_at)
SELECT id, 'waterHeaterReplacementYears', CAST(water_heater_replacement_years AS TEXT),
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM syndicates;

ALTER TABLE syndicates DROP COLUMN water_heater_replacement_years;
