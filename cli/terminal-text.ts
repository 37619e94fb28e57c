/**
 * Text from outside (file names, the server's error messages) as it may reach a terminal: control characters
 * shown as escapes, so a name or an answer cannot move the cursor, retitle or clear the window, reorder what
 * follows it (bidi overrides), or split its line. --json needs none of this: JSON.stringify escapes its own.
 */

/**
 * C0 (with newline and tab), DEL and C1 as `\xHH`; the bidi formatting characters (embeddings and overrides
 * U+202A-202E, isolates U+2066-2069, marks U+061C, U+200E, U+200F: the set key names refuse, contract/api-keys.ts)
 * and the line and paragraph separators (U+2028, U+2029, which some terminals break on) as `\uHHHH`. Backslashes
 * are kept as they are: Windows paths stay readable.
 */
// deno-lint-ignore no-control-regex
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
