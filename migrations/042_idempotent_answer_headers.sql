-- The headers of a kept answer that a replay must give again (ETag, Location, Preference-Applied), by their
-- lower-case names: a keyed PUT sent again answers the same ETag as its first answer did. Null on answers
-- kept before this column, replayed without them as before.
ALTER TABLE idempotent_requests ADD COLUMN headers jsonb;
