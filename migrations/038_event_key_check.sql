-- The key check: an HMAC of a fixed label under the event chain's key (the same HMAC as the events' hashes,
-- over nothing but the label), stored by the first start of a server that has the key. A later start, the
-- record check and the events tool compare it with their own key's: under another APP_SECRET they say the key
-- does not match this database's records, rather than find every record changed at its first event. It gives
-- nothing of the key away. One row at most.
CREATE TABLE event_key_check (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  check_value bytea NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION event_key_check_value(key bytea) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT sha256(substring(key FROM 65 FOR 64) || sha256(substring(key FROM 1 FOR 64)
    || convert_to('prompt-flow-workbench/event-chain/key-check/v1', 'UTF8')))
$$;
