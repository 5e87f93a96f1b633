-- co-owners 001 (schema version 10): the co-owners of a unit share its fraction: a unit and the
-- parking and storage units linked to it form one lot, and the lot's active co-owners may hold at
-- most the lot's fraction in total. Data entered before this rule is brought within it
-- (docs/decisions.md, "Data that is wrong today"):
-- 1. a lot's active co-owners holding more than the lot are scaled down in proportion, each
--    rounded down to the millionth, the remainder to the largest (the first by id among equals),
--    so that together they hold exactly the lot;
-- 2. a sole active co-owner of a lot who holds 0 (the old default) gets the lot's whole fraction.
CREATE TEMP TABLE lot_shares AS
WITH lot AS (
    SELECT u.id AS unit_id, coalesce(l.apartment_id, u.id) AS lot_id, u.fraction_units
    FROM units u LEFT JOIN unit_links l ON l.unit_id = u.id WHERE u.deleted_at IS NULL
),
lot_fraction AS (SELECT lot_id, sum(fraction_units) AS fraction FROM lot GROUP BY lot_id),
holder AS (
    SELECT c.id, lot.lot_id, c.fraction_units,
           sum(c.fraction_units) OVER (PARTITION BY lot.lot_id) AS held,
           count(*) OVER (PARTITION BY lot.lot_id) AS holders,
           row_number() OVER (PARTITION BY lot.lot_id ORDER BY c.fraction_units DESC, c.id) AS rank
    FROM co_owners c JOIN lot ON lot.unit_id = c.unit_id WHERE c.deleted_at IS NULL
)
SELECT h.id, h.lot_id, h.fraction_units, h.held, h.holders, h.rank, f.fraction,
       CASE WHEN h.held > f.fraction THEN h.fraction_units * f.fraction / h.held
            WHEN h.holders = 1 AND h.held = 0 THEN f.fraction
            ELSE h.fraction_units END AS scaled
FROM holder h JOIN lot_fraction f ON f.lot_id = h.lot_id;

UPDATE temp.lot_shares SET scaled = scaled + fraction - (SELECT sum(o.scaled) FROM temp.lot_shares o WHERE o.lot_id = lot_shares.lot_id)
WHERE rank = 1 AND held > fraction;

UPDATE co_owners SET fraction_units = s.scaled
FROM temp.lot_shares s WHERE s.id = co_owners.id AND s.scaled <> co_owners.fraction_units;

DROP TABLE temp.lot_shares;
