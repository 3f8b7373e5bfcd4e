/** What the launcher prints once everything listens. */
export interface BannerFacts {
  gatewayUrl: string;
  database: 'postgres' | 'pglite';
  dataDir: string;
}

/** The start-up text: where the stack answers, what it stores data in, and a few requests to try. */
export function banner({ gatewayUrl, database, dataDir }: BannerFacts): string {
  const storage =
    database === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${dataDir}/ (set DATABASE_URL for PostgreSQL)`;
  return `
switchyard is running
  gateway   ${gatewayUrl}
  database  ${storage}
  API docs  ${gatewayUrl}/docs

Try:
  curl ${gatewayUrl}/
  curl -i -X POST ${gatewayUrl}/books -H 'content-type: application/json' \\
       -d '{"Name":"Dune","Author":"Frank Herbert","Price":9.99,"Year":1965}'
  curl ${gatewayUrl}/books
  curl '${gatewayUrl}/books?limit=20&offset=0&sort=-Year'
  curl -i ${gatewayUrl}/books/1
  curl -i -X PUT ${gatewayUrl}/books -H 'content-type: application/json' -H 'If-Match: "1"' \\
       -d '{"Id":1,"Name":"Dune","Author":"Frank Herbert","Price":12.5,"Year":1965}'
  curl -i -X DELETE ${gatewayUrl}/books/1

Ctrl-C stops everything.
`;
}
