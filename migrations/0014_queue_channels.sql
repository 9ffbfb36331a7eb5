DROP INDEX `federation_queue_due_idx`;--> statement-breakpoint
ALTER TABLE `federation_queue` ADD `channel` text DEFAULT 'outbox' NOT NULL;--> statement-breakpoint
ALTER TABLE `federation_queue` ADD `host` text;--> statement-breakpoint
CREATE INDEX `federation_queue_host_idx` ON `federation_queue` (`host`,`locked_until`);--> statement-breakpoint
CREATE INDEX `federation_queue_due_idx` ON `federation_queue` (`channel`,`not_before`,`id`);