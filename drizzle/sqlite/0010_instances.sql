CREATE TABLE `instances` (
	`id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`pid` integer NOT NULL,
	`version` text NOT NULL,
	`started_at` text NOT NULL,
	`heartbeat_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `instances_heartbeat` ON `instances` (`heartbeat_at`);