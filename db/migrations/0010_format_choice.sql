-- format=auto (issue 30, item 4): the job's report of the format it chose and by how much (contract/formats.ts).
ALTER TABLE `jobs` ADD `format_choice_json` text;