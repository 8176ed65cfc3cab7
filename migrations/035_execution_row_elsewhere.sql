-- A command changes its execution's row element by element from the state it decided on, stating the stream
-- position that state reflects. When the row is at another position it no longer holds that state, and a
-- change applied to it would carry the difference on into every later change: the statement raises this
-- instead, and the command is written again with the row whole from the log's state.
CREATE FUNCTION execution_row_elsewhere(id uuid, expected bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The executions row % is not at stream position %', id, expected
    USING ERRCODE = 'WBRME';
END
$$;
