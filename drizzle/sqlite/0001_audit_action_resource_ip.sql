ALTER TABLE `audit` ADD `action` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `audit` ADD `resource` text;--> statement-breakpoint
ALTER TABLE `audit` ADD `ip` text;