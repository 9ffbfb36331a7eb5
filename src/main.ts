import { flushCompileCache } from 'node:module';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { configureLogging, logger } from './logger.ts';
import { startVault, type RunningVault } from './server.ts';

// Entry point of `npm start`: configuration, logging, the server, and a clean shutdown.
let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
await configureLogging(config.logLevel);

// Signal handlers come first: until one is registered, SIGTERM kills the process outright.
const running: { vault?: RunningVault } = {};
let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info('Received {signal}, shutting down', { signal });
  (running.vault?.close() ?? Promise.resolve()).then(
    () => process.exit(0),
    (error: unknown) => {
      logger.error('Shutdown failed: {error}', { error });
      process.exit(1);
    },
  );
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));

// The first admin's configured password is checked only when that admin is created.
const vault = await startVault(config).catch((error: unknown) => {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
});
running.vault = vault;
if (stopping) {
  // A signal arrived while starting: close what has just opened.
  await vault.close();
  process.exit(0);
}
// With NODE_COMPILE_CACHE set (as `npm start` and the container do), the modules loaded so far
// are written to the cache now rather than at exit, which a killed process never reaches: the
// next start then loads them without TypeScript's stripper (see docs/configuration.md, "Memory").
flushCompileCache();
logger.info('The vault is listening on port {port}; public origin {origin}', {
  port: vault.port,
  origin: config.origin,
});
