-- Reviews' due times and hand-backs: the workspace's owners may decide a review once it was escalated at its
-- due time or a person it named left the workspace; a reset withdraws the reviews still waiting.
ALTER TABLE step_reviews ADD COLUMN owners_too boolean NOT NULL DEFAULT false;
ALTER TABLE step_reviews DROP CONSTRAINT step_reviews_status_check;
ALTER TABLE step_reviews ADD CONSTRAINT step_reviews_status_check
  CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'withdrawn'));
-- The pending reviews naming a person, found when they leave a workspace.
CREATE INDEX step_reviews_pending_members_idx ON step_reviews USING gin (user_ids)
  WHERE status = 'pending' AND by = 'members';
