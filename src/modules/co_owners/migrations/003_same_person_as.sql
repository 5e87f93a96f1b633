-- co-owners 003: samePersonAs (catalogue §3.0). A co-owner record is one person on one unit; a
-- person holding two units has two records, and same_person_as joins one to another record of the
-- same syndicate (archived ones stay joined). Records joined transitively are one person: the art.
-- 1098 head count counts persons, and a director stops being a co-owner when the person holds no
-- active record. NULL for every record made before: each is its own person, as it was counted.

ALTER TABLE co_owners ADD COLUMN same_person_as TEXT REFERENCES co_owners(id);
CREATE INDEX co_owners_by_same_person ON co_owners (same_person_as) WHERE same_person_as IS NOT NULL;
