/** Maps the product's settings to libwebp options; JPEG-only settings have no WebP meaning. */
import type { CompressSettings, Mode } from "../../contract/settings.ts";
import { type WebpOptions, whitelist } from "./meta.ts";

const METHOD_BY_MODE: Readonly<Record<Mode, number>> = { speed: 2, balanced: 4, quality: 6 };

export function webpOptions(settings: CompressSettings, quality: number): WebpOptions {
  return whitelist({
    quality,
    method: METHOD_BY_MODE[settings.mode],
    // Sharp RGB->YUV keeps thin coloured edges crisp at a small time cost.
    use_sharp_yuv: settings.mode === "quality" ? 1 : 0,
    lossless: 0,
  });
}
