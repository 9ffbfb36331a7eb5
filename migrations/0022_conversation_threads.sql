CREATE TABLE `received_blocks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`blocker_actor_id` integer NOT NULL,
	`blocked_user_id` integer NOT NULL,
	`activity_uri` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`blocker_actor_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocked_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `received_blocks_user_idx` ON `received_blocks` (`blocked_user_id`,`blocker_actor_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `received_blocks_pair_unique` ON `received_blocks` (`blocker_actor_id`,`blocked_user_id`);--> statement-breakpoint
CREATE TABLE `comment_addressees` (
	`comment_id` integer NOT NULL,
	`actor_id` integer NOT NULL,
	`mentioned` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`comment_id`, `actor_id`),
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comment_addressees_actor_idx` ON `comment_addressees` (`actor_id`);--> statement-breakpoint
CREATE TABLE `comment_cheers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`comment_id` integer NOT NULL,
	`actor_id` integer NOT NULL,
	`activity_uri` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `comment_cheers_activity_uri_unique` ON `comment_cheers` (`activity_uri`);--> statement-breakpoint
CREATE UNIQUE INDEX `comment_cheers_comment_actor_unique` ON `comment_cheers` (`comment_id`,`actor_id`);--> statement-breakpoint
CREATE INDEX `comment_cheers_actor_idx` ON `comment_cheers` (`actor_id`);--> statement-breakpoint
ALTER TABLE `comments` ADD `parent_id` integer REFERENCES comments(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `comments` ADD `audience` text DEFAULT 'PUBLIC' NOT NULL;--> statement-breakpoint
ALTER TABLE `comments` ADD `deleted_at` integer;--> statement-breakpoint
CREATE INDEX `comments_parent_idx` ON `comments` (`parent_id`) WHERE "comments"."parent_id" is not null;--> statement-breakpoint
ALTER TABLE `notifications` ADD `comment_cheer_id` integer REFERENCES comment_cheers(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `notifications` ADD `url` text;--> statement-breakpoint
CREATE INDEX `notifications_comment_cheer_idx` ON `notifications` (`comment_cheer_id`) WHERE "notifications"."comment_cheer_id" is not null;