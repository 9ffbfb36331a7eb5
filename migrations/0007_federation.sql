-- Edited by hand after drizzle-kit generate: the rebuilt feed_items takes NULL for the new
-- remote_entry_id (drizzle-kit selected the column from the old table, which lacks it), its CHECK
-- names columns unqualified (not the temporary table), and activities.remote_entry_id cascades.
CREATE TABLE `photo_capabilities` (
	`token` text PRIMARY KEY NOT NULL,
	`beverage_id` integer NOT NULL,
	`photo_path` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`beverage_id`) REFERENCES `beverages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `photo_capabilities_beverage_id_unique` ON `photo_capabilities` (`beverage_id`);--> statement-breakpoint
CREATE TABLE `remote_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` integer NOT NULL,
	`note_uri` text NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`subtype` text NOT NULL,
	`maker_name` text DEFAULT '' NOT NULL,
	`rating` integer NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`photo_url` text,
	`photo_path` text,
	`published_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `remote_entries_note_uri_unique` ON `remote_entries` (`note_uri`);--> statement-breakpoint
CREATE INDEX `remote_entries_actor_idx` ON `remote_entries` (`actor_id`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_feed_items` (
	`recipient_id` integer NOT NULL,
	`activity_id` integer NOT NULL,
	`actor_id` integer NOT NULL,
	`beverage_id` integer,
	`remote_entry_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`recipient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beverage_id`) REFERENCES `beverages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`remote_entry_id`) REFERENCES `remote_entries`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "feed_items_one_entry" CHECK((beverage_id is null) <> (remote_entry_id is null))
);
--> statement-breakpoint
INSERT INTO `__new_feed_items`("recipient_id", "activity_id", "actor_id", "beverage_id", "remote_entry_id", "created_at") SELECT "recipient_id", "activity_id", "actor_id", "beverage_id", NULL, "created_at" FROM `feed_items`;--> statement-breakpoint
DROP TABLE `feed_items`;--> statement-breakpoint
ALTER TABLE `__new_feed_items` RENAME TO `feed_items`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `feed_items_page_idx` ON `feed_items` (`recipient_id`,`created_at`,`activity_id`);--> statement-breakpoint
CREATE INDEX `feed_items_actor_idx` ON `feed_items` (`recipient_id`,`actor_id`);--> statement-breakpoint
CREATE INDEX `feed_items_beverage_idx` ON `feed_items` (`beverage_id`);--> statement-breakpoint
CREATE INDEX `feed_items_remote_entry_idx` ON `feed_items` (`remote_entry_id`);--> statement-breakpoint
ALTER TABLE `activities` ADD `remote_entry_id` integer REFERENCES remote_entries(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `actors` ADD `fetched_at` integer;