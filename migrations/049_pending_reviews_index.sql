-- The reviews waiting for a decision, counted at every metrics scrape: a partial index of only those, so the
-- count reads the pending reviews and never the decided ones, however many there are.
CREATE INDEX step_reviews_pending_idx ON step_reviews (requested_at) WHERE status = 'pending';
