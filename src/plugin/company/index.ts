/**
 * The company add-on's front door for the other add-ons: the employee directory, organisation units
 * (their tree, memberships and what hangs on a unit), the acting context of a buyer outside a
 * request and the checkout-method checks. Its parts (units, addresses, checkout methods) register
 * themselves through their own index.ts.
 */
export { actingContext } from './acting-context.js';
export { approvalRequiredError } from './approval-required.js';
export { assertChosenMethods } from './checkout-methods/service.js';
export { findEmployees, holds, isAdmin, listEmployees, type DirectoryEmployee } from './employee-directory.js';
export {
  depthFirst,
  managersOfUnit,
  unitCompany,
  unitScopeOfEmployee,
  unitsOfEmployee,
  unitTree,
  withAncestors,
} from './units/directory.js';
export { findUnit, replaceUnitRules, ruleIdsOfUnit } from './units/repository.js';
export { unitRoutes } from './units/routes.js';
