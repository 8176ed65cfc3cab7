-- Each event's hash covers the event alone, no longer its stream's previous hash, and the statement that
-- appends it computes it (src/eventstore/append-to-stream.ts): the per-row trigger of 019, with its PL/pgSQL
-- call and its index lookup of the previous hash, is gone. The Merkle log over all events proves their order,
-- a removed event and a cut tail to anyone; the keyed hash still makes a changed, moved or forged event fail
-- at its own position for whoever has database access but not APP_SECRET.
DROP TRIGGER events_chain ON events;
DROP FUNCTION events_chain();

-- STABLE, as what they call is (convert_to, jsonb_build_array): PostgreSQL then inlines the function into the
-- statement that calls it, where an IMMUTABLE one with a STABLE body is called as a function for every row.
-- HMAC-SHA256 (the pad keys of event_chain_key(), as in 019) of a fixed 32-byte label followed by the event's
-- content as the JSON array of 019, in jsonb's canonical text. The label stands where a chained hash has its
-- previous hash (32 bytes too), so a message of one kind is never one of the other: a hash of one kind cannot
-- be passed off as the other's for different content.
CREATE FUNCTION event_hash(
  key bytea, stream_id text, stream_position bigint, event_type text, metadata jsonb, data jsonb
) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT sha256(substring(key FROM 65 FOR 64) || sha256(substring(key FROM 1 FOR 64)
    || convert_to('prompt-flow-workbench/event-hash', 'UTF8')
    || convert_to(jsonb_build_array(stream_id, stream_position, event_type, metadata ->> 'userId',
                                    metadata ->> 'at', data)::text, 'UTF8')))
$$;

-- Whether an event's stored hash checks: the hash of its own content (every event appended since this
-- migration), or the chained hash of 019 over `previous`, its stream's stored hash before it (the events
-- recorded before; NULL at a stream's first event). Both need the key; verify-stream.ts and key-check.ts ask
-- this and nothing else.
CREATE FUNCTION event_hash_checks(
  key bytea, hash bytea, previous bytea, stream_id text, stream_position bigint, event_type text,
  metadata jsonb, data jsonb
) RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN hash IS NULL THEN false
    WHEN hash = event_hash(key, stream_id, stream_position, event_type, metadata, data) THEN true
    ELSE hash = event_chain_hash(key, previous, stream_id, stream_position, event_type, metadata, data)
  END
$$;

-- An event inserted without its hash is refused, as the trigger refused it: without the key, for want of it
-- (event_chain_key() says so); with it, because the statement that appends an event computes its hash.
CREATE FUNCTION event_hash_not_given() RETURNS bytea LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM event_chain_key();
  RAISE EXCEPTION 'An event is inserted with its hash, event_hash(...), computed by the statement that appends it'
    USING ERRCODE = '23502';
END $$;

-- The same for 019's chained hash, which verify still computes for the events recorded before.
ALTER FUNCTION event_chain_hash(bytea, bytea, text, bigint, text, jsonb, jsonb) STABLE;

ALTER TABLE events ALTER COLUMN hash SET DEFAULT event_hash_not_given();
