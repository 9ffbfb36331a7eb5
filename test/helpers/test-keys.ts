/**
 * The size of actor keys in tests (VAULT_RSA_KEY_BITS): 2048 bits, as Mastodon makes them. A
 * 4096-bit key, the production default, takes a second or more to make, and tests make many;
 * test/federation/actors.test.ts checks the default.
 */
export const TEST_RSA_KEY_BITS = '2048';
