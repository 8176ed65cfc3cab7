-- The request log shows who answered and how: the model's provider, the tokens it read and wrote, and the
-- milliseconds from sending the request to its first text. Null where the events do not tell (older runs, a
-- model that reports no token counts, an answer with no text); `npm run projections:rebuild` fills them.
ALTER TABLE ai_request_logs
  ADD COLUMN provider text,
  ADD COLUMN input_tokens int,
  ADD COLUMN output_tokens int,
  ADD COLUMN first_token_ms int;
