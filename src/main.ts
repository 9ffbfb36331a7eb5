import { ConfigError, loadConfig } from './config.ts';
import { configureLogging, logger } from './logger.ts';
import { startVault } from './server.ts';

// Entry point of `npm start`: configuration, logging, the server, and a clean shutdown.
let config;
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
const vault = await startVault(config);
logger.info('The vault is listening on port {port}; public origin {origin}', {
  port: vault.port,
  origin: config.origin,
});

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info('Received {signal}, shutting down', { signal });
    vault.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('Shutdown failed: {error}', { error });
        process.exit(1);
      },
    );
  });
}
