/** knex's internals the database layer builds on: its dialect classes (subclassed in db.ts and sqlite-client.ts to bound statements and re-open SQLite safely) and makeKnex (SQLite transactors). */
declare module 'knex/lib/dialects/mysql2/index.js' {
  const Client: new (config: unknown) => object;
  export default Client;
}
declare module 'knex/lib/dialects/better-sqlite3/index.js' {
  const Client: new (config: unknown) => object;
  export default Client;
}
declare module 'knex/lib/knex-builder/make-knex.js' {
  const makeKnex: (client: object) => unknown;
  export default makeKnex;
}
