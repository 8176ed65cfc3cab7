-- A result edited after the model wrote it keeps the model's own text and who edited it last, so the people
-- deciding its review see what changed. Filled by the projection from ResultEdited (a rebuild fills it for
-- every edit recorded before).
ALTER TABLE step_results
  ADD COLUMN model_text text,
  ADD COLUMN edited_by uuid,
  ADD COLUMN edited_at timestamptz;
