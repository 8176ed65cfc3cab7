import type { Sql } from 'postgres';
import type { SchemaFinding } from '../../ai/schema-probe';

/** One probed model: its provider, the address it is answered at, and its name there. */
export interface ProbedModel {
  provider: string;
  endpoint: string;
  model: string;
}

/** What names a probed model among others. */
export const probedModelKey = ({ provider, endpoint, model }: ProbedModel) =>
  JSON.stringify([provider, endpoint, model]);

/** The probe findings (`schema_probes`), shared by every instance. */
export class SchemaProbesRepository {
  constructor(private readonly sql: Sql) {}

  async finding({ provider, endpoint, model }: ProbedModel): Promise<SchemaFinding | null> {
    const [row] = await this.sql<{ finding: SchemaFinding }[]>`
      SELECT finding FROM schema_probes
      WHERE provider = ${provider} AND endpoint = ${endpoint} AND model = ${model}`;
    return row?.finding ?? null;
  }

  /** The findings of the models that have one, in one read: by keyOf. */
  async findings(models: ProbedModel[]): Promise<Map<string, SchemaFinding>> {
    if (models.length === 0) return new Map();
    const rows = await this.sql<(ProbedModel & { finding: SchemaFinding })[]>`
      SELECT p.provider, p.endpoint, p.model, p.finding
      FROM unnest(${models.map((m) => m.provider)}::text[], ${models.map((m) => m.endpoint)}::text[],
                  ${models.map((m) => m.model)}::text[]) AS asked (provider, endpoint, model)
      JOIN schema_probes p USING (provider, endpoint, model)`;
    return new Map(rows.map((row) => [probedModelKey(row), row.finding]));
  }

  /** Keeps the newest finding for the model. */
  async record({ provider, endpoint, model }: ProbedModel, finding: SchemaFinding): Promise<void> {
    await this.sql`
      INSERT INTO schema_probes (provider, endpoint, model, finding)
      VALUES (${provider}, ${endpoint}, ${model}, ${finding})
      ON CONFLICT (provider, endpoint, model) DO UPDATE SET finding = EXCLUDED.finding, probed_at = now()`;
  }
}
