-- accounting 010: the day from which a charge is settled for good, and a payment spent for good,
-- kept by triggers so that a standing, the arrears list and the voting roll read only what may
-- still be owed instead of a lot's whole history (docs/performance.md, "The ledger at size").
--
-- A charge is settled for good from the first day its allocations that can no longer be undone
-- (not released, their payment not reversed) reach its amount, or from its cancellation: on that
-- day and every later one it is paid (or gone) in the view of every later day. A payment is spent
-- for good from the first day its allocations that are not released reach its amount, or from its
-- reversal; '9999-12-31' while not (so that "not settled by day D" is one range of an index:
-- settled_on > D). These are derived rows (no syndicate_id: the audit trail does not
-- follow them); the ledger's own rows stay the truth, and a reader that skips a row settled by a
-- day reads the same answer as one that reads them all.

CREATE VIEW charge_settled_on (charge_id, settled_on) AS
SELECT c.id, min(coalesce(c.cancelled_on, '9999-12-31'), coalesce((
    SELECT min(a.applied_on) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id
    WHERE a.charge_id = c.id AND a.released_on IS NULL AND p.status = 'posted'
    AND (SELECT sum(b.amount_cents) FROM payment_allocations b JOIN payments q ON q.id = b.payment_id
         WHERE b.charge_id = c.id AND b.released_on IS NULL AND q.status = 'posted' AND b.applied_on <= a.applied_on) >= c.amount_cents
), '9999-12-31'))
FROM charges c;

CREATE VIEW payment_spent_on (payment_id, spent_on) AS
SELECT p.id, min(coalesce(p.reversed_on, '9999-12-31'), coalesce((
    SELECT min(a.applied_on) FROM payment_allocations a
    WHERE a.payment_id = p.id AND a.released_on IS NULL
    AND (SELECT sum(b.amount_cents) FROM payment_allocations b
         WHERE b.payment_id = p.id AND b.released_on IS NULL AND b.applied_on <= a.applied_on) >= p.amount_cents
), '9999-12-31'))
FROM payments p;

CREATE TABLE charge_settlements (
    charge_id  TEXT PRIMARY KEY,  -- a charge's id
    unit_id    TEXT NOT NULL,
    due_on     TEXT NOT NULL,
    settled_on TEXT NOT NULL
) STRICT, WITHOUT ROWID;
-- What may still be owed on a day, by lot and overall.
CREATE INDEX charge_settlements_by_unit ON charge_settlements (unit_id, settled_on);
CREATE INDEX charge_settlements_open ON charge_settlements (settled_on, due_on);

CREATE TABLE payment_credits (
    payment_id TEXT PRIMARY KEY,  -- a payment's id
    unit_id    TEXT NOT NULL,
    spent_on   TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX payment_credits_by_unit ON payment_credits (unit_id, spent_on);
CREATE INDEX payment_credits_open ON payment_credits (spent_on);

INSERT INTO charge_settlements (charge_id, unit_id, due_on, settled_on)
SELECT c.id, c.unit_id, c.due_on, s.settled_on FROM charges c JOIN charge_settled_on s ON s.charge_id = c.id;
INSERT INTO payment_credits (payment_id, unit_id, spent_on)
SELECT p.id, p.unit_id, s.spent_on FROM payments p JOIN payment_spent_on s ON s.payment_id = p.id;

CREATE TRIGGER charges_settlement_row AFTER INSERT ON charges BEGIN
    INSERT INTO charge_settlements (charge_id, unit_id, due_on, settled_on) VALUES (NEW.id, NEW.unit_id, NEW.due_on, '9999-12-31');
END;
CREATE TRIGGER charges_settlement_cancelled AFTER UPDATE OF cancelled_on ON charges BEGIN
    UPDATE charge_settlements SET settled_on = (SELECT settled_on FROM charge_settled_on WHERE charge_id = NEW.id)
    WHERE charge_id = NEW.id;
END;
CREATE TRIGGER charges_settlement_gone AFTER DELETE ON charges BEGIN
    DELETE FROM charge_settlements WHERE charge_id = OLD.id;
END;

CREATE TRIGGER payments_credit_row AFTER INSERT ON payments BEGIN
    INSERT INTO payment_credits (payment_id, unit_id, spent_on) VALUES (NEW.id, NEW.unit_id, coalesce(NEW.reversed_on, '9999-12-31'));
END;
CREATE TRIGGER payments_credit_reversed AFTER UPDATE OF status, reversed_on ON payments BEGIN
    UPDATE payment_credits SET spent_on = (SELECT spent_on FROM payment_spent_on WHERE payment_id = NEW.id)
    WHERE payment_id = NEW.id;
    UPDATE charge_settlements SET settled_on = (SELECT settled_on FROM charge_settled_on WHERE charge_id = charge_settlements.charge_id)
    WHERE charge_id IN (SELECT charge_id FROM payment_allocations WHERE payment_id = NEW.id);
END;
CREATE TRIGGER payments_credit_gone AFTER DELETE ON payments BEGIN
    DELETE FROM payment_credits WHERE payment_id = OLD.id;
END;

CREATE TRIGGER allocations_settle_added AFTER INSERT ON payment_allocations BEGIN
    UPDATE charge_settlements SET settled_on = (SELECT settled_on FROM charge_settled_on WHERE charge_id = NEW.charge_id)
    WHERE charge_id = NEW.charge_id;
    UPDATE payment_credits SET spent_on = (SELECT spent_on FROM payment_spent_on WHERE payment_id = NEW.payment_id)
    WHERE payment_id = NEW.payment_id;
END;
CREATE TRIGGER allocations_settle_released AFTER UPDATE OF released_on ON payment_allocations BEGIN
    UPDATE charge_settlements SET settled_on = (SELECT settled_on FROM charge_settled_on WHERE charge_id = NEW.charge_id)
    WHERE charge_id = NEW.charge_id;
    UPDATE payment_credits SET spent_on = (SELECT spent_on FROM payment_spent_on WHERE payment_id = NEW.payment_id)
    WHERE payment_id = NEW.payment_id;
END;
CREATE TRIGGER allocations_settle_removed AFTER DELETE ON payment_allocations BEGIN
    UPDATE charge_settlements SET settled_on = (SELECT settled_on FROM charge_settled_on WHERE charge_id = OLD.charge_id)
    WHERE charge_id = OLD.charge_id;
    UPDATE payment_credits SET spent_on = (SELECT spent_on FROM payment_spent_on WHERE payment_id = OLD.payment_id)
    WHERE payment_id = OLD.payment_id;
END;
