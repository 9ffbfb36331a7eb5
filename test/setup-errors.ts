import { configureLogging } from '../src/logger.ts';

// VAULT_TEST_SHOW_ERRORS=1 prints what the app logs at error level (the cause of a 500, with
// its statement on PostgreSQL) while a test runs: for finding why a test fails, not for CI.
if (process.env.VAULT_TEST_SHOW_ERRORS) await configureLogging('error');
