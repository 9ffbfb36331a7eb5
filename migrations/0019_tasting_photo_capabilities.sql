CREATE TABLE `tasting_photo_capabilities` (
	`token` text PRIMARY KEY NOT NULL,
	`tasting_id` integer NOT NULL,
	`photo_path` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tasting_id`) REFERENCES `tastings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tasting_photo_capabilities_tasting_id_unique` ON `tasting_photo_capabilities` (`tasting_id`);