import type { CompressResponse } from "../../../contract/jobs.ts";
import { throwIfNotOk } from "./client.ts";

export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * `POST /api/compress` with XMLHttpRequest, because fetch cannot report bytes sent. It follows the
 * client's conventions: cookies always, and a non-OK answer becomes the same `ApiRequestError`.
 */
export function postCompress(form: FormData, onProgress: (p: UploadProgress) => void): Promise<CompressResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/compress");
    xhr.withCredentials = true;
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress({ sent: e.loaded, total: e.total });
    };
    xhr.onload = async () => {
      const res = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        statusText: xhr.statusText,
      });
      try {
        await throwIfNotOk(res);
        resolve(await res.json() as CompressResponse);
      } catch (err) {
        reject(err);
      }
    };
    xhr.onerror = () => reject(new Error("The upload could not reach the server; check your connection"));
    xhr.onabort = () => reject(new Error("The upload was cancelled"));
    xhr.send(form);
  });
}
