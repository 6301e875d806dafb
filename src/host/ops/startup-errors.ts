import { classifyDbError } from '../../lib/db.js';

/** The database URL without its password, for messages. */
export function safeDatabaseUrl(url: string): string {
  return url.replace(/^(mysql|mariadb):\/\/([^:@/]*):[^@/]*@/, '$1://$2:***@');
}

/**
 * One clear line for what stopped the start, without the driver's stack: a port in use, a database
 * that cannot be reached or refuses the login, a configuration mistake.
 */
export function describeStartupError(error: unknown, context: { port?: number; databaseUrl?: string }): string {
  const { code, message, syscall } = (error ?? {}) as { code?: unknown; message?: unknown; syscall?: unknown };
  const text = typeof message === 'string' ? message.split('\n')[0]! : String(error);
  if (code === 'EADDRINUSE' && syscall === 'listen')
    return `port ${context.port} is already in use; stop the other process or set PORT to a free port`;
  if (code === 'EACCES' && syscall === 'listen')
    return `port ${context.port} needs privileges this process does not have; set PORT to a port above 1023`;
  const database = context.databaseUrl ? safeDatabaseUrl(context.databaseUrl) : 'the database';
  if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR')
    return `${database} refused the login (${code}); check the user and password in DATABASE_URL`;
  if (code === 'ER_BAD_DB_ERROR') return `${database}: the database does not exist (${code}); create it first`;
  if (classifyDbError(error) === 'unavailable')
    return `${database} cannot be reached (${typeof code === 'string' ? code : text}); is the database server running?`;
  if (typeof code === 'string' && (code.startsWith('ER_') || code.startsWith('SQLITE_')))
    return `${database}: ${code}: ${text.split(' - ').pop()}`;
  return text;
}
