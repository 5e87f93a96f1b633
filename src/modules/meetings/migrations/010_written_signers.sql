-- meetings 010: a written resolution's signers are fixed when it is put forward (issue 28, point
-- 4): those entitled to vote on that day (art. 354: every co-owner entitled to vote, or every
-- director in office). Only they sign; it is adopted when all of them have; one of them who is no
-- longer entitled before that (a director whose mandate ended, a co-owner archived or suspended)
-- makes it lapse. A resolution recorded before this migration gets its signers fixed on its next
-- signature (written_signers.cpp).
CREATE TABLE written_resolution_signers (
    resolution_id TEXT NOT NULL REFERENCES resolutions(id),
    syndicate_id  TEXT NOT NULL REFERENCES syndicates(id),
    signer_type   TEXT NOT NULL CHECK (signer_type IN ('co-owner', 'director')),
    signer_id     TEXT NOT NULL,             -- co_owners.id or directors.id, by signer_type
    name          TEXT NOT NULL,             -- as it was when the resolution was put forward
    PRIMARY KEY (resolution_id, signer_id)
) STRICT;
