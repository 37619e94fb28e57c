import { AwsClient } from "aws4fetch";
import { toBlob } from "./body.ts";
import {
  assertKey,
  assertPrefix,
  type ByteStore,
  type PutOptions,
  type StoreBody,
  type StoredBody,
  type StoredObject,
  type StoredObjectInfo,
  StoreError,
} from "./types.ts";

export interface S3StoreOptions {
  bucket: string;
  /**
   * An S3-compatible endpoint (Cloudflare R2, MinIO, a test server): requests go path-style to
   * `ENDPOINT/BUCKET/KEY`. Absent: AWS S3, virtual-hosted `https://BUCKET.s3.REGION.amazonaws.com/KEY`.
   */
  endpoint?: string;
  /** `us-east-1` unless given; R2 takes `auto`. */
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * `STORE_URL=s3://BUCKET?endpoint=URL&region=R`: S3-compatible object storage, shared by every
 * instance (and the store that works on Deno Deploy). Requests are signed with SigV4 by aws4fetch,
 * which runs on plain fetch and WebCrypto. Bodies of GETs stream; PUTs carry a Content-Length
 * (S3 refuses chunked uploads, and Deno's fetch sends a ReadableStream chunked, so a stream is
 * collected into a Blob first: outside the JS heap, bounded by the upload limits).
 * The bucket is expected to exist; no lifecycle rule is needed (the app deletes, ADR 014).
 */
export class S3Store implements ByteStore {
  readonly kind = "s3" as const;
  readonly description: string;
  readonly bucket: string;
  #client: AwsClient;
  #base: string;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    // Retries only server errors and 429 (aws4fetch's rule); bodies sent are Blobs or arrays, so resendable.
    this.#client = new AwsClient({
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      service: "s3",
      region: options.region,
      retries: 2,
    });
    if (options.endpoint) {
      this.#base = `${options.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(options.bucket)}`;
      this.description = `s3://${options.bucket} at ${new URL(options.endpoint).origin}`;
    } else {
      this.#base = `https://${options.bucket}.s3.${options.region}.amazonaws.com`;
      this.description = `s3://${options.bucket} (AWS ${options.region})`;
    }
  }

  /** The URL an object lives at (path-style when an endpoint is set). */
  urlOf(key: string): string {
    assertKey(key);
    return `${this.#base}/${key.split("/").map(encodeURIComponent).join("/")}`;
  }

  async put(key: string, body: StoreBody, options: PutOptions): Promise<StoredObjectInfo> {
    const url = this.urlOf(key);
    const blob = await toBlob(body, options);
    const res = await this.#fetch("PUT", key, url, {
      method: "PUT",
      body: blob,
      headers: { "content-type": options.contentType, "content-length": String(blob.size) },
    });
    await res.body?.cancel();
    return { key, size: blob.size, contentType: options.contentType, storedAt: dateOf(res) ?? new Date() };
  }

  async get(key: string): Promise<StoredBody | null> {
    const res = await this.#fetch("GET", key, this.urlOf(key), { method: "GET" }, [404]);
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    return { ...infoOf(key, res), body: res.body ?? new Blob([]).stream() };
  }

  async head(key: string): Promise<StoredObjectInfo | null> {
    const res = await this.#fetch("HEAD", key, this.urlOf(key), { method: "HEAD" }, [404]);
    await res.body?.cancel();
    return res.status === 404 ? null : infoOf(key, res);
  }

  async delete(key: string): Promise<void> {
    const res = await this.#fetch("DELETE", key, this.urlOf(key), { method: "DELETE" }, [404]);
    await res.body?.cancel();
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertPrefix(prefix);
    const keys: string[] = [];
    for await (const { key } of this.list(prefix)) keys.push(key);
    // One DELETE per key (a job has three): DeleteObjects would need a Content-MD5 that WebCrypto lacks.
    for (let i = 0; i < keys.length; i += 8) await Promise.all(keys.slice(i, i + 8).map((k) => this.delete(k)));
    return keys.length;
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    assertPrefix(prefix);
    let token: string | undefined;
    do {
      const url = new URL(`${this.#base}/`);
      url.searchParams.set("list-type", "2");
      if (prefix) url.searchParams.set("prefix", prefix);
      if (token) url.searchParams.set("continuation-token", token);
      const res = await this.#fetch("LIST", prefix, url.toString(), { method: "GET" });
      const xml = await res.text();
      for (const block of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const item = block[1]!;
        const key = xmlText(item, "Key");
        if (key === undefined) continue;
        yield {
          key,
          size: Number(xmlText(item, "Size") ?? 0),
          storedAt: new Date(xmlText(item, "LastModified") ?? 0),
        };
      }
      token = xmlText(xml, "IsTruncated") === "true" ? xmlText(xml, "NextContinuationToken") : undefined;
    } while (token);
  }

  /** Lists one key of the bucket: fails with the reason when the bucket or credentials are wrong. */
  async check(): Promise<void> {
    const url = new URL(`${this.#base}/`);
    url.searchParams.set("list-type", "2");
    url.searchParams.set("max-keys", "1");
    const res = await this.#fetch("LIST", "", url.toString(), { method: "GET" });
    await res.body?.cancel();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  async #fetch(op: string, key: string, url: string, init: RequestInit, allowed: number[] = []): Promise<Response> {
    let res: Response;
    try {
      res = await this.#client.fetch(url, init);
    } catch (err) {
      throw new StoreError(
        `S3 ${op} ${key || "(bucket)"}: cannot reach ${new URL(url).origin} (${(err as Error).message})`,
        undefined,
        { cause: err },
      );
    }
    if (res.ok || allowed.includes(res.status)) return res;
    const text = op === "HEAD" ? "" : await res.text().catch(() => "");
    const code = xmlText(text, "Code") ?? (op === "HEAD" ? headCode(res.status) : undefined);
    const message = xmlText(text, "Message");
    const what = [res.status, code, message].filter(Boolean).join(" ");
    throw new StoreError(
      `S3 ${op} ${key || "(bucket)"} in bucket ${this.bucket}: ${what}${hintFor(res.status, code)}`,
      res.status,
    );
  }
}

