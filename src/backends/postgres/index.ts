export { postgresMemFactory, createPostgresMemFactory } from './postgres-mem-factory.ts';
export { postgresUrlFactory } from './postgres-url-factory.ts';
export {
  resolvePostgresUrl,
  parseDotEnv,
  urlInEnvFile,
  urlInShell,
  type ResolvedUrl,
  type UrlSource,
} from './resolve-url.ts';
export { redact, REDACTED } from './redact.ts';
export { PostgresStore } from './postgres-store.ts';
export { DDL, SCHEMA_VERSION, CORE_TABLES } from './ddl.ts';
export { SCOPE_CHAIN_SQL } from './scope-chain-sql.ts';
export { caseDatabaseName, parseUrl } from './case-database.ts';
export { PG_MEM_CAPABILITIES, PG_SERVER_CAPABILITIES } from './capabilities.ts';
export { openReadOnlyReader, openRebuildSession, probingReader, type SchemaReader } from './schema-reader.ts';
