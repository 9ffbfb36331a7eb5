-- Search runs on an in-memory index of each owner's entries (src/beverages/search-index.ts):
-- the trigram full-text table and the triggers that kept it in step are no longer read.
DROP TRIGGER IF EXISTS `beverages_fts_after_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `beverages_fts_after_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `beverages_fts_after_update`;
--> statement-breakpoint
DROP TABLE IF EXISTS `beverages_fts`;
