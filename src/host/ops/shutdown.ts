import type { Server } from 'node:http';
import type { Logger } from '../../contract/index.js';
import type { Health } from './health.js';

export interface GracefulShutdownOptions {
  /** Ready answers 503 this long before the listener closes, so load balancers stop sending first. */
  readyDelayMs: number;
  /** The process exits (code 1) at the latest this long after the signal, whatever is still running. */
  graceMs: number;
  health: Health;
  log: Logger;
  /** Stops the job worker and closes the database pool. */
  close(): Promise<void>;
  exit?: (code: number) => void;
}

/**
 * SIGTERM/SIGINT: ready turns 503 → wait readyDelayMs (requests are still served, each answer says
 * `Connection: close`) → stop listening and close idle keep-alive connections → let in-flight
 * requests finish → stop the worker, close the pool → exit 0. After graceMs: exit 1 regardless.
 */
export function installGracefulShutdown(server: Server, options: GracefulShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    options.health.startDraining();
    options.log.info(
      { signal, readyDelayMs: options.readyDelayMs, graceMs: options.graceMs },
      'shutting down: readiness off, draining',
    );
    setTimeout(() => {
      options.log.error({ signal }, 'shutdown grace period over: exiting with requests still running');
      exit(1);
    }, options.graceMs).unref();
    setTimeout(() => {
      server.close(() => {
        options
          .close()
          .then(() => {
            options.log.info({ ms: Date.now() - started }, 'shut down cleanly');
            exit(0);
          })
          .catch((error: unknown) => {
            options.log.error({ err: String(error) }, 'shutdown: closing failed');
            exit(1);
          });
      });
      server.closeIdleConnections();
    }, options.readyDelayMs).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
