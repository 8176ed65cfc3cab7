import type { Sql } from 'postgres';
import type { ModelProvider } from '../../ai';
import { probeSchema, type SchemaFinding, type SchemaFindings } from '../../ai/schema-probe';
import {
  probedModelKey as keyOf,
  type ProbedModel,
  SchemaProbesRepository,
} from './schema-probes-repository';

const probedModelOf = (provider: ModelProvider): ProbedModel | null =>
  provider.schemaProbe
    ? { provider: provider.kind, endpoint: provider.schemaProbe.endpoint, model: provider.model }
    : null;

/**
 * What each model does with a JSON schema, found by a probe once per model and endpoint (see probeSchema) and
 * kept in the database, so a restart or another instance does not probe again. Requests that arrive while a
 * model is being probed wait for that one probe.
 */
export class SchemaProbes implements SchemaFindings {
  private readonly repository: SchemaProbesRepository;
  private readonly known = new Map<string, Promise<SchemaFinding | null>>();

  constructor(
    sql: Sql,
    private readonly probe: (provider: ModelProvider) => Promise<SchemaFinding | null> = probeSchema,
  ) {
    this.repository = new SchemaProbesRepository(sql);
  }

  findingFor(provider: ModelProvider): Promise<SchemaFinding | null> {
    const probed = probedModelOf(provider);
    if (!probed) return Promise.resolve(null);
    const key = keyOf(probed);
    const kept = this.known.get(key);
    if (kept) return kept;
    const finding = (async () => {
      const stored = await this.repository.finding(probed);
      if (stored) return stored;
      const found = await this.probe(provider);
      if (found) await this.repository.record(probed, found);
      return found;
    })();
    this.known.set(key, finding);
    // A probe that learnt nothing (or failed) is tried again by the next request.
    finding.then(
      (found) => {
        if (found === null) this.known.delete(key);
      },
      () => this.known.delete(key),
    );
    return finding;
  }

  /**
   * The findings known of the providers' models (in memory or stored), without probing, in one read for those
   * not kept here: null for a model not probed yet, or not probed at all.
   */
  async knownFindings(providers: ModelProvider[]): Promise<(SchemaFinding | null)[]> {
    const probed = providers.map(probedModelOf);
    const unkept = probed.filter(
      (model): model is ProbedModel => model !== null && !this.known.has(keyOf(model)),
    );
    const stored = await this.repository.findings(unkept);
    return Promise.all(
      probed.map(async (model) => {
        if (model === null) return null;
        const kept = this.known.get(keyOf(model));
        return kept ? kept.catch(() => null) : (stored.get(keyOf(model)) ?? null);
      }),
    );
  }
}
