-- Edited by hand after drizzle-kit generate: feed_items.tasting_id cascades (drizzle-kit leaves
-- ON DELETE out of ALTER TABLE ADD ... REFERENCES), so an item goes with its tasting.
ALTER TABLE `feed_items` ADD `tasting_id` integer REFERENCES tastings(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `feed_items_tasting_idx` ON `feed_items` (`tasting_id`) WHERE "feed_items"."tasting_id" is not null;