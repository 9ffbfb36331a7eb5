import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made with openssl in a temporary
 * folder, for servers on loopback that must speak https (handle lookups go over https).
 *
 * Who trusts it:
 * - A child process: start it with `env` (NODE_EXTRA_CA_CERTS). Node reads that variable once,
 *   when the process starts; setting it in process.env of a running process changes nothing.
 * - This process: `trustInThisProcess()` adds the certificate to Node's default CA list
 *   (tls.setDefaultCACertificates), which fetch and node:https use from then on. It lasts until
 *   the process ends, so only a test file that wants it should call it (vitest runs each test
 *   file in its own process).
 * - One request: pass `cert` as `ca` to node:https.
 */
export interface TestCertificate {
  /** The folder holding key.pem and cert.pem. */
  dir: string;
  keyPath: string;
  certPath: string;
  /** PEM texts, for https.createServer({ key, cert }) and a request's `ca`. */
  key: string;
  cert: string;
  /** The file to trust: the certificate is its own certificate authority. */
  caFile: string;
  /** Environment for a child process that must trust the certificate. */
  env: { NODE_EXTRA_CA_CERTS: string };
  trustInThisProcess(): void;
  /** Deletes the folder. */
  remove(): void;
}

/** A new certificate (an EC P-256 key, valid two days, subjectAltName 127.0.0.1 and localhost). */
export function createTestCertificate(): TestCertificate {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-tls-'));
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'pipe' },
  );
  const cert = fs.readFileSync(certPath, 'utf8');
  return {
    dir,
    keyPath,
    certPath,
    key: fs.readFileSync(keyPath, 'utf8'),
    cert,
    caFile: certPath,
    env: { NODE_EXTRA_CA_CERTS: certPath },
    trustInThisProcess() {
      const current = tls.getCACertificates('default');
      if (!current.includes(cert)) tls.setDefaultCACertificates([...current, cert]);
    },
    remove() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let shared: TestCertificate | undefined;

/** One certificate per test process, made on first use and deleted when the process exits. */
export function sharedTestCertificate(): TestCertificate {
  if (!shared) {
    const made = createTestCertificate();
    shared = made;
    process.once('exit', () => made.remove());
  }
  return shared;
}
