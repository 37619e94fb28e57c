/** A signed-in user's calls to a running server process (tests/setup/server-process.ts) over HTTP. */
import { waitFor } from "./wait-for.ts";

export interface RemoteJob {
  id: string;
  status: string;
  progress: number;
  filename: string;
  errorMessage?: string | null;
}

export async function remoteSignUp(url: string, username: string, password = "correct horse"): Promise<string> {
  const res = await fetch(`${url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const match = (res.headers.get("set-cookie") ?? "").match(/session=([^;]*)/);
  if (!match) throw new Error("no session cookie");
  return `session=${match[1]}`;
}

export function remoteUpload(url: string, cookie: string, files: File[]): Promise<Response> {
  const form = new FormData();
  for (const f of files) form.append("images", f);
  return fetch(`${url}/api/compress`, { method: "POST", headers: { Cookie: cookie }, body: form });
}

export async function remoteJobs(url: string, cookie: string): Promise<RemoteJob[]> {
  const res = await fetch(`${url}/api/jobs`, { headers: { Cookie: cookie } });
  if (!res.ok) throw new Error(`GET /api/jobs: ${res.status} ${await res.text()}`);
  return (await res.json()).jobs;
}

/** Polls GET /api/jobs on `url` until `done` holds. */
export async function remoteWaitForJobs(
  url: string,
  cookie: string,
  done: (jobs: RemoteJob[]) => boolean,
  timeoutMs = 60_000,
): Promise<RemoteJob[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await remoteJobs(url, cookie);
    if (done(jobs)) return jobs;
    if (Date.now() > deadline) throw new Error(`Jobs did not settle: ${JSON.stringify(jobs.map((j) => j.status))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Polls GET /api/jobs on `url` until every job of `ids` has ended (completed or error) and answers them. It waits
 * as long as they move: it gives up only when none of them changed its status or progress for `stallMs`, so a
 * busy machine gets the time it needs and a stuck job still fails the wait.
 */
export async function remoteWaitForSettled(
  url: string,
  cookie: string,
  ids: ReadonlySet<string>,
  stallMs: number,
): Promise<RemoteJob[]> {
  let jobs: RemoteJob[] = [];
  const count = (status: string) => jobs.filter((j) => j.status === status).length;
  await waitFor(
    async () => {
      jobs = (await remoteJobs(url, cookie)).filter((j) => ids.has(j.id));
      return jobs.length === ids.size && jobs.every((j) => j.status === "completed" || j.status === "error");
    },
    {
      timeoutMs: stallMs,
      intervalMs: 250, // within the per-session poll budget
      progress: () => jobs.map((j) => `${j.id} ${j.status} ${j.progress}`).join(),
      message: () =>
        `${ids.size} jobs to end (${count("completed")} completed, ${count("error")} failed, ${
          count("processing")
        } processing, ${count("pending")} pending, ${ids.size - jobs.length} missing)`,
    },
  );
  return jobs;
}

export const fixtureFile = async (name: string, as = name): Promise<File> =>
  new File([await Deno.readFile(new URL(`../fixtures/${name}`, import.meta.url))], as, { type: "image/jpeg" });
