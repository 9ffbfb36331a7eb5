-- Answers kept for Idempotency-Key replays by earlier versions held the secrets of the routes
-- that hand one out once (POST /api/tokens: an access token's "secret"; POST /api/totp/setup:
-- the authenticator app's "secret" and "backupCodes"). Such answers are no longer kept
-- (`secretAnswer` in the route table); this deletes those already stored. A kept body is the
-- answer as JSON.stringify wrote it, so a key appears as `"name":` exactly, and the quote before
-- it cannot be one inside a string value (that one is escaped). Written by hand.
DELETE FROM `idempotency_keys` WHERE `body` LIKE '%"secret":%' OR `body` LIKE '%"backupCodes":%';
