ALTER TABLE "users" ADD COLUMN "change_no" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "users_change_no_idx" ON "users" USING btree ("change_no");--> statement-breakpoint
CREATE SEQUENCE users_change_seq;--> statement-breakpoint
UPDATE users SET change_no = nextval('users_change_seq');--> statement-breakpoint
-- Every new user, and every change of a name or of the account's standing, takes the next change number.
-- The transaction-scoped lock makes the numbers follow commit order: a reader that sees number n committed
-- sees every smaller number that will ever commit, so catching up past the last seen number misses nothing
-- (decision 0075). Such writes are rare (sign-ups, renames, suspensions, closures); they queue on it.
CREATE FUNCTION users_take_change_no() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('users_change_no'));
  NEW.change_no := nextval('users_change_seq');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER users_change_no_on_insert BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION users_take_change_no();--> statement-breakpoint
CREATE TRIGGER users_change_no_on_update BEFORE UPDATE OF username, account_status ON users FOR EACH ROW
  WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.account_status IS DISTINCT FROM NEW.account_status)
  EXECUTE FUNCTION users_take_change_no();
