CREATE TABLE `beverages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`subtype` text NOT NULL,
	`maker_name` text DEFAULT '' NOT NULL,
	`rating` integer NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`in_cellar` integer DEFAULT false NOT NULL,
	`photo_path` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `beverages_user_type_status_idx` ON `beverages` (`user_id`,`type`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `beverages_user_created_idx` ON `beverages` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `beverages_user_cellar_idx` ON `beverages` (`user_id`,`in_cellar`,`created_at`,`id`);