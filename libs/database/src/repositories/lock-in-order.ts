/**
 * The CTE `locked`: the rows of `table` (alias `alias`) that the provider updates in `from` (alias `u`,
 * column `wamid`) match under `where`, locked in the order of `key`. Two statements that update some of
 * the same rows (two gateway replicas' status batches) take their locks in one order, so neither holds
 * a row the other waits for while waiting for one the other holds: Postgres would abort one of them as
 * a deadlock. An update that keeps to the rows in `locked` locks none before this CTE has. Each row
 * comes with the `wamid` it matched, so a statement can tell which updates matched a row without looking
 * up the index once more.
 */
export const LOCK_IN_ORDER_SQL = (table: string, alias: string, key: string, from: string, where: string) =>
  `locked AS MATERIALIZED (
     SELECT ${alias}.${key} AS "key", u.wamid AS "wamid" FROM "${table}" AS ${alias} JOIN ${from} AS u ON ${alias}."provider_message_id" = u.wamid
     WHERE ${where} ORDER BY ${alias}.${key} FOR UPDATE OF ${alias}
   )`;
