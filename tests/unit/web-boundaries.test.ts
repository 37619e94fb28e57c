/**
 * The web app's boundaries (DESIGN §1): it talks to the server only through web/src/api, a
 * feature uses another feature only through that feature's index.ts, and the shared code
 * (web/src/components, web/src/lib) uses no feature and not the app: imports go one way,
 * shared → features → app.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../web/src/", import.meta.url));
const API = join(SRC, "api");
const FEATURES = join(SRC, "features");
const APP = join(SRC, "app");
const SHARED = [join(SRC, "components"), join(SRC, "lib")];
const API_PATH = "/api/";

async function* files(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* files(path);
    else if (entry.isFile) yield path;
  }
}

/** Module specifiers of static imports, re-exports, side-effect and dynamic imports. */
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(?\s*)(["'])([^"']+)\2/g;

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + "/");

/** Each relative import of a .ts or .tsx file below `dir`, with the file it resolves to. */
async function* relativeImports(dir: string) {
  for await (const path of files(dir)) {
    if (!/\.tsx?$/.test(path)) continue;
    const text = await Deno.readTextFile(path);
    for (const match of text.matchAll(SPECIFIER)) {
      const spec = match[3]!;
      if (spec.startsWith(".")) yield { path, text, spec, index: match.index, target: resolve(dirname(path), spec) };
    }
  }
}
const where = (path: string, text: string, index: number) =>
  `${relative(SRC, path)}:${text.slice(0, index).split("\n").length}`;

Deno.test("no file of the web app outside web/src/api contains /api/", async () => {
  // Strict on purpose, to agree with `grep -rn "/api/" web/src | grep -v "^web/src/api/"`: comments,
  // strings and import paths alike. Import web/src/api as "@web-api/..." and keep a feature's
  // queries and mutations in its data/ folder.
  const found: string[] = [];
  for await (const path of files(SRC)) {
    if (inside(path, API)) continue;
    const text = new TextDecoder().decode(await Deno.readFile(path));
    for (let i = text.indexOf(API_PATH); i !== -1; i = text.indexOf(API_PATH, i + 1)) {
      const end = text.indexOf("\n", i);
      found.push(
        `${where(path, text, i)}: ${text.slice(text.lastIndexOf("\n", i) + 1, end === -1 ? undefined : end).trim()}`,
      );
    }
  }
  assert.deepEqual(found, [], `"${API_PATH}" outside web/src/api:\n  ${found.join("\n  ")}`);
});

Deno.test("a feature imports another feature only through its index.ts, and never its own", async () => {
  const found: string[] = [];
  for await (const { path, text, spec, index, target } of relativeImports(FEATURES)) {
    if (!inside(target, FEATURES)) continue;
    const feature = relative(FEATURES, path).split("/")[0]!;
    const [other, ...rest] = relative(FEATURES, target).split("/");
    const isIndex = rest.join("/") === "index.ts";
    if (other === feature ? isIndex : !isIndex) found.push(`${where(path, text, index)}: ${spec}`);
  }
  assert.deepEqual(found, [], `imports past a feature's index.ts:\n  ${found.join("\n  ")}`);
});

Deno.test("shared components and lib import no feature and not the app", async () => {
  // Page composition that wires features together lives in web/src/app (e.g. the signed-in header).
  const found: string[] = [];
  for (const dir of SHARED) {
    for await (const { path, text, spec, index, target } of relativeImports(dir)) {
      if (inside(target, FEATURES) || inside(target, APP)) found.push(`${where(path, text, index)}: ${spec}`);
    }
  }
  assert.deepEqual(found, [], `shared code importing a feature or the app:\n  ${found.join("\n  ")}`);
});
