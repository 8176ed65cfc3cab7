-- A record that proves itself: every event carries a hash over its stream's previous hash and its own content
-- (stream, position, type, actor, time, data), keyed with a secret derived from APP_SECRET. The key reaches a
-- session only as the connection setting `workbench.event_key` (the two 64-byte HMAC pad keys, in hex), which
-- the server's connections carry: with database access alone a stream cannot be rewritten with hashes that
-- still check.
ALTER TABLE events ADD COLUMN hash bytea;

-- The session's event key; an error when the connection was opened without it (events are appended and checked
-- by the server and its tools only).
CREATE FUNCTION event_chain_key() RETURNS bytea LANGUAGE plpgsql STABLE AS $$
DECLARE
  given text := current_setting('workbench.event_key', true);
BEGIN
  IF given IS NULL OR length(given) <> 256 THEN
    RAISE EXCEPTION 'This connection has no event key: events are appended and checked by the server only'
      USING ERRCODE = '42501';
  END IF;
  RETURN decode(given, 'hex');
END $$;

-- HMAC-SHA256 as sha256(outer pad key || sha256(inner pad key || message)), the pad keys being the key's two
-- halves. The message: the previous hash (none at a stream's first event) and the event's content as a JSON
-- array, whose text form is canonical (jsonb).
CREATE FUNCTION event_chain_hash(
  key bytea, previous bytea, stream_id text, stream_position bigint, event_type text, metadata jsonb, data jsonb
) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT sha256(substring(key FROM 65 FOR 64) || sha256(substring(key FROM 1 FOR 64)
    || coalesce(previous, ''::bytea)
    || convert_to(jsonb_build_array(stream_id, stream_position, event_type, metadata ->> 'userId',
                                    metadata ->> 'at', data)::text, 'UTF8')))
$$;

-- Each inserted event is chained to the one before it in its stream (earlier rows of the same statement are
-- visible here, and appends insert in position order). A hash given with the row is kept: a restore copies them.
CREATE FUNCTION events_chain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.hash IS NOT NULL THEN
    RETURN NEW;
  END IF;
  NEW.hash := event_chain_hash(
    event_chain_key(),
    (SELECT e.hash FROM events e WHERE e.stream_id = NEW.stream_id AND e.stream_position = NEW.stream_position - 1),
    NEW.stream_id, NEW.stream_position, NEW.event_type, NEW.metadata, NEW.data);
  RETURN NEW;
END $$;

CREATE TRIGGER events_chain BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_chain();

-- The events recorded before the chain existed are chained now, once, with the migrating connection's key;
-- an event that arrives later without a hash stays without one, and checks as changed.
DO $$
DECLARE
  key bytea;
  event record;
  previous bytea;
  stream text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM events) THEN
    RETURN;
  END IF;
  key := event_chain_key();
  FOR event IN
    SELECT stream_id, stream_position, event_type, metadata, data FROM events ORDER BY stream_id, stream_position
  LOOP
    IF stream IS DISTINCT FROM event.stream_id THEN
      previous := NULL;
      stream := event.stream_id;
    END IF;
    previous := event_chain_hash(key, previous, event.stream_id, event.stream_position, event.event_type,
                                 event.metadata, event.data);
    UPDATE events SET hash = previous
      WHERE stream_id = event.stream_id AND stream_position = event.stream_position;
  END LOOP;
END $$;
