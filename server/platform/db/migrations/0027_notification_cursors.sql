CREATE TABLE "notification_cursors" (
	"source" text PRIMARY KEY NOT NULL,
	"last_id" bigint NOT NULL
);
