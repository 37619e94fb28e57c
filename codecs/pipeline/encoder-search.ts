/**
 * A score goal over every encoder of the output format, with few full-size encodes: the image's mosaic (a
 * small sample of its own tiles, image/mosaic.ts) ranks the encoders, the chosen one is searched at full size
 * (predict, then verify: target-search.ts), and the next one gets one calibrated probe when the chosen one
 * landed high. Without a mosaic (images under about 1.2 MP, where full probes are cheap) every encoder is
 * searched at full size and the smallest passing file kept.
 */
import type { FormatChoiceReport, OutputFormat } from "../../contract/formats.ts";
import type { ChromaSubsampling } from "../../contract/settings.ts";
import type { Codec } from "../codec.ts";
import { mosaicOf } from "../image/mosaic.ts";
import { releasePixels } from "../image/release.ts";
import type { RgbaImage } from "../jpeg/decode.ts";
import { measurePlanes } from "../quality/planes.ts";
import type { CompressTimings } from "../types.ts";
import { type Encoded, measureOutput } from "./measure.ts";
import { type ProxyReading, qualityByProxy, searchScore, sizeAtAimByProxy } from "./target-search.ts";
import { scoreSearchFor } from "./targets.ts";

export interface EncoderSearch {
  signal: AbortSignal;
  /** The lowest acceptable score, the agreement margin included. */
  goal: number;
  chroma: ChromaSubsampling;
  /** Encodes the mosaic (no metadata, not counted as a full encode). */
  proxyEncode: (codec: Codec, pixels: RgbaImage, quality: number) => Promise<Uint8Array>;
  /**
   * Encodes and measures at full size; `probe` of at most `maxProbes` for progress. An output of `sizeToBeat`
   * bytes or more cannot win: it comes back unmeasured, failing (score -Infinity).
   */
  fullProbe: (
    codec: Codec,
    quality: number,
    probe: number,
    maxProbes: number,
    sizeToBeat?: number,
  ) => Promise<Encoded>;
  timings: CompressTimings;
  /**
   * Where a search without a mosaic starts, by encoder, instead of the encoder's prior: the quality a larger
   * rendition of the image needed (a web set's wider width).
   */
  startAt?: ReadonlyMap<Codec, number>;
  /** One file of a web set: slow encoders search with a set's slack (targets.ts). */
  inSet?: boolean;
  /** Throw `OutOfReach` where the mosaic says no quality reaches the goal (another chroma is left to try). */
  outOfReachEnds?: boolean;
}

type MosaicProxy = (quality: number) => Promise<ProxyReading>;
const scoreOf = (proxy: MosaicProxy) => async (q: number) => (await proxy(q)).score;

/**
 * A slower encoder must be predicted smaller by this share to be searched instead of the fastest: where the
 * mosaic put MozJPEG ahead by less than that on the corpus (Friends, Life, Picos de Europa), the two
 * encoders' bisected floors were within 1.1% of each other, either way; and each MozJPEG probe encodes about
 * 6 times slower than jpegli's.
 */
export const RANKING_MARGIN = 0.03;

/** The encoder to search at full size, from each one's predicted bytes at the goal. */
export function chooseEncoder(predicted: { codec: Codec; size: number }[]): Codec {
  const fastest = predicted.reduce((a, b) => (b.codec.encodeMsPerMp < a.codec.encodeMsPerMp ? b : a));
  const smallest = predicted.reduce((a, b) => (b.size < a.size ? b : a));
  return smallest.size < fastest.size * (1 - RANKING_MARGIN) ? smallest.codec : fastest.codec;
}

/** The smaller passing result, else the better scoring one. */
function better(a: Encoded | null, b: Encoded, goal: number): Encoded {
  if (!a) return b;
  const aPasses = a.score >= goal, bPasses = b.score >= goal;
  if (aPasses !== bPasses) return aPasses ? a : b;
  return aPasses ? (b.size < a.size ? b : a) : (b.score > a.score ? b : a);
}

/**
 * format=auto's verification: the predicted runner-up format is searched at full size too when the mosaic put
 * it within this share of the winner's bytes (mosaic predictions of one format against another were within
 * about 5% on the corpus; beyond this the runner-up's bytes are reported as predicted, unless it is JPEG:
 * PROMISED_AGAINST).
 */
export const CLOSE_FORMAT_MARGIN = 0.1;

/**
 * The format format=auto is promised never to exceed (issue 30): searched at full size whenever another format
 * won on the mosaic, however far behind the mosaic put it. A dark validation photo's (V04) JPEG read 1.6 times
 * its real bytes there, and AVIF was kept at 118% of JPEG's auto (ADR 046). JPEG's search costs a fraction of
 * AVIF's.
 */
const PROMISED_AGAINST: OutputFormat = "jpeg";

/** format=auto's second full-size search after the predicted winner's: a close runner-up, else JPEG, else none. */
function formatToCheck(
  winner: { format: OutputFormat; size: number },
  second: { format: OutputFormat; size: number },
  formats: readonly OutputFormat[],
): OutputFormat | null {
  if (second.size <= winner.size * (1 + CLOSE_FORMAT_MARGIN)) return second.format;
  if (winner.format !== PROMISED_AGAINST && formats.includes(PROMISED_AGAINST)) return PROMISED_AGAINST;
  return null;
}

export interface SearchOutcome {
  chosen: Encoded;
  probes: number;
  proxyProbes: number;
  /** With codecs of more than one format (format=auto): the format written and the best other one's bytes. */
  formatChoice: FormatChoiceReport | null;
}

/** The report of a measured choice between two formats' results. */
function measuredChoice(won: Encoded, lost: Encoded | null): FormatChoiceReport {
  return {
    format: won.codec.format,
    against: lost?.codec.format ?? null,
    againstBytes: lost?.size ?? null,
    measured: true,
  };
}

/**
 * The smallest passing file of `codecs` (one format's encoders, or several formats' for format=auto): ranked on
 * the mosaic, the predicted winner searched at full size, and on format=auto the runner-up format too when the
 * prediction puts it close.
 */
export async function searchEncoders(
  codecs: Codec[],
  pixels: RgbaImage,
  search: EncoderSearch,
): Promise<SearchOutcome> {
  const t = performance.now();
  const mosaic = mosaicOf(pixels);
  const mosaicPlanes = mosaic && measurePlanes(mosaic, 1, true);
  search.timings.measureMs += performance.now() - t;
  let proxyProbes = 0;
  // One memoised reader per encoder: each mosaic reading (encode, decode, compare) is taken once.
  const proxies = new Map<Codec, MosaicProxy>();
  if (mosaic && mosaicPlanes) {
    for (const codec of codecs) {
      const readings = new Map<number, Promise<ProxyReading>>();
      const read = async (q: number): Promise<ProxyReading> => {
        search.signal.throwIfAborted();
        const out = await search.proxyEncode(codec, mosaic, q);
        const tp = performance.now();
        const report = await measureOutput(out, codec, mosaicPlanes);
        search.timings.proxyMs += performance.now() - tp;
        return { score: report.ssimulacra2, size: out.length };
      };
      proxies.set(codec, (q) => {
        if (!readings.has(q)) {
          proxyProbes++;
          readings.set(q, read(q));
        }
        return readings.get(q)!;
      });
    }
  }
  const formats = [...new Set(codecs.map((c) => c.format))];
  try {
    let probes = 0;
    // Progress counts probes against the search's expected number (a last extra probe: against itself).
    const probe: Probe = (codec, q, maxProbes, sizeToBeat) =>
      search.fullProbe(codec, q, ++probes, Math.max(probes, maxProbes ?? 0), sizeToBeat);

    if (proxies.size === 0 || codecs.length === 1) {
      // Every encoder searched at full size; the best of each format kept for format=auto's report.
      const bestOf = new Map<OutputFormat, Encoded>();
      for (const codec of codecs) {
        const proxy = proxies.get(codec);
        const spec = scoreSearchFor(codec, search.goal, search.chroma, search);
        const hint = proxy ? undefined : search.startAt?.get(codec);
        if (hint !== undefined) spec.start = hint;
        const result = await searchScore(
          spec,
          (q) => probe(codec, q, spec.maxProbes * codecs.length),
          proxy && scoreOf(proxy),
        );
        bestOf.set(codec.format, better(bestOf.get(codec.format) ?? null, result.chosen, search.goal));
      }
      const ranked = [...bestOf.values()].sort((a, b) => better(a, b, search.goal) === a ? -1 : 1);
      const chosen = ranked[0]!;
      return {
        chosen,
        probes,
        proxyProbes,
        formatChoice: formats.length > 1 ? measuredChoice(chosen, ranked[1] ?? null) : null,
      };
    }

    // Rank on the mosaic: two readings per encoder give the bytes each needs at the goal.
    const predicted: Prediction[] = [];
    for (const codec of codecs) {
      const spec = scoreSearchFor(codec, search.goal, search.chroma, search);
      predicted.push({ codec, ...await sizeAtAimByProxy(spec, proxies.get(codec)!) });
    }
    const searchFormat = (format: OutputFormat) =>
      searchOneFormat(predicted.filter((p) => p.codec.format === format), proxies, search, probe);
    if (formats.length === 1) {
      return { chosen: await searchFormat(formats[0]!), probes, proxyProbes, formatChoice: null };
    }

    // format=auto: each format's smallest predicted bytes; the winner searched, a close runner-up too.
    const byFormat = formats.map((format) => ({
      format,
      size: Math.min(...predicted.filter((p) => p.codec.format === format).map((p) => p.size)),
    })).sort((a, b) => a.size - b.size);
    const [winner, second] = [byFormat[0]!, byFormat[1]!];
    const first = await searchFormat(winner.format);
    const checked = formatToCheck(winner, second, formats);
    if (checked) {
      const other = await searchFormat(checked);
      const chosen = better(first, other, search.goal);
      return { chosen, probes, proxyProbes, formatChoice: measuredChoice(chosen, chosen === first ? other : first) };
    }
    return {
      chosen: first,
      probes,
      proxyProbes,
      formatChoice: {
        format: first.codec.format,
        against: second.format,
        againstBytes: Math.round(first.size * (second.size / winner.size)),
        measured: false,
      },
    };
  } finally {
    mosaicPlanes?.pyramid.free();
    if (mosaic) releasePixels(mosaic);
  }
}

