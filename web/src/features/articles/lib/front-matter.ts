/**
 * The small YAML subset our article files use between `---` lines:
 * `key: value` (plain, "double" or 'single' quoted) and `key:` followed by `- item` lines.
 * Anything else is an error naming the line, so a typo fails the build instead of a page.
 */
export type FrontMatterValue = string | string[];

export interface FrontMatterDocument {
  data: Record<string, FrontMatterValue>;
  body: string;
}

export class FrontMatterError extends Error {}

function unquote(raw: string, where: string): string {
  const value = raw.trim();
  if (value.startsWith('"')) {
    if (!value.endsWith('"') || value.length < 2) throw new FrontMatterError(`${where}: unterminated "quoted" value`);
    try {
      return JSON.parse(value) as string;
    } catch {
      throw new FrontMatterError(`${where}: invalid "quoted" value`);
    }
  }
  if (value.startsWith("'")) {
    if (!value.endsWith("'") || value.length < 2) throw new FrontMatterError(`${where}: unterminated 'quoted' value`);
    // YAML single quotes escape a quote by doubling it.
    return value.slice(1, -1).replaceAll("''", "'");
  }
  return value;
}

/** Splits `source` into its front matter and Markdown body; `name` labels errors. */
export function parseFrontMatter(source: string, name = "document"): FrontMatterDocument {
  const lines = source.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") {
    throw new FrontMatterError(`${name}: the file must start with a --- front matter line`);
  }
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === "---");
  if (end < 0) throw new FrontMatterError(`${name}: the front matter has no closing --- line`);

  const data: Record<string, FrontMatterValue> = {};
  let listKey: string | null = null;
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    const where = `${name} line ${i + 1}`;
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const item = line.match(/^\s+-\s+(.*)$/) ?? line.match(/^-\s+(.*)$/);
    if (item) {
      if (!listKey) throw new FrontMatterError(`${where}: a list item outside a list`);
      (data[listKey] as string[]).push(unquote(item[1]!, where));
      continue;
    }
    const pair = line.match(/^([A-Za-z][\w-]*):(?:\s+(.*))?$/);
    if (!pair) throw new FrontMatterError(`${where}: expected "key: value"`);
    const key = pair[1]!;
    const rest = pair[2]?.trim() ?? "";
    if (rest === "") {
      data[key] = [];
      listKey = key;
    } else {
      data[key] = unquote(rest, where);
      listKey = null;
    }
  }
  return { data, body: lines.slice(end + 1).join("\n").trim() + "\n" };
}
