-- An event's stream row is claimed or created by the same statement that inserts the event (appendToStream,
-- the only writer of either table), and neither table is ever deleted from: the foreign key from events to
-- streams can never fail. It still cost every inserted event a lookup of the stream's key and a row lock the
-- append already holds; without it a batch of ten events appends a fifth faster.
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_stream_id_fkey;
