-- Full-text search over entries: an FTS5 index with the trigram tokenizer (substring matches,
-- case- and accent-insensitive), kept in step with the beverages table by triggers.
CREATE VIRTUAL TABLE `beverages_fts` USING fts5(
	name, subtype, maker_name, notes,
	content='beverages', content_rowid='id',
	tokenize='trigram remove_diacritics 1'
);
--> statement-breakpoint
CREATE TRIGGER `beverages_fts_after_insert` AFTER INSERT ON `beverages` BEGIN
	INSERT INTO beverages_fts(rowid, name, subtype, maker_name, notes)
	VALUES (new.id, new.name, new.subtype, new.maker_name, new.notes);
END;
--> statement-breakpoint
CREATE TRIGGER `beverages_fts_after_delete` AFTER DELETE ON `beverages` BEGIN
	INSERT INTO beverages_fts(beverages_fts, rowid, name, subtype, maker_name, notes)
	VALUES ('delete', old.id, old.name, old.subtype, old.maker_name, old.notes);
END;
--> statement-breakpoint
CREATE TRIGGER `beverages_fts_after_update` AFTER UPDATE OF name, subtype, maker_name, notes ON `beverages` BEGIN
	INSERT INTO beverages_fts(beverages_fts, rowid, name, subtype, maker_name, notes)
	VALUES ('delete', old.id, old.name, old.subtype, old.maker_name, old.notes);
	INSERT INTO beverages_fts(rowid, name, subtype, maker_name, notes)
	VALUES (new.id, new.name, new.subtype, new.maker_name, new.notes);
END;
--> statement-breakpoint
INSERT INTO beverages_fts(beverages_fts) VALUES ('rebuild');
