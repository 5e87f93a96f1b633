-- board 003: an archived co-owner no longer stays a director in office (issue 27; catalogue §3.0,
-- §4.3). Where the declaration requires directors to be co-owners, a mandate still active whose
-- co-owner record is archived (no record was joined to another before co-owners 003, so the record
-- is the person) ends as delete_co_owner now ends it: reason ownership-ended, on the day the record
-- was archived in Montreal (eastern time: daylight from the second Sunday of March, 07:00 UTC, to
-- the first Sunday of November, 06:00 UTC), and never before its term began.

UPDATE directors SET
    status = 'ended',
    end_reason = 'ownership-ended',
    updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
    ended_on = (
        WITH archived AS (
            SELECT c.deleted_at AS at, CAST(substr(c.deleted_at, 1, 4) AS TEXT) AS y
            FROM co_owners c WHERE c.id = directors.co_owner_id),
        daylight AS (
            SELECT at,
                   date(y || '-03-08', '+' || ((7 - CAST(strftime('%w', y || '-03-08') AS INTEGER)) % 7) || ' days')
                       || 'T07:00:00' AS starts,
                   date(y || '-11-01', '+' || ((7 - CAST(strftime('%w', y || '-11-01') AS INTEGER)) % 7) || ' days')
                       || 'T06:00:00' AS ends
            FROM archived)
        SELECT max(directors.term_start,
                   date(at, CASE WHEN substr(at, 1, 19) >= starts AND substr(at, 1, 19) < ends THEN '-4 hours'
                                 ELSE '-5 hours' END))
        FROM daylight)
WHERE status = 'active'
  AND co_owner_id IN (SELECT id FROM co_owners WHERE deleted_at IS NOT NULL)
  AND syndicate_id IN (SELECT syndicate_id FROM declarations WHERE directors_must_be_co_owners = 1);
