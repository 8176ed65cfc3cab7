-- A master mode row run's provider, tokens in and out and time to the first text, as the request log keeps them.
ALTER TABLE master_mode_runs
  ADD COLUMN provider text,
  ADD COLUMN input_tokens integer,
  ADD COLUMN output_tokens integer,
  ADD COLUMN first_token_ms integer;
