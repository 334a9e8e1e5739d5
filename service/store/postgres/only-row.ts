import type { QueryResult, QueryResultRow } from 'pg';

/** The row a statement always returns (an INSERT … RETURNING, a SELECT of aggregates). */
export function onlyRow<Row extends QueryResultRow>(result: QueryResult<Row>): Row {
  const row = result.rows[0];
  if (row === undefined) throw new Error('the statement returned no row');
  return row;
}
