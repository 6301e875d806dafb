import { pino } from 'pino';
import type { Logger } from './contract.js';

/** JSON logs; tokens, passwords and hashes are redacted wherever they appear. */
export function createLogger(level: string): Logger & { child(bindings: object): Logger } {
  return pino({
    level,
    redact: {
      paths: ['password', '*.password', 'token', '*.token', 'contextToken', '*.contextToken', 'req.headers.authorization', 'req.headers["suite-context-token"]', '*.hash', 'hash', 'secret', '*.secret'],
      censor: '[redacted]',
    },
  }) as unknown as Logger & { child(bindings: object): Logger };
}
