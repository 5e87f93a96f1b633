-- accounting 005: a charge cancelled after it was paid (cancel_assessment_notice) gives back what
-- its payments imputed to it: each allocation keeps its row, released on the day of the
-- cancellation by an entry of its own (receivable debited, prepayments credited), and from then on
-- is the payment's credit again, which later charges take. A released allocation no longer counts
-- from released_on on; reversing its payment counters the release too.
ALTER TABLE payment_allocations ADD COLUMN released_on TEXT;
ALTER TABLE payment_allocations ADD COLUMN release_entry_id TEXT REFERENCES journal_entries(id);
