-- Why a review went to the workspace's owners before its due time. A review sent to them because fewer people
-- may decide it than it needs is settled by one owner's approval, so it stays in an owner's pending inbox even
-- after they approved it once. Filled by the projection from ReviewSentToOwners; the reviews sent so before
-- this column existed are filled here from the log.
ALTER TABLE step_reviews ADD COLUMN owners_reason text;
UPDATE step_reviews r SET owners_reason = e.data->>'reason'
FROM events e
WHERE e.event_type = 'ReviewSentToOwners' AND (e.data->>'reviewId')::uuid = r.id;
