/** A list query's parameters without the empty filters: the servers' schemas refuse empty values. */
export function queryParams(params: Record<string, string | number | undefined>): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(params).filter(
      (entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
}
