/** knex's dialect classes, subclassed in db.ts to bound statements and re-open SQLite safely. */
declare module 'knex/lib/dialects/mysql2/index.js' {
  const Client: new (config: unknown) => object;
  export default Client;
}
declare module 'knex/lib/dialects/better-sqlite3/index.js' {
  const Client: new (config: unknown) => object;
  export default Client;
}
