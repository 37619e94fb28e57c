import { apiRequest } from "@web-api/client.ts";
import { previewUrl } from "@web-api/endpoints.ts";

/** The job's original, fetched once per panel: every encode after this happens in the browser. */
export async function fetchOriginal(jobId: string): Promise<ArrayBuffer> {
  const res = await apiRequest("GET", previewUrl(jobId));
  return await res.arrayBuffer();
}
