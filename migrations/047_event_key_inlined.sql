-- The session's event key as a plain SQL expression, which PostgreSQL inlines into the statement that asks for
-- it (the append, verify, the key check). As a PL/pgSQL function (019) every transaction that called it set up
-- the function's expressions anew: in an append, one transaction of one statement, that was about a tenth of
-- the backend's time. The refusal stays as 019 wrote it, in a PL/pgSQL function called only when the
-- connection has no key (or one of the wrong length). STABLE, as what calls it must be for the inlining: it
-- reads nothing and changes nothing, it only raises.
CREATE FUNCTION event_key_missing() RETURNS bytea LANGUAGE plpgsql STABLE AS $$
BEGIN
  RAISE EXCEPTION 'This connection has no event key: events are appended and checked by the server only'
    USING ERRCODE = '42501';
END $$;

CREATE OR REPLACE FUNCTION event_chain_key() RETURNS bytea LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN length(current_setting('workbench.event_key', true)) = 256
    THEN decode(current_setting('workbench.event_key', true), 'hex')
    ELSE event_key_missing()
  END
$$;
