import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_APP_SECRET } from '../../helpers/shop.js';
import { spawnServer } from '../../helpers/server-process.js';

/** What an operator sees on stderr: exactly one line, no stack. */
async function startupFailure(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const server = spawnServer({ LOG_LEVEL: 'warn', WORKERS: '0', APP_SECRET: TEST_APP_SECRET, ...env });
  const exit = await server.exited;
  return {
    code: exit.code,
    stderr: server
      .stderr()
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('npm warn'))
      .join('\n'),
  };
}

describe('host: start-up errors', function () {
  this.timeout(60000);
  let varDir = '';
  before(() => (varDir = mkdtempSync(join(tmpdir(), 'suite-startup-'))));
  after(() => rmSync(varDir, { recursive: true, force: true }));

  it('a port already in use is one clear line', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const { code, stderr } = await startupFailure({
        PORT: String(port),
        DATABASE_URL: `sqlite:${join(varDir, 'port.sqlite')}`,
        VAR_DIR: varDir,
      });
      expect(code).to.equal(1);
      expect(stderr).to.equal(
        `Suite B2B could not start: port ${port} is already in use; stop the other process or set PORT to a free port`,
      );
    } finally {
      blocker.close();
    }
  });

  it('an unreachable database is one clear line, without the driver stack and without the password', async () => {
    const { code, stderr } = await startupFailure({
      PORT: '0',
      DATABASE_URL: 'mysql://shop:s3cret-pass@127.0.0.1:1/shop',
      VAR_DIR: varDir,
    });
    expect(code).to.equal(1);
    expect(stderr).to.equal(
      'Suite B2B could not start: mysql://shop:***@127.0.0.1:1/shop cannot be reached (ECONNREFUSED); is the database server running?',
    );
  });
});
