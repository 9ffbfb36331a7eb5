-- Fedify's queue of outgoing deliveries is the channel 'deliveries' of federation_queue, named
-- for what it carries: "outbox" is the vault's outbox of activities (src/outbox/) and a user's
-- ActivityPub outbox collection. Deliveries waiting in the channel's old name move with it. The
-- column's default stays 'outbox' (the channel of rows queued before there were channels, which
-- this moves too); every row is written with its channel. Written by hand.
UPDATE `federation_queue` SET `channel` = 'deliveries' WHERE `channel` = 'outbox';
