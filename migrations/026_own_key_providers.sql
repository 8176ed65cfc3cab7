-- An own key of an OpenAI-compatible endpoint keeps the endpoint's address (the other types have none: they
-- go where the server sends their provider's models). key_type was always 'gemini' until now.
ALTER TABLE user_api_keys ADD COLUMN base_url text;
ALTER TABLE user_api_keys ADD CONSTRAINT user_api_keys_key_type
  CHECK (key_type IN ('gemini', 'openai', 'anthropic', 'openai-compatible'));
-- A run looks up the user's newest active key of the types that answer its model.
CREATE INDEX user_api_keys_user_type_idx ON user_api_keys (user_id, key_type, created_at DESC) WHERE is_active;
