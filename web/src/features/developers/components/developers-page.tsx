import type { ReactNode } from "react";
import { API_KEY_PREFIX, V1_ASYNC_PARAM } from "../../../../../contract/api-keys.ts";
import { paths } from "../../../../../contract/routes.ts";
import { STATED_RETENTION } from "../../../../../contract/storage.ts";
import { usePage } from "../../../lib/use-page.ts";
import { useHydrated } from "../../../lib/use-hydrated.ts";
import { PUBLIC_PAGE_META, PublicLayout } from "../../public/index.ts";
import {
  asyncExample,
  CLI_EXIT_CODES,
  CLI_OPTIONS,
  cliExample,
  ERROR_ROWS,
  HEADER_ROWS,
  JOB_STATUS_LIST,
  LIMIT_ROWS,
  openapiUrl,
  PLACEHOLDER_ORIGIN,
  PLAN_COLUMNS,
  SETTING_ROWS,
  SYNC_RESPONSE,
  syncExample,
  TARGET_FORMS,
} from "../lib/reference.ts";
import { ApiKeysSection } from "./api-keys-section.tsx";
import { CodeBlock } from "./code-block.tsx";

const CLI_DEFAULT_URL = "http://localhost:8000";

const CONTENTS = [
  { id: "keys", label: "Your API keys" },
  { id: "compress", label: "Compress an image" },
  { id: "async", label: "Queue it and fetch it later" },
  { id: "settings", label: "Settings" },
  { id: "headers", label: "Response headers" },
  { id: "errors", label: "Errors" },
  { id: "limits", label: "Limits" },
  { id: "openapi", label: "OpenAPI" },
  { id: "cli", label: "The CLI" },
] as const;
type SectionId = (typeof CONTENTS)[number]["id"];
const titleOf = (id: SectionId) => CONTENTS.find((c) => c.id === id)!.label;

function Section({ id, children }: { id: SectionId; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="mt-12 scroll-mt-20">
      <h2 id={`${id}-title`} className="text-2xl font-bold">{titleOf(id)}</h2>
      <div className="mt-3 space-y-3 text-slate-700">{children}</div>
    </section>
  );
}

/** Inline code: a parameter, header or value. */
function C({ children }: { children: ReactNode }) {
  return <code className="rounded bg-slate-100 px-1 py-0.5 text-[0.9em] text-slate-900">{children}</code>;
}

