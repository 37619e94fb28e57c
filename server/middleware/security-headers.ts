import type { MiddlewareHandler } from "hono";

export interface CspOptions {
  /** Allow Google AdSense's script, frames and beacons (only when ADSENSE_CLIENT is set). */
  adsense?: boolean;
  /** Allow compiling WebAssembly ('wasm-unsafe-eval'): only the live preview's worker script gets it. */
  wasm?: boolean;
}

/**
 * The live preview's Web Worker as Vite emits it (web/src/features/live-preview/lib/live-preview.worker.ts).
 * A dedicated worker runs under the CSP sent with its own script, not the page's: so the codecs' WebAssembly
 * is allowed there alone, and every page keeps a script-src without 'wasm-unsafe-eval' (a page can create
 * the worker already: script-src 'self' covers a same-origin worker, no blob: needed).
 */
export const WASM_WORKER_PATH = /^\/assets\/live-preview\.worker-[\w-]+\.js$/;

export interface SecurityHeaderOptions extends CspOptions {
  /** The site is served over https (PUBLIC_URL): browsers should never use plain http for it. */
  hsts?: boolean;
}

/** AdSense's hosts, per Google's CSP guidance for the adsbygoogle.js tag. */
const ADSENSE = {
  script: [
    "https://pagead2.googlesyndication.com",
    "https://*.googlesyndication.com",
    "https://*.doubleclick.net",
    "https://*.googletagservices.com",
    "https://*.adtrafficquality.google",
    "https://*.google.com",
  ],
  frame: [
    "https://*.googlesyndication.com",
    "https://*.doubleclick.net",
    "https://*.google.com",
    "https://*.adtrafficquality.google",
  ],
  connect: [
    "https://*.googlesyndication.com",
    "https://*.doubleclick.net",
    "https://*.google.com",
    "https://*.adtrafficquality.google",
  ],
};

/** Only what the app itself uses; the ad network is allowed only when it is configured. */
export function contentSecurityPolicy(options: CspOptions = {}): string {
  const ads = options.adsense === true;
  const with_ = (base: string, extra: string[]) => (ads ? [base, ...extra].join(" ") : base);
  return [
    "default-src 'self'",
    with_(options.wasm ? "script-src 'self' 'wasm-unsafe-eval'" : "script-src 'self'", ADSENSE.script),
    "style-src 'self' 'unsafe-inline'",
    // Ad creatives come from many CDNs: any https image once ads are on.
    with_("img-src 'self' data: blob:", ["https:"]),
    "font-src 'self'",
    with_("connect-src 'self'", ADSENSE.connect),
    ...(ads ? [`frame-src ${ADSENSE.frame.join(" ")}`] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(options: SecurityHeaderOptions = {}): MiddlewareHandler {
  const csp = contentSecurityPolicy(options);
  const workerCsp = contentSecurityPolicy({ ...options, wasm: true });
  return async (c, next) => {
    await next();
    // Two years, as the HSTS preload list asks; sent only when the public URL is https.
    if (options.hsts) c.header("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
    c.header("Content-Security-Policy", WASM_WORKER_PATH.test(c.req.path) ? workerCsp : csp);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "strict-origin-when-cross-origin");
    c.header("X-Frame-Options", "DENY");
    c.header("Cross-Origin-Opener-Policy", "same-origin");
  };
}
