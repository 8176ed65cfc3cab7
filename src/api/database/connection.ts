import postgres, { type Sql } from 'postgres';

/**
 * The one way the server opens PostgreSQL: snake_case columns arrive as camelCase properties and
 * camelCase keys of `sql(object)` helpers become snake_case columns.
 */
export function connect(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 20,
    transform: postgres.camel,
    onnotice: () => {},
    // int8 (positions, counts) as numbers: they stay far below 2^53.
    types: { bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: Number } },
  });
}
