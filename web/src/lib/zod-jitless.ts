/**
 * Imported first by main.tsx. Our Content-Security-Policy forbids eval, so zod's JIT can
 * never run; without this its `new Function` probe is logged as a CSP violation on every page.
 */
import { z } from "zod";

z.config({ jitless: true });
