import net from 'node:net';
import { reset, type LogRecord } from '@logtape/logtape';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedLine } from '../../src/logger.ts';
import { captureLogs } from '../helpers/logs.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const logged: LogRecord[] = [];

beforeAll(async () => {
  // Warnings and errors only: the server's own routine lines (the uploads sweep a second after
  // start, which a busy machine can push into a test) are not what is checked.
  await captureLogs('warning', logged);
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
  await reset();
});

/** Opens a raw connection, writes `head` (and `body` if given), and collects what comes back. */
function rawExchange(
  head: string,
  options: { body?: string; abortAfterMs?: number } = {},
): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (received.includes('\r\n\r\n') && options.abortAfterMs === undefined) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(head);
    if (options.body !== undefined) socket.write(options.body);
    if (options.abortAfterMs !== undefined) {
      setTimeout(() => socket.destroy(), options.abortAfterMs);
    }
  });
}

describe('over a real socket', () => {
  it('answers 413 at once to a delivery that declares 64 MB, without waiting for the body', async () => {
    const host = new URL(server.url).host;
    for (const path of ['/inbox', '/users/alice/inbox', '/api/auth/login']) {
      const response = await rawExchange(
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
          `Signature: keyId="x"\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`,
        { body: '{"type":"Create"' },
      );
      expect(response, path).toMatch(/^HTTP\/1\.1 413 /);
      expect(response).toContain('The request body is too large: at most 1 MB');
    }
  });

  it('logs no error when a client aborts a chunked sign-in body half-way, and keeps serving', async () => {
    logged.length = 0;
    const host = new URL(server.url).host;
    await rawExchange(
      `POST /api/auth/login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n`,
      { body: '10\r\n{"username":"adm', abortAfterMs: 100 },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logged.map(boundedLine)).toEqual([]);
    const after = await fetch(`${server.url}/api/auth/me`);
    expect(after.status).toBe(401);
  });
});
