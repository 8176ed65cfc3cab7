-- A step's model (provider:name); null: the server's default.
ALTER TABLE steps ADD COLUMN model text;
