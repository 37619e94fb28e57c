/**
 * Words in a Markdown body as a reader meets them: prose, headings, list items,
 * table cells and code (a technical reader reads the code too). Markdown
 * punctuation (`|`, `#`, `-`, `**`) is not a word and a link counts by its text.
 */
export function countWords(markdown: string): number {
  const prose = markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
  return prose.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;
}

/** Reading speeds the read times assume (spec: "about 200-230 words per minute", with slack). */
export const MIN_WPM = 190;
export const MAX_WPM = 240;
