CREATE TABLE `bottle_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`beverage_id` integer,
	`kind` text NOT NULL,
	`change` integer NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `bottle_events_user_at_idx` ON `bottle_events` (`user_id`,`at`);--> statement-breakpoint
CREATE TABLE `bottles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`beverage_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`size_ml` integer NOT NULL,
	`vintage` integer,
	`place_id` integer,
	`purchased_on` text,
	`price_minor` integer,
	`currency` text,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`beverage_id`) REFERENCES `beverages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`place_id`) REFERENCES `places`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `bottles_beverage_idx` ON `bottles` (`beverage_id`);--> statement-breakpoint
CREATE INDEX `bottles_user_place_idx` ON `bottles` (`user_id`,`place_id`);--> statement-breakpoint
CREATE TABLE `places` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`parent_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `places_user_parent_idx` ON `places` (`user_id`,`parent_id`);--> statement-breakpoint
CREATE TABLE `tastings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`beverage_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`tasted_on` text NOT NULL,
	`rating` integer,
	`notes` text DEFAULT '' NOT NULL,
	`photo_path` text,
	`vintage` integer,
	`opened` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`beverage_id`) REFERENCES `beverages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tastings_beverage_idx` ON `tastings` (`beverage_id`,`tasted_on`,`id`);--> statement-breakpoint
CREATE INDEX `tastings_user_idx` ON `tastings` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `tastings_photo_path_idx` ON `tastings` (`photo_path`);--> statement-breakpoint
ALTER TABLE `beverages` ADD `drink_from` integer;--> statement-breakpoint
ALTER TABLE `beverages` ADD `drink_until` integer;