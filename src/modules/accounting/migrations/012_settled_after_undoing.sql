-- accounting 012: a charge whose allocations were undone after it was paid (a payment reversed, an
-- allocation released) is settled for good only from the last such day on. Before it, the undone
-- allocation still counted in the view of the day, so the charge could read overpaid there (a
-- payment received on a day before a reversal already recorded imputes to the charge the reversed
-- payment had paid): skipping it then changed what the lot's other charges add up to. A review
-- found it (docs/performance.md, "The ledger at size").
DROP VIEW charge_settled_on;
CREATE VIEW charge_settled_on (charge_id, settled_on) AS
SELECT c.id, min(coalesce(c.cancelled_on, '9999-12-31'), max(coalesce((
    SELECT min(a.applied_on) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id
    WHERE a.charge_id = c.id AND a.released_on IS NULL AND p.status = 'posted'
    AND (SELECT sum(b.amount_cents) FROM payment_allocations b JOIN payments q ON q.id = b.payment_id
         WHERE b.charge_id = c.id AND b.released_on IS NULL AND q.status = 'posted' AND b.applied_on <= a.applied_on) >= c.amount_cents
), '9999-12-31'), coalesce((
    SELECT max(max(coalesce(a.released_on, ''), coalesce(p.reversed_on, ''))) FROM payment_allocations a
    JOIN payments p ON p.id = a.payment_id WHERE a.charge_id = c.id AND (a.released_on IS NOT NULL OR p.status = 'reversed')
), '')))
FROM charges c;

UPDATE charge_settlements SET settled_on = (SELECT v.settled_on FROM charge_settled_on v WHERE v.charge_id = charge_settlements.charge_id);
