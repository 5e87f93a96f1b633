-- board 002: a director's term has an end (catalogue §4.3, art. 339): termStart plus the
-- declaration's director_term_years, 1 year when the by-laws are silent. Mandates recorded with an
-- open term (no term_end: the declaration set no length, or termEnd was given as null) get that
-- end now, as appoint_director gives it (29 February gives 28 February); a director past it stays
-- in office until replaced (termExpired). Ended mandates get it too: their history reads the same.

UPDATE directors SET term_end = (
    WITH t AS (
        SELECT CAST(substr(directors.term_start, 1, 4) AS INTEGER) + coalesce(
                   (SELECT d.director_term_years FROM declarations d WHERE d.syndicate_id = directors.syndicate_id), 1)
               AS y)
    SELECT CASE WHEN substr(directors.term_start, 6, 5) = '02-29' AND NOT (t.y % 4 = 0 AND (t.y % 100 <> 0 OR t.y % 400 = 0))
                THEN printf('%04d-02-28', t.y)
                ELSE printf('%04d', t.y) || substr(directors.term_start, 5) END
    FROM t)
WHERE term_end IS NULL;
