-- Written by hand (drizzle-kit generate --custom): the statistics' tallies kept by triggers on
-- `beverages`, as migrations/0009_stats_tallies.sql keeps them on SQLite. Each insert into,
-- delete from or change of a counted column of `beverages` adds one to the new group and takes
-- one from the old (a group that falls to zero is removed). Entries without a maker count in no
-- maker tally.
CREATE FUNCTION vault_tallies_remove(o beverages, entries boolean, makers boolean) RETURNS void AS $$
BEGIN
  IF entries THEN
    DELETE FROM entry_tallies WHERE user_id = o.user_id AND type = o.type AND status = o.status AND rating = o.rating AND in_cellar = o.in_cellar AND subtype = o.subtype AND n <= 1;
    UPDATE entry_tallies SET n = n - 1 WHERE user_id = o.user_id AND type = o.type AND status = o.status AND rating = o.rating AND in_cellar = o.in_cellar AND subtype = o.subtype;
  END IF;
  IF makers THEN
    DELETE FROM maker_tallies WHERE user_id = o.user_id AND type = o.type AND maker_name = o.maker_name AND n <= 1;
    UPDATE maker_tallies SET n = n - 1 WHERE user_id = o.user_id AND type = o.type AND maker_name = o.maker_name;
    DELETE FROM maker_totals WHERE user_id = o.user_id AND maker_name = o.maker_name AND n <= 1;
    UPDATE maker_totals SET n = n - 1 WHERE user_id = o.user_id AND maker_name = o.maker_name;
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION vault_tallies_add(b beverages, entries boolean, makers boolean) RETURNS void AS $$
BEGIN
  IF entries THEN
    INSERT INTO entry_tallies VALUES (b.user_id, b.type, b.status, b.rating, b.in_cellar, b.subtype, 1)
      ON CONFLICT (user_id, type, status, rating, in_cellar, subtype) DO UPDATE SET n = entry_tallies.n + 1;
  END IF;
  IF makers AND b.maker_name <> '' THEN
    INSERT INTO maker_tallies VALUES (b.user_id, b.type, b.maker_name, 1)
      ON CONFLICT (user_id, type, maker_name) DO UPDATE SET n = maker_tallies.n + 1;
    INSERT INTO maker_totals VALUES (b.user_id, b.maker_name, 1)
      ON CONFLICT (user_id, maker_name) DO UPDATE SET n = maker_totals.n + 1;
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION vault_tallies() RETURNS trigger AS $$
DECLARE
  entry_changed boolean;
  maker_changed boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM vault_tallies_add(NEW, true, true);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM vault_tallies_remove(OLD, true, true);
  ELSE
    entry_changed := (OLD.user_id, OLD.type, OLD.status, OLD.rating, OLD.in_cellar, OLD.subtype)
      IS DISTINCT FROM (NEW.user_id, NEW.type, NEW.status, NEW.rating, NEW.in_cellar, NEW.subtype);
    maker_changed := (OLD.user_id, OLD.type, OLD.maker_name)
      IS DISTINCT FROM (NEW.user_id, NEW.type, NEW.maker_name);
    PERFORM vault_tallies_remove(OLD, entry_changed, maker_changed);
    PERFORM vault_tallies_add(NEW, entry_changed, maker_changed);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER beverages_tallies AFTER INSERT OR UPDATE OR DELETE ON beverages
  FOR EACH ROW EXECUTE FUNCTION vault_tallies();
