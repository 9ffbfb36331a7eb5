CREATE TABLE `cheers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` integer NOT NULL,
	`beverage_id` integer,
	`remote_entry_id` integer,
	`activity_uri` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beverage_id`) REFERENCES `beverages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`remote_entry_id`) REFERENCES `remote_entries`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "cheers_one_entry" CHECK(("cheers"."beverage_id" is null) <> ("cheers"."remote_entry_id" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cheers_activity_uri_unique` ON `cheers` (`activity_uri`);--> statement-breakpoint
CREATE UNIQUE INDEX `cheers_beverage_actor_unique` ON `cheers` (`beverage_id`,`actor_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `cheers_remote_entry_actor_unique` ON `cheers` (`remote_entry_id`,`actor_id`);--> statement-breakpoint
CREATE INDEX `cheers_actor_idx` ON `cheers` (`actor_id`);--> statement-breakpoint
CREATE TABLE `comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` integer NOT NULL,
	`beverage_id` integer,
	`remote_entry_id` integer,
	`content` text NOT NULL,
	`uri` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beverage_id`) REFERENCES `beverages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`remote_entry_id`) REFERENCES `remote_entries`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "comments_one_entry" CHECK(("comments"."beverage_id" is null) <> ("comments"."remote_entry_id" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `comments_uri_unique` ON `comments` (`uri`);--> statement-breakpoint
CREATE INDEX `comments_beverage_idx` ON `comments` (`beverage_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `comments_remote_entry_idx` ON `comments` (`remote_entry_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `comments_actor_idx` ON `comments` (`actor_id`);--> statement-breakpoint
ALTER TABLE `notifications` ADD `cheer_id` integer REFERENCES cheers(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `notifications` ADD `comment_id` integer REFERENCES comments(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `notifications_cheer_idx` ON `notifications` (`cheer_id`) WHERE "notifications"."cheer_id" is not null;--> statement-breakpoint
CREATE INDEX `notifications_comment_idx` ON `notifications` (`comment_id`) WHERE "notifications"."comment_id" is not null;