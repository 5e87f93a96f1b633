-- meetings 002 (schema version 15 before migrations were numbered by module, with declaration
-- 001): resolutions gain room for who decided, how and when, so written resolutions (catalogue
-- §3.2) fit the authorisation check; a meeting's resolution leaves them null (read from its
-- meeting).

ALTER TABLE resolutions ADD COLUMN body TEXT CHECK (body IS NULL OR body IN ('general', 'board'));
ALTER TABLE resolutions ADD COLUMN source TEXT CHECK (source IS NULL OR source IN ('meeting', 'written'));
ALTER TABLE resolutions ADD COLUMN decided_on TEXT;
