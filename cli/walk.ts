/**
 * Which files to compress and where each result goes: files given directly, and the .jpg/.jpeg files
 * of folders (recursively), keeping their layout under --out. Refuses any plan that would write over
 * an input unless --in-place was asked for.
 */
import { basename, dirname, join, relative, resolve } from "node:path";
import { candidateFormats, type FormatChoice, FORMATS, type OutputFormat } from "../contract/formats.ts";
import { DEFAULT_SET_FORMATS } from "../contract/web-sets.ts";
import { CliError, UsageError } from "./args.ts";

export interface PlannedFile {
  /** The input as the user named it: a given path, or a folder's path joined with the file's place in it. */
  input: string;
  /** Where its result is written (the input itself with --in-place): the name for the format asked. */
  output: string;
  /** The name for each format the answer may come in (`answerFormats`), the asked one's being `output`. */
  outputs: Partial<Record<OutputFormat, string>>;
  /** Its size when planned, in bytes. */
  size: number;
}

export interface PlanRequest {
  paths: string[];
  out: string | null;
  inPlace: boolean;
  format?: FormatChoice;
  formats?: OutputFormat[];
  /** `restore`: the inputs are .jxl files and each answer is a JPEG. */
  restore?: boolean;
}

/**
 * The formats an answer may come in, the likeliest first: the one asked (on format=auto, each allowed one) and
 * JPEG, the original kept when nothing smaller was made.
 */
export function answerFormats(req: { format?: FormatChoice; formats?: OutputFormat[] }): OutputFormat[] {
  return [...new Set<OutputFormat>([...askedFormats(req), "jpeg"])];
}

/** .jxl, in any case: what `restore` takes. */
export const isJxlName = (name: string): boolean => /\.jxl$/i.test(name);

/** The formats asked for: the one given (JPEG, the server's default, when none), or on auto the allowed ones. */
export const askedFormats = (req: { format?: FormatChoice; formats?: OutputFormat[] }): OutputFormat[] =>
  candidateFormats({ format: req.format ?? "jpeg", formats: req.formats ?? [...DEFAULT_SET_FORMATS] });

/** .jpg and .jpeg, in any case. */
export const isJpegName = (name: string): boolean => /\.jpe?g$/i.test(name);

/** The output name for `format`: results in another format than JPEG get its extension (photo.webp). */
export function outputName(relPath: string, format: OutputFormat | undefined): string {
  if (format === undefined || format === "jpeg") return relPath;
  const extension = `.${FORMATS[format].extension}`;
  return /\.(jpe?g|jfif)$/i.test(relPath) ? relPath.replace(/\.(jpe?g|jfif)$/i, extension) : `${relPath}${extension}`;
}

interface Found {
  input: string;
  /** Its real path (symlinks resolved), to compare inputs with outputs. */
  real: string;
  /** Its place under --out. */
  rel: string;
  size: number;
}

/** The files `req` names, each with its output path; throws UsageError for a plan that must not run. */
export async function planFiles(req: PlanRequest): Promise<PlannedFile[]> {
  const outReal = req.out === null ? null : await realOrResolved(req.out);
  const found: Found[] = [];
  for (const path of req.paths) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) throw new UsageError(`No such file or folder: ${path}`);
      throw new CliError(`Cannot read ${path}: ${(err as Error).message}`);
    }
    const real = await Deno.realPath(path);
    if (info.isFile) {
      found.push({ input: path, real, rel: basename(path), size: info.size });
    } else if (info.isDirectory) {
      if (outReal === real && !req.inPlace) {
        throw new UsageError(
          `--out ${req.out} is the input folder ${path}: the results would replace the originals. ` +
            "Choose another --out, or pass --in-place to replace them on purpose",
        );
      }
      await walkFolder(path, "", outReal, found, req.restore ? isJxlName : isJpegName);
    }
  }

  // The same file named twice (or directly and through its folder) is compressed once.
  const seen = new Set<string>();
  const inputs = found.filter((f) => !seen.has(f.real) && seen.add(f.real));
  if (inputs.length === 0) {
    throw new CliError(`No ${req.restore ? ".jxl" : ".jpg or .jpeg"} files in ${req.paths.join(", ")}`);
  }

  // --in-place writes JPEG only (args.ts): the answer, or the original kept, replaces the input.
  if (req.inPlace) return inputs.map((f) => ({ input: f.input, output: f.input, outputs: {}, size: f.size }));

  const byOutput = new Map<string, Found>();
  const planned: PlannedFile[] = [];
  const formats = req.restore ? ["jpeg" as const] : answerFormats(req);
  for (const f of inputs) {
    const outputs: Partial<Record<OutputFormat, string>> = {};
    for (const format of formats) {
      const rel = req.restore ? f.rel.replace(/\.jxl$/i, "") + ".jpg" : outputName(f.rel, format);
      const output = join(req.out!, rel);
      const target = join(outReal!, rel);
      const existing = await Deno.realPath(output).catch(() => target);
      if (seen.has(target) || seen.has(existing)) {
        throw new UsageError(
          `${output} is an input: its result would replace it. Choose another --out, or pass --in-place`,
        );
      }
      const other = byOutput.get(target);
      if (other && other !== f) {
        throw new UsageError(`${other.input} and ${f.input} would both be written to ${output}; compress them apart`);
      }
      byOutput.set(target, f);
      outputs[format] = output;
    }
    planned.push({ input: f.input, output: outputs[formats[0]!]!, outputs, size: f.size });
  }
  return planned;
}

/** Appends the JPEGs under `root/rel` in name order; skips the --out folder and symlinked folders (no loops). */
async function walkFolder(
  root: string,
  rel: string,
  outReal: string | null,
  found: Found[],
  wanted: (name: string) => boolean = isJpegName,
): Promise<void> {
  const dir = join(root, rel);
  const entries: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(dir)) entries.push(entry);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const childRel = rel ? join(rel, entry.name) : entry.name;
    const path = join(root, childRel);
    if (entry.isDirectory) {
      if (outReal !== null && await Deno.realPath(path) === outReal) continue; // results already written there
      await walkFolder(root, childRel, outReal, found, wanted);
      continue;
    }
    if (!wanted(entry.name)) continue;
    // A symlink counts when it leads to a file; its target's real path is what is compared.
    const info = await Deno.stat(path).catch(() => null);
    if (!info?.isFile) continue;
    found.push({ input: path, real: await Deno.realPath(path), rel: childRel, size: info.size });
  }
}

/** The real path of `path`, or for one that does not exist yet its nearest existing ancestor's real path joined with the rest. */
async function realOrResolved(path: string): Promise<string> {
  const absolute = resolve(path);
  let existing = absolute;
  for (;;) {
    try {
      const real = await Deno.realPath(existing);
      return join(real, relative(existing, absolute));
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return absolute;
      existing = parent;
    }
  }
}
