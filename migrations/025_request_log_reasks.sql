-- How many times a model was asked again for an answer that fit its step's format.
ALTER TABLE ai_request_logs ADD COLUMN reasks int NOT NULL DEFAULT 0;