type Prediction = { codec: Codec; size: number; readings: Map<number, number> };
type Probe = (codec: Codec, quality: number, maxProbes?: number, sizeToBeat?: number) => Promise<Encoded>;

/** One format's search, its encoders ranked on the mosaic: the chosen one searched, the next one probed once. */
async function searchOneFormat(
  predicted: Prediction[],
  proxies: Map<Codec, MosaicProxy>,
  search: EncoderSearch,
  probe: Probe,
): Promise<Encoded> {
  const chosenCodec = chooseEncoder(predicted);
  const chosen = predicted.find((p) => p.codec === chosenCodec)!;
  const spec = scoreSearchFor(chosenCodec, search.goal, search.chroma, search);
  const proxy = proxies.get(chosenCodec)!;
  let best = (await searchScore(
    spec,
    (q) => probe(chosenCodec, q, spec.maxProbes + 1),
    scoreOf(proxy),
    chosen.readings,
  ))
    .chosen;

  // The ranking read the mosaic with a prior offset; the photo's own offset, now measured at full size, holds
  // for every encoder (within about half a point), so the next-best one's bytes are predicted again, and one
  // full probe settles it when they come out smaller. (Checked only when the result landed high, the wrong
  // encoder was kept on 4 of 21 validation photos, by 5.7-9.2%.)
  const next = predicted.filter((p) => p !== chosen).sort((a, b) => a.size - b.size)[0];
  if (next) {
    const atBest = await proxy(best.quality);
    const nextProxy = proxies.get(next.codec)!;
    const nextSpec = scoreSearchFor(next.codec, search.goal, search.chroma, search);
    const q = await qualityByProxy(nextSpec, scoreOf(nextProxy), best.score - atBest.score, next.readings);
    const predictedSize = (await nextProxy(q)).size * (best.size / atBest.size);
    if (predictedSize < best.size * (1 - RANKING_MARGIN)) {
      // Measured only when smaller than the result it would replace.
      const sizeToBeat = best.score >= search.goal ? best.size : undefined;
      best = better(best, await probe(next.codec, q, undefined, sizeToBeat), search.goal);
    }
  }
  return best;
}
