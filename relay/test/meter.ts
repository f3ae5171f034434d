// env.DB with a meter: the D1 calls (each a query, or a batch of statements), the statements they carry,
// and the rows D1 reads and writes (what the free plan counts, with every index entry looked at).

export interface Meter {
  db: D1Database;
  calls: number;
  statements: number;
  rowsRead: number;
  rowsWritten: number;
}

/** env.DB, counting what goes through it. `first()` is read as `all()`, for its meta: the same query. */
export function metered(db: D1Database): Meter {
  const meter: Meter = { db, calls: 0, statements: 0, rowsRead: 0, rowsWritten: 0 };
  const count = (results: D1Result<unknown>[]): void => {
    for (const r of results) {
      meter.rowsRead += r.meta.rows_read ?? 0;
      meter.rowsWritten += r.meta.rows_written ?? 0;
    }
  };
  const statement = (inner: D1PreparedStatement): D1PreparedStatement => new Proxy(inner, {
    get(target, name) {
      if (name === "bind") return (...values: unknown[]) => statement(target.bind(...values));
      if (name === "all" || name === "run") {
        return async () => {
          meter.calls += 1;
          meter.statements += 1;
          const result = await target.all();
          count([result]);
          return result;
        };
      }
      if (name === "first") {
        return async (column?: string) => {
          meter.calls += 1;
          meter.statements += 1;
          const result = await target.all<Record<string, unknown>>();
          count([result]);
          const row = result.results[0] ?? null;
          return column === undefined || row === null ? row : row[column];
        };
      }
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  meter.db = new Proxy(db, {
    get(target, name) {
      if (name === "prepare") return (sql: string) => statement(target.prepare(sql));
      if (name === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          meter.calls += 1;
          meter.statements += statements.length;
          const results = await target.batch(statements);
          count(results);
          return results;
        };
      }
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return meter;
}