function Table({ head, rows, label }: { head: string[]; rows: ReactNode[][]; label: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200" role="region" aria-label={label} tabIndex={0}>
      <table className="w-full border-collapse text-left text-sm">
        <thead className="bg-slate-50 text-slate-900">
          <tr>
            {head.map((h) => <th key={h} scope="col" className="px-3 py-2 font-semibold">{h}</th>)}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((cells, i) => (
            <tr key={i} className="align-top">
              {cells.map((cell, j) => <td key={j} className="px-3 py-2">{cell}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The site's address for the examples: a placeholder in the prerendered HTML (the build does not
 * know where it is served), this site's own once the page runs, so the examples paste as they are.
 */
function useOrigin(): string {
  return useHydrated() ? location.origin : PLACEHOLDER_ORIGIN;
}

/** Issue 23: the developer API and the CLI, and the signed-in user's keys. */
export function DevelopersPage() {
  const meta = PUBLIC_PAGE_META[paths.developers];
  usePage(meta.title);
  const origin = useOrigin();
  return (
    <PublicLayout>
      <article className="mx-auto max-w-4xl px-4 py-12 md:py-16">
        <h1 className="text-4xl font-extrabold tracking-tight">Developer API</h1>
        <p className="mt-4 text-lg text-slate-700">
          Compress JPEGs from your build scripts, your CMS or your shop's upload handler. Send the image as the request
          body, get the smaller image back. Your API calls use the same account, plan and daily count as the web app,
          with the same settings.
        </p>

        <nav aria-label="On this page" className="mt-8 rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">On this page</h2>
          <ol className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
            {CONTENTS.map((c) => (
              <li key={c.id}>
                <a href={`#${c.id}`} className="text-brand-700 underline-offset-4 hover:underline">{c.label}</a>
              </li>
            ))}
          </ol>
        </nav>

        <Section id="keys">
          <p>
            Every request carries an API key in the <C>Authorization</C>{" "}
            header. To get one: sign in, open this page, give the key a name and press{" "}
            <strong>Create key</strong>. The key, starting with{" "}
            <C>{API_KEY_PREFIX}</C>, is shown once; store it as a secret (for example in the <C>SQUEEZE_API_KEY</C>{" "}
            environment variable) and never in code you publish. Revoke a key you no longer use or that may have leaked:
            requests with it are refused at once.
          </p>
          <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <ApiKeysSection />
          </div>
        </Section>

        <Section id="compress">
          <p>
            Send the JPEG's bytes as the body of a POST, with <C>Content-Type: image/jpeg</C>{" "}
            and the settings in the query string. The answer is the compressed image, with its numbers in the response
            headers.
          </p>
          <CodeBlock caption="Compress photo.jpg at quality 75" code={syncExample(origin)} copy />
          <CodeBlock caption="What -D - prints (abridged; the numbers vary)" code={SYNC_RESPONSE} />
          <p>
            A synchronous request waits for the result. For large images or many at once, queue them instead (below).
          </p>
        </Section>

        <Section id="async">
          <p>
            Add <C>{V1_ASYNC_PARAM}=true</C> and the server answers at once with <C>202 Accepted</C> and{" "}
            <C>{'{"id":"…"}'}</C>. Read the job until its <C>status</C> is <C>completed</C> or <C>error</C> (statuses:
            {" "}
            {JOB_STATUS_LIST}), then fetch the result. A result stays available for {STATED_RETENTION}{" "}
            after compression.
          </p>
          <CodeBlock caption="Queue, poll, download (jq reads the id)" code={asyncExample(origin)} copy />
        </Section>

        <Section id="settings">
          <p>
            Settings are query parameters with the same names and values as the web app's settings; leave one out and
            its default applies. Booleans are <C>true</C> or{" "}
            <C>false</C>. A wrong value answers 400 with a message that names the parameter; so does an unknown or
            repeated one, so a typo never goes unnoticed.
          </p>
          <Table
            label="Settings"
            head={["Parameter", "Values", "Default", "What it does"]}
            rows={SETTING_ROWS.map((s) => [<C key="n">{s.name}</C>, s.values, <C key="d">{s.default}</C>, s.what])}
          />
          <p>
            <strong>Targets (Premium).</strong> Instead of a fixed quality, <C>target</C>{" "}
            asks the server to search for one. Use a short form, or the same JSON as the web app (URL-encoded):
          </p>
          <Table
            label="Targets"
            head={["Short form", "JSON", "Finds"]}
            rows={TARGET_FORMS.map((t) => [<C key="s">target={t.short}</C>, <C key="j">{t.json}</C>, t.what])}
          />
        </Section>

        <Section id="headers">
          <p>A synchronous compression answers the image with these headers:</p>
          <Table
            label="Response headers"
            head={["Header", "Meaning"]}
            rows={HEADER_ROWS.map((h) => [<C key="h">{h.name}</C>, h.what])}
          />
        </Section>

        <Section id="errors">
          <p>
            A failed request answers JSON such as <C>{'{ "error": "The body is not a JPEG image" }'}</C>{" "}
            with one of these statuses. Show the message to whoever can fix the cause; for 429 and 503, wait the number
            of seconds in <C>Retry-After</C> and send the request again.
          </p>
          <Table
            label="Errors"
            head={["Status", "When"]}
            rows={ERROR_ROWS.map((e) => [<strong key="s">{e.status}</strong>, e.what])}
          />
        </Section>

        <Section id="limits">
          <p>
            The API uses your account's plan: the same daily count as the web app (an image compressed through either
            counts once), the same size limits and the same queue.
          </p>
          <Table
            label="Limits by plan"
            head={["", ...PLAN_COLUMNS.map((c) => c.label)]}
            rows={LIMIT_ROWS.map((r) => [
              <strong key="l">{r.label}</strong>,
              ...PLAN_COLUMNS.map((c) => r.value(c.plan)),
            ])}
          />
        </Section>

        <Section id="openapi">
          <p>
            The API is described in an OpenAPI 3 document, generated from the same schemas the server validates with.
            Load it into your HTTP client or code generator:
          </p>
          <p>
            <OpenapiLink origin={origin} />
          </p>
        </Section>

        <CliSection origin={origin} />
      </article>
    </PublicLayout>
  );
}

/** The command-line client: what it does, how to run it, its options and exit statuses. */
function CliSection({ origin }: { origin: string }) {
  return (
    <Section id="cli">
      <p>
        The command-line client speaks this API. It compresses files and whole folders (every .jpg and .jpeg inside,
        keeping the folder layout), waits and retries after a 429 or 503 as <C>Retry-After</C>{" "}
        says, and exits with a non-zero status when the key is refused or a file fails, so it fits in a build script. It
        reads the key from <C>SQUEEZE_API_KEY</C> and the server from <C>SQUEEZE_API_URL</C> (default{" "}
        <C>{CLI_DEFAULT_URL}</C>). It comes with the SqueezeJPEG source: run it with{" "}
        <C>deno task cli</C>, or build a standalone <C>squeeze</C> binary with <C>deno task compile:cli</C>.
      </p>
      <CodeBlock caption="Compress a folder, then two files with a target" code={cliExample(origin)} copy />
      <p>
        Usage: <C>deno task cli compress PATH... --out DIR [options]</C>
      </p>
      <Table
        label="CLI options"
        head={["Option", "What it does"]}
        rows={CLI_OPTIONS.map((o) => [<C key="f">{o.flag}</C>, o.what])}
      />
      <Table
        label="CLI exit statuses"
        head={["Exit status", "Means"]}
        rows={CLI_EXIT_CODES.map((e) => [<strong key="c">{e.code}</strong>, e.what])}
      />
    </Section>
  );
}

/**
 * Text in the prerendered HTML (the build does not know the site's address, and a relative link
 * to a JSON document is not a page), a link once the page runs.
 */
function OpenapiLink({ origin }: { origin: string }) {
  const url = openapiUrl(origin);
  const hydrated = useHydrated();
  return hydrated ? <a href={url} className="font-medium text-brand-700 underline break-all">{url}</a> : <C>{url}</C>;
}
