CREATE TABLE `known_addresses` (
	`key` text PRIMARY KEY NOT NULL,
	`last_success_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `known_addresses_last_success_idx` ON `known_addresses` (`last_success_at`);--> statement-breakpoint
CREATE TABLE `throttle_events` (
	`id` integer PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `throttle_events_key_at_idx` ON `throttle_events` (`key`,`at`);--> statement-breakpoint
CREATE INDEX `throttle_events_at_idx` ON `throttle_events` (`at`);