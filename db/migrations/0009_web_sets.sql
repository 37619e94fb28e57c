-- Web sets (issue 30, item 5): a job whose result is a set records its files here (contract/web-sets.ts).
ALTER TABLE `jobs` ADD `web_set_json` text;