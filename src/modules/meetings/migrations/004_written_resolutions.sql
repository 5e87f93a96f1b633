-- meetings 004 (schema version 18): written resolutions (catalogue §3.2, art. 354): the signatures
-- of those entitled to vote, and when the adopted text was queued to the co-owners. A written
-- resolution is a row of `resolutions` with source 'written' and no meeting (meetings 003); it is
-- decided on its last signature.

ALTER TABLE resolutions ADD COLUMN sent_at TEXT;

CREATE TABLE resolution_signatures (
    resolution_id TEXT NOT NULL REFERENCES resolutions(id),
    syndicate_id  TEXT NOT NULL REFERENCES syndicates(id),
    signer_type   TEXT NOT NULL CHECK (signer_type IN ('co-owner', 'director')),
    signer_id     TEXT NOT NULL,             -- co_owners.id or directors.id, by signer_type
    name          TEXT NOT NULL,             -- as it was when signed
    signed_on     TEXT NOT NULL,
    document_id   TEXT REFERENCES documents(id),
    recorded_at   TEXT NOT NULL,
    PRIMARY KEY (resolution_id, signer_id)
) STRICT;
