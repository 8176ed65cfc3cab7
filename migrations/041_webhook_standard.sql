-- Webhooks signed as Standard Webhooks do, a secret rotated with its predecessor kept for a while, and
-- payloads that name people and flows.
--
-- The secrets stay as they are: one stored before (64 hex characters whose text was the HMAC key) is read as
-- `whsec_` and the base64 of that text (webhook-delivery.ts, standardSecret), the same key bytes, so a
-- receiver's old check holds and its Standard Webhooks secret is derived from the one it has (docs/api.md).
--
-- A rotated secret: the one before it signs deliveries too (a second signature) until `previous_secret_until`.
ALTER TABLE webhooks
  ADD COLUMN previous_secret_sealed text,
  ADD COLUMN previous_secret_until  timestamptz;

-- `review.escalated` said two things; its events are now `review.handedBack` (a person the review named left
-- the workspace) and `review.ownersToo` (too few others may decide it): a webhook that asked for it asks for
-- both.
UPDATE webhooks SET events = ARRAY(
  SELECT DISTINCT e FROM unnest(array_remove(events, 'review.escalated') ||
    ARRAY['review.handedBack', 'review.ownersToo']) AS e ORDER BY e)
WHERE 'review.escalated' = ANY(events);

-- A delivery's data with names: every object with a `userId` gets the person's `name` (their first and last
-- name, null when they have none: never their address), every object with a `flowId` its `flowName`. Read in
-- the transaction that writes the delivery, so the body is fixed then like the rest of it.
CREATE FUNCTION webhook_named(value jsonb) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  result jsonb := '{}'::jsonb;
  k text;
  v jsonb;
BEGIN
  IF jsonb_typeof(value) = 'array' THEN
    SELECT coalesce(jsonb_agg(webhook_named(a.e) ORDER BY a.i), '[]'::jsonb) INTO result
    FROM jsonb_array_elements(value) WITH ORDINALITY AS a(e, i);
    RETURN result;
  END IF;
  IF jsonb_typeof(value) <> 'object' THEN
    RETURN value;
  END IF;
  FOR k, v IN SELECT * FROM jsonb_each(value) LOOP
    result := result || jsonb_build_object(k, webhook_named(v));
  END LOOP;
  IF jsonb_typeof(result -> 'userId') = 'string' AND NOT result ? 'name' THEN
    result := result || jsonb_build_object('name', (
      SELECT nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') FROM users u
      WHERE (result ->> 'userId') ~ '^[0-9a-fA-F-]{36}$' AND u.id = (result ->> 'userId')::uuid));
  END IF;
  IF jsonb_typeof(result -> 'flowId') = 'string' AND NOT result ? 'flowName' THEN
    result := result || jsonb_build_object('flowName', (
      SELECT f.name FROM flows f
      WHERE (result ->> 'flowId') ~ '^[0-9a-fA-F-]{36}$' AND f.id = (result ->> 'flowId')::uuid));
  END IF;
  RETURN result;
END
$$;