function hintFor(status: number, code: string | undefined): string {
  if (code === "NoSuchBucket") return ". Create the bucket or fix the bucket name in STORE_URL.";
  if (
    status === 401 || status === 403 ||
    ["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "AuthorizationHeaderMalformed"].includes(code ?? "")
  ) {
    return ". Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and the region in STORE_URL) and the key's rights on the bucket.";
  }
  return "";
}

/** A HEAD answer has no body: name the usual reason by its status. */
function headCode(status: number): string | undefined {
  return status === 403 ? "Forbidden" : status === 400 ? "BadRequest" : undefined;
}

function infoOf(key: string, res: Response): StoredObjectInfo {
  return {
    key,
    size: Number(res.headers.get("content-length") ?? 0),
    contentType: res.headers.get("content-type") ?? "application/octet-stream",
    storedAt: lastModified(res) ?? new Date(0),
  };
}

function lastModified(res: Response): Date | null {
  const value = res.headers.get("last-modified");
  return value ? new Date(value) : null;
}

function dateOf(res: Response): Date | null {
  const value = res.headers.get("date");
  return value ? new Date(value) : null;
}

function xmlText(xml: string, tag: string): string | undefined {
  const match = xml.match(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`));
  return match ? decodeXml(match[1]!) : undefined;
}

function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, entity: string) => {
    if (entity === "lt") return "<";
    if (entity === "gt") return ">";
    if (entity === "amp") return "&";
    if (entity === "quot") return '"';
    if (entity === "apos") return "'";
    return String.fromCodePoint(entity[1] === "x" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10));
  });
}
