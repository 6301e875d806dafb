import { Errors } from '../../lib/errors.js';
import { toDbTime } from '../../lib/time.js';

/**
 * A valid date-time can still fall outside what MySQL's DATETIME stores once moved to UTC
 * ('9999-12-31T23:00:00-05:00'): refuse it as input instead of failing in the database.
 */
export function storableTime(value: string, pointer: string): string {
  const year = new Date(value).getUTCFullYear();
  if (!(year >= 1000 && year <= 9999))
    throw Errors.badRequest('SUITE__INVALID_DATE', 'Dates must lie between the years 1000 and 9999 (UTC).', {
      pointer,
    });
  return toDbTime(value);
}
