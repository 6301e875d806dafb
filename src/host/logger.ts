import { pino } from 'pino';
import type { Logger } from '../contract/index.js';

/** JSON logs; tokens, passwords and hashes are redacted wherever they appear. */
export function createLogger(
  level: string,
  destination?: NodeJS.WritableStream,
): Logger & { child(bindings: object): Logger } {
  const options = {
    level,
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'contextToken',
        '*.contextToken',
        'req.headers.authorization',
        'req.headers["suite-context-token"]',
        '*.hash',
        'hash',
        'secret',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
