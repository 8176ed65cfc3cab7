-- What a probe found of each model's JSON schema parameter: enforced, ignored or refused. Probed once per
-- model and endpoint, by whichever instance asks first; kept across restarts.
CREATE TABLE schema_probes (
  provider text NOT NULL,
  endpoint text NOT NULL,
  model text NOT NULL,
  finding text NOT NULL CHECK (finding IN ('enforced', 'ignored', 'refused')),
  probed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, endpoint, model)
);
