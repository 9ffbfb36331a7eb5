CREATE TABLE `entry_tallies` (
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`rating` integer NOT NULL,
	`in_cellar` integer NOT NULL,
	`subtype` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`user_id`, `type`, `status`, `rating`, `in_cellar`, `subtype`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `maker_tallies` (
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`maker_name` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`user_id`, `type`, `maker_name`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `maker_tallies_top_idx` ON `maker_tallies` (`user_id`,`type`,"n" DESC,`maker_name`);--> statement-breakpoint
CREATE TABLE `maker_totals` (
	`user_id` integer NOT NULL,
	`maker_name` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`user_id`, `maker_name`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `maker_totals_top_idx` ON `maker_totals` (`user_id`,"n" DESC,`maker_name`);
--> statement-breakpoint
-- The tallies above are kept by the triggers below: each insert into, delete from or change of
-- a counted column of `beverages` adds one to the new group and takes one from the old (a
-- group that falls to zero is removed). Entries without a maker count in no maker tally.
CREATE TRIGGER `beverages_tallies_insert` AFTER INSERT ON `beverages` BEGIN
  INSERT INTO `entry_tallies` SELECT new.user_id, new.type, new.status, new.rating, new.in_cellar, new.subtype, 1 WHERE true
    ON CONFLICT DO UPDATE SET n = n + 1;
  INSERT INTO `maker_tallies` SELECT new.user_id, new.type, new.maker_name, 1 WHERE new.maker_name <> ''
    ON CONFLICT DO UPDATE SET n = n + 1;
  INSERT INTO `maker_totals` SELECT new.user_id, new.maker_name, 1 WHERE new.maker_name <> ''
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `beverages_tallies_delete` AFTER DELETE ON `beverages` BEGIN
  DELETE FROM `entry_tallies` WHERE user_id = old.user_id AND type = old.type AND status = old.status AND rating = old.rating AND in_cellar = old.in_cellar AND subtype = old.subtype AND n <= 1;
  UPDATE `entry_tallies` SET n = n - 1 WHERE user_id = old.user_id AND type = old.type AND status = old.status AND rating = old.rating AND in_cellar = old.in_cellar AND subtype = old.subtype;
  DELETE FROM `maker_tallies` WHERE user_id = old.user_id AND type = old.type AND maker_name = old.maker_name AND n <= 1;
  UPDATE `maker_tallies` SET n = n - 1 WHERE user_id = old.user_id AND type = old.type AND maker_name = old.maker_name;
  DELETE FROM `maker_totals` WHERE user_id = old.user_id AND maker_name = old.maker_name AND n <= 1;
  UPDATE `maker_totals` SET n = n - 1 WHERE user_id = old.user_id AND maker_name = old.maker_name;
END;
--> statement-breakpoint
CREATE TRIGGER `beverages_entry_tallies_update` AFTER UPDATE ON `beverages`
  WHEN old.user_id IS NOT new.user_id OR old.type IS NOT new.type OR old.status IS NOT new.status OR old.rating IS NOT new.rating OR old.in_cellar IS NOT new.in_cellar OR old.subtype IS NOT new.subtype BEGIN
  DELETE FROM `entry_tallies` WHERE user_id = old.user_id AND type = old.type AND status = old.status AND rating = old.rating AND in_cellar = old.in_cellar AND subtype = old.subtype AND n <= 1;
  UPDATE `entry_tallies` SET n = n - 1 WHERE user_id = old.user_id AND type = old.type AND status = old.status AND rating = old.rating AND in_cellar = old.in_cellar AND subtype = old.subtype;
  INSERT INTO `entry_tallies` SELECT new.user_id, new.type, new.status, new.rating, new.in_cellar, new.subtype, 1 WHERE true
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `beverages_maker_tallies_update` AFTER UPDATE ON `beverages`
  WHEN old.user_id IS NOT new.user_id OR old.type IS NOT new.type OR old.maker_name IS NOT new.maker_name BEGIN
  DELETE FROM `maker_tallies` WHERE user_id = old.user_id AND type = old.type AND maker_name = old.maker_name AND n <= 1;
  UPDATE `maker_tallies` SET n = n - 1 WHERE user_id = old.user_id AND type = old.type AND maker_name = old.maker_name;
  DELETE FROM `maker_totals` WHERE user_id = old.user_id AND maker_name = old.maker_name AND n <= 1;
  UPDATE `maker_totals` SET n = n - 1 WHERE user_id = old.user_id AND maker_name = old.maker_name;
  INSERT INTO `maker_tallies` SELECT new.user_id, new.type, new.maker_name, 1 WHERE new.maker_name <> ''
    ON CONFLICT DO UPDATE SET n = n + 1;
  INSERT INTO `maker_totals` SELECT new.user_id, new.maker_name, 1 WHERE new.maker_name <> ''
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
INSERT INTO `entry_tallies` SELECT user_id, type, status, rating, in_cellar, subtype, count(*) FROM `beverages` GROUP BY user_id, type, status, rating, in_cellar, subtype;
--> statement-breakpoint
INSERT INTO `maker_tallies` SELECT user_id, type, maker_name, count(*) FROM `beverages` WHERE maker_name <> '' GROUP BY user_id, type, maker_name;
--> statement-breakpoint
INSERT INTO `maker_totals` SELECT user_id, maker_name, count(*) FROM `beverages` WHERE maker_name <> '' GROUP BY user_id, maker_name;
