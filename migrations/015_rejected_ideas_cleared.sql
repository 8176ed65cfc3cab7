-- "Clear rejected ideas" leaves the flow's ideas deleted up to this time out of its prompts and its context,
-- as "Clear logs" does with the requests (logs_cleared_at): the deleted results stay in the event log (audit),
-- and the time, like the notes, is the user's choice rather than a version of the flow.
ALTER TABLE flows ADD COLUMN rejected_ideas_cleared_at timestamptz;
