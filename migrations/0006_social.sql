CREATE TABLE `activities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` integer NOT NULL,
	`type` text NOT NULL,
	`beverage_id` integer,
	`object_actor_id` integer,
	`share_id` integer,
	`payload` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beverage_id`) REFERENCES `beverages`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`object_actor_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`share_id`) REFERENCES `shares`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `activities_actor_idx` ON `activities` (`actor_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `actors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer,
	`uri` text,
	`inbox_url` text,
	`shared_inbox_url` text,
	`display_name` text DEFAULT '' NOT NULL,
	`handle` text,
	`summary` text DEFAULT '' NOT NULL,
	`avatar_url` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `actors_user_id_unique` ON `actors` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `actors_uri_unique` ON `actors` (`uri`);--> statement-breakpoint
CREATE TABLE `feed_items` (
	`recipient_id` integer NOT NULL,
	`activity_id` integer NOT NULL,
	`actor_id` integer NOT NULL,
	`beverage_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`recipient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beverage_id`) REFERENCES `beverages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `feed_items_page_idx` ON `feed_items` (`recipient_id`,`created_at`,`activity_id`);--> statement-breakpoint
CREATE INDEX `feed_items_actor_idx` ON `feed_items` (`recipient_id`,`actor_id`);--> statement-breakpoint
CREATE INDEX `feed_items_beverage_idx` ON `feed_items` (`beverage_id`);--> statement-breakpoint
CREATE TABLE `follows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`follower_id` integer NOT NULL,
	`followed_id` integer NOT NULL,
	`state` text NOT NULL,
	`activity_uri` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`follower_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`followed_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `follows_followed_idx` ON `follows` (`followed_id`,`state`,`follower_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `follows_pair_unique` ON `follows` (`follower_id`,`followed_id`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`recipient_id` integer NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`sender_id` integer NOT NULL,
	`activity_id` integer,
	`beverage_id` integer,
	`share_id` integer,
	`message` text,
	`created_at` integer NOT NULL,
	`responded_at` integer,
	FOREIGN KEY (`recipient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_id`) REFERENCES `actors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`beverage_id`) REFERENCES `beverages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`share_id`) REFERENCES `shares`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `notifications_recipient_idx` ON `notifications` (`recipient_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_activity_unique` ON `notifications` (`activity_id`,`recipient_id`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`activity_id` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`progress` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `outbox_due_idx` ON `outbox` (`next_attempt_at`,`id`);--> statement-breakpoint
CREATE TABLE `shares` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`beverage_id` integer NOT NULL,
	`recipient_id` integer NOT NULL,
	`shared_by_id` integer NOT NULL,
	`state` text NOT NULL,
	`list_status` text,
	`message` text,
	`created_at` integer NOT NULL,
	`accepted_at` integer,
	FOREIGN KEY (`beverage_id`) REFERENCES `beverages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recipient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shared_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shares_recipient_idx` ON `shares` (`recipient_id`,`state`,`accepted_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `shares_entry_recipient_unique` ON `shares` (`beverage_id`,`recipient_id`);