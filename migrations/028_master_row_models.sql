-- A master mode row's model (provider:name), as a flow step has one; null: the server's default.
ALTER TABLE master_mode_steps ADD COLUMN model text;
