-- accounting 011: a notice's charges found by its id (what a notice has been paid, its
-- cancellation, the list of notices), not by reading the whole ledger: issuing 200 notices after
-- five years of charges spent most of its time there (docs/performance.md, "The ledger at size").
CREATE INDEX charges_by_notice ON charges (assessment_notice_id) WHERE assessment_notice_id IS NOT NULL;
