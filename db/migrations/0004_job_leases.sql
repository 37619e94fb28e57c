ALTER TABLE `jobs` ADD `pixels` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_expires_at` integer;--> statement-breakpoint
CREATE INDEX `jobs_lease_idx` ON `jobs` (`lease_owner`);