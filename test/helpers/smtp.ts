import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail extends ParsedMail {
  /** RCPT TO addresses of the SMTP envelope (to and cc). */
  envelopeTo: string[];
}

export interface TestMailbox {
  port: number;
  url: string;
  messages: ReceivedMail[];
  /** The first message (already received or arriving within the timeout) the predicate accepts. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  clear(): void;
  stop(): Promise<void>;
}

/**
 * A real SMTP server on loopback (no TLS, no auth) that keeps every message, parsed.
 * Recipients starting with "reject-" are refused with 550; "fail-once-" ones with 451 the first
 * time only, so tests can watch the outbox fail and retry.
 */
export async function startSmtp(): Promise<TestMailbox> {
  const messages: ReceivedMail[] = [];
  const failedOnce = new Set<string>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const recipient = address.address.toLowerCase();
      if (recipient.startsWith('reject-'))
        return callback(Object.assign(new Error(`550 mailbox ${recipient} unavailable`), { responseCode: 550 }));
      if (recipient.startsWith('fail-once-') && !failedOnce.has(recipient)) {
        failedOnce.add(recipient);
        return callback(Object.assign(new Error(`451 try ${recipient} again later`), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push(
            Object.assign(parsed, { envelopeTo: session.envelope.rcptTo.map((r) => r.address.toLowerCase()) }),
          );
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(
            new Error(
              `no matching mail within ${timeoutMs} ms; received: ${messages.map((m) => `${m.envelopeTo.join(',')} "${m.subject}"`).join('; ') || 'nothing'}`,
            ),
          );
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    clear() {
      messages.length = 0;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
