import { parseFrontMatter } from "./front-matter.ts";

export const DIFFICULTIES = ["Beginner", "Intermediate", "Advanced"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/** Spec §3's filter list, in its order ("All" first). */
export const CATEGORY_FILTERS = [
  "All",
  "Basics",
  "Formats",
  "Tutorials",
  "Web Performance",
  "Mobile",
  "Automation",
  "Technical",
  "SEO",
  "Cloud",
  "Analytics",
  "Hardware",
  "Social Media",
  "Future Tech",
  "SEO & Performance",
  "Mobile SEO",
  "Image Formats",
  "Tools & Techniques",
  "SEO Strategy",
] as const;

/** One catalogue entry (spec §3), read from an article's front matter. */
export interface ArticleMeta {
  id: number;
  title: string;
  description: string;
  category: string;
  difficulty: Difficulty;
  /** As shown: "5 min". */
  readTime: string;
  readMinutes: number;
  /** The call-to-action button's label. */
  cta: string;
  /** The "What You'll Learn" items. */
  learn: string[];
}

export interface ParsedArticle {
  meta: ArticleMeta;
  /** Markdown without the front matter. */
  body: string;
}

function text(data: Record<string, unknown>, key: string, file: string): string {
  const value = data[key];
  if (typeof value !== "string" || value.trim() === "") throw new Error(`${file}: front matter "${key}" is missing`);
  return value.trim();
}

/** Reads and checks one article file; every problem names the file and the field. */
export function parseArticle(source: string, file: string): ParsedArticle {
  const { data, body } = parseFrontMatter(source, file);
  const idText = text(data, "id", file);
  const id = Number(idText);
  if (!Number.isInteger(id) || id < 1) throw new Error(`${file}: front matter "id" must be a positive integer`);
  const difficulty = text(data, "difficulty", file);
  if (!(DIFFICULTIES as readonly string[]).includes(difficulty)) {
    throw new Error(`${file}: front matter "difficulty" must be one of ${DIFFICULTIES.join(", ")}`);
  }
  const category = text(data, "category", file);
  if (category === "All" || !(CATEGORY_FILTERS as readonly string[]).includes(category)) {
    throw new Error(`${file}: front matter "category" '${category}' is not in the spec's filter list`);
  }
  const readTime = text(data, "readTime", file);
  const minutes = readTime.match(/^(\d+) min$/);
  if (!minutes) throw new Error(`${file}: front matter "readTime" must look like "5 min"`);
  const learn = data.learn;
  if (!Array.isArray(learn) || learn.length === 0) throw new Error(`${file}: front matter "learn" must be a list`);
  return {
    meta: {
      id,
      title: text(data, "title", file),
      description: text(data, "description", file),
      category,
      difficulty: difficulty as Difficulty,
      readTime,
      readMinutes: Number(minutes[1]),
      cta: text(data, "cta", file),
      learn,
    },
    body,
  };
}
