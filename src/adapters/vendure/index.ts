export { SuiteB2BPlugin, SuiteB2BVendurePlugin, databaseUrlOf } from './plugin.js';
export { SuiteB2BSearchStrategy } from './search-strategy.js';
export type { AdapterOptions } from './state.js';
export { ADMIN_PERMISSION, CONTEXT_TOKEN_HEADER } from './store-api.js';
export { NOT_SUPPORTED_CODE } from './unsupported.js';
export { idMapper } from './ids.js';
export { SuiteB2BMailEvent } from './mail-event.js';
export {
  SuiteB2BTables1796601600000,
  suiteB2BMigrations,
  dropSuiteB2BTables,
  createSuiteB2BTables,
  type TablesMigratedBy,
} from './migrations.js';
