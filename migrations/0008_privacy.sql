ALTER TABLE `users` ADD `default_visibility` text DEFAULT 'MEMBERS' NOT NULL;--> statement-breakpoint
ALTER TABLE `beverages` ADD `visibility` text DEFAULT 'MEMBERS' NOT NULL;--> statement-breakpoint
ALTER TABLE `beverages` ADD `federated` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `beverages_photo_path_idx` ON `beverages` (`photo_path`);