/**
 * Bounded bisection over the integer quality setting. Each probe is one
 * encode; size and score are monotone in quality (to within noise), so at
 * most `maxProbes` encodes settle a 1-100 range to the exact step.
 */
export interface Probe {
  quality: number;
  size: number;
  score: number;
}

export interface SearchSpec {
  lo: number;
  hi: number;
  maxProbes: number;
  /** "lowest": the lowest passing quality (score goals); "highest": the highest (size goals). */
  want: "lowest" | "highest";
  passes: (probe: Probe) => boolean;
  /** Among failing probes, which is the best fallback. */
  better: (a: Probe, b: Probe) => boolean;
}

export async function searchQuality<P extends Probe>(
  spec: SearchSpec,
  probe: (quality: number) => Promise<P>,
): Promise<{ chosen: P; passed: boolean; probes: number }> {
  let { lo, hi } = spec;
  let best: P | null = null;
  let fallback: P | null = null;
  let probes = 0;
  while (lo <= hi && probes < spec.maxProbes) {
    const mid = Math.floor((lo + hi) / 2);
    const result = await probe(mid);
    probes++;
    if (spec.passes(result)) {
      best = result;
      if (spec.want === "lowest") hi = mid - 1;
      else lo = mid + 1;
    } else {
      if (!fallback || spec.better(result, fallback)) fallback = result;
      if (spec.want === "lowest") lo = mid + 1;
      else hi = mid - 1;
    }
  }
  const chosen = best ?? fallback;
  if (!chosen) throw new Error("Quality search made no probe");
  return { chosen, passed: best !== null, probes };
}

export interface ScoreSearch {
  /** The lowest acceptable score (SSIMULACRA 2, 0-100). */
  goal: number;
  /** A passing probe at most this far above the goal ends the search. */
  slack: number;
  /**
   * Whether a passing probe within the slack is followed by one a step lower where the curve reads flat
   * there (a step's bytes for one probe): not in a web set, where every width in every format is searched.
   */
  stepDownWhenFlat: boolean;
  /** Score points per quality step before two full probes measure it (the codec's own curve near the goal). */
  slope: number;
  /** Where probes aim: this far above the goal, so a small misprediction still passes. */
  aimAbove: number;
  /** Where probes aim once a full probe has measured the photo's own offset (its predictions err less). */
  calibratedAimAbove: number;
  /** The first quality to try without a proxy (see `predictQuality`). */
  start: number;
  lo: number;
  hi: number;
  /** Full-size probes at most. */
  maxProbes: number;
  /** The encoder's setting for a quality, where several share one (Codec.encoderSetting): probed once. */
  setting?: (quality: number) => number;
  /**
   * When the mosaic reads below the aim at every quality, even with the most favourable offset measured, end
   * the search with `OutOfReach` instead of probing the highest quality at full size: the caller has another
   * setting to try (full chroma).
   */
  outOfReachEnds?: boolean;
}

/** The goal is out of this search's reach by its mosaic (`ScoreSearch.outOfReachEnds`). */
export class OutOfReach extends Error {
  constructor() {
    super("The goal is out of reach at these settings");
  }
}

/**
 * A cheap stand-in for the full-size score at a quality (the score of a small
 * mosaic of the image's own tiles, codecs/image/mosaic.ts): it reads higher or
 * lower than the full image by an amount that changes slowly with quality, so
 * each full-size probe calibrates it.
 */
export type Proxy = (quality: number) => Promise<number>;

/** A proxy reading: the mosaic's score and its encoded size at one quality. */
export interface ProxyReading {
  score: number;
  size: number;
}

/**
 * Before any full-size encode, for ranking encoders: the mosaic's bytes at the quality predicted to reach
 * the search's aim (with the prior offset between mosaic and full image). Two readings: one at the
 * encoder's own first guess, one a predicted step towards the aim; when both land on one side of the aim (a
 * curve flatter or steeper than the prior slope), a third at the crossing their own slope predicts, so the
 * bytes are interpolated, not extrapolated (extrapolating twice the readings' gap misjudged jpegli's bytes
 * by 5-10% on flat curves). Score and log-size are interpolated between the two readings nearest the aim.
 * The search that follows reuses every reading (the proxy is memoised by the caller).
 */
export async function sizeAtAimByProxy(
  spec: ScoreSearch,
  proxy: (quality: number) => Promise<ProxyReading>,
): Promise<{ size: number; readings: Map<number, number> }> {
  const aim = spec.goal + spec.aimAbove - PRIOR_PROXY_OFFSET;
  const q0 = clamp(Math.round(spec.start), spec.lo, spec.hi);
  const readings = new Map<number, ProxyReading>([[q0, await proxy(q0)]]);
  const r0 = readings.get(q0)!;
  // One step past the predicted crossing, so that the two readings usually bracket the aim.
  const step = r0.score >= aim ? -1 : 1;
  const q1 = clamp(Math.round(q0 + (aim - r0.score) / PRIOR_SLOPE) + step, spec.lo, spec.hi);
  if (q1 !== q0) readings.set(q1, await proxy(q1));
  const r1 = readings.get(q1)!;
  if (q1 !== q0 && (r0.score >= aim) === (r1.score >= aim)) {
    const slope = clamp((r1.score - r0.score) / (q1 - q0), 0.15, 4);
    const q2 = clamp(Math.round(q1 + (aim - r1.score) / slope) + step, spec.lo, spec.hi);
    if (!readings.has(q2)) readings.set(q2, await proxy(q2));
  }
  const [a, b] = [...readings.values()].sort((x, y) => Math.abs(x.score - aim) - Math.abs(y.score - aim));
  const t = !b || b.score === a!.score ? 0 : clamp((aim - a!.score) / (b.score - a!.score), -1, 2);
  return {
    size: Math.exp(Math.log(a!.size) + t * (Math.log((b ?? a!).size) - Math.log(a!.size))),
    readings: new Map([...readings].map(([q, r]) => [q, r.score])),
  };
}

/**
 * The lowest quality whose proxy score, shifted by a known offset (one measured at full size, on this photo),
 * reaches the search's aim; readings already taken are reused.
 */
export function qualityByProxy(
  spec: ScoreSearch,
  proxy: Proxy,
  offset: number,
  known: ReadonlyMap<number, number> = new Map(),
): Promise<number> {
  const scores = new Map(known);
  const start = clamp(Math.round(spec.start), spec.lo, spec.hi);
  return lowestPassingByProxy(
    scores,
    memoReader(scores, proxy),
    spec.goal + spec.aimAbove,
    () => offset,
    spec.lo,
    spec.hi,
    start,
  )
    .then((q) => clamp(q, spec.lo, spec.hi));
}

function memoReader(scores: Map<number, number>, proxy: Proxy | null): Proxy {
  return async (q) => {
    let score = scores.get(q);
    if (score === undefined) scores.set(q, score = await proxy!(q));
    return score;
  };
}

/** The full image's score minus the proxy's at a quality: one measured offset, or one per bracketing probe. */
type Offset = (quality: number) => number;

/**
 * Lowest quality in [lo, hi] whose proxy score + offset reaches the aim (hi + 1 if none). The proxy is
 * cheap, not free: known readings set the bracket, then each reading is placed by interpolation inside it
 * (or by the local slope, until it is closed). `calibrated`: the offset was measured at full size on this
 * photo (a search's later predictions).
 */
async function lowestPassingByProxy(
  proxyScores: Map<number, number>,
  proxyAt: Proxy,
  aim: number,
  offset: Offset,
  lo: number,
  hi: number,
  from: number,
  calibrated = false,
): Promise<number> {
  let pass = hi + 1, fail = lo - 1;
  for (const [q, score] of proxyScores) {
    if (q < lo || q > hi) continue;
    if (score + offset(q) >= aim) pass = Math.min(pass, q);
    else fail = Math.max(fail, q);
  }
  if (fail >= pass) fail = pass - 1; // a non-monotone reading: trust the passing one
  const at = (x: number) => proxyScores.get(x)! + offset(x);
  // A bracket this narrow is closed by interpolation, not by more readings: the full probe verifies anyway.
  const interpolated = () =>
    clamp(Math.ceil(fail + ((aim - at(fail)) * (pass - fail)) / Math.max(1e-6, at(pass) - at(fail))), fail + 1, pass);
  const bracketed = () => pass <= hi && fail >= lo;
  // Where to read first when `from` is outside the bracket (so a reading at one end of it is known).
  // Calibrated (the offset measured by a full probe), one step past the crossing the slope at that end
  // predicts, so that one reading usually closes it: halving a bracket open on one side read far from the aim
  // (q48 after a passing q79, an AVIF reading of a quarter to half a second, then three more). Before any full
  // probe the prior offset is a guess, and halving kept the same results in fewer full probes on both corpora.
  const inside = () => {
    if (bracketed() || !calibrated) return Math.floor((pass + fail) / 2);
    const [edge, above] = pass <= hi ? [pass, true] : [fail, false];
    const steps = Math.abs(at(edge) - aim) / proxySlope(proxyScores, edge);
    return above ? Math.floor(edge - steps) - 1 : Math.ceil(edge + steps) + 1;
  };
  let q = clamp(from, lo, hi);
  while (pass - fail > 1) {
    if (bracketed() && pass - fail <= INTERPOLATE_WITHIN) return interpolated();
    if (q <= fail || q >= pass) q = clamp(inside(), Math.max(lo, fail + 1), Math.min(hi, pass - 1));
    const score = (await proxyAt(q)) + offset(q);
    if (score >= aim) pass = q;
    else fail = q;
    if (pass - fail <= 1) break;
    let next: number;
    if (bracketed()) {
      next = interpolated();
    } else {
      const slope = proxySlope(proxyScores, q);
      next = score >= aim ? Math.floor(q - (score - aim) / slope) : Math.ceil(q + (aim - score) / slope);
    }
    // Move at least one step, and stay inside the open bracket.
    if (next === q) next = score >= aim ? q - 1 : q + 1;
    q = clamp(next, Math.max(lo, fail + 1), Math.min(hi, pass - 1));
  }
  return pass;
}

/**
 * A step below the lowest passing probe that the calibrated proxy puts this far under the goal is taken to fail
 * without a full probe (see searchScore).
 */
export const SURE_FAIL_POINTS = 0.2;

/** Proxy readings this many quality steps apart are interpolated between rather than read again. */
const INTERPOLATE_WITHIN = 4;

/** The proxy's score at `q`: read, or interpolated between readings at most INTERPOLATE_WITHIN apart. */
function interpolatedReading(scores: ReadonlyMap<number, number>, q: number): number | null {
  const exact = scores.get(q);
  if (exact !== undefined) return exact;
  let below: number | null = null, above: number | null = null;
  for (const x of scores.keys()) {
    if (x < q && (below === null || x > below)) below = x;
    if (x > q && (above === null || x < above)) above = x;
  }
  if (below === null || above === null || above - below > INTERPOLATE_WITHIN) return null;
  const a = scores.get(below)!, b = scores.get(above)!;
  return a + ((b - a) * (q - below)) / (above - below);
}

/**
 * The full image's score minus the proxy's, before a full probe calibrates it. Measured on the public corpus
 * at q74-86 for both encoders: -3.8 to +2.3, median -1.8, nearly the same for both encoders on one photo
 * (it is the photo's: how its tiles stand for it).
 */
const PRIOR_PROXY_OFFSET = -1.8;
/** The highest of those offsets (the full image reading above its mosaic). */
const HIGHEST_PROXY_OFFSET = 2.3;

/**
 * Predict, then verify. With a proxy: find the lowest quality whose proxy score,
 * shifted by the offset the nearest full probe measured, reaches the aim; probe
 * it at full size; repeat inside the bracket the full probes established. Without
 * one (small images): secant steps on the full probes, from a prior slope.
 * Stops at the first passing probe within `slack` of the goal, or when the passing
 * and failing qualities are adjacent. Returns the smallest passing
 * probe, else the best-scoring one.
 */
export async function searchScore<P extends Probe>(
  spec: ScoreSearch,
  probe: (quality: number) => Promise<P>,
  proxy: Proxy | null = null,
  /** Proxy readings already taken (by `sizeAtAimByProxy`), by quality: reused, not read again. */
  known: ReadonlyMap<number, number> = new Map(),
): Promise<{ chosen: P; passed: boolean; probes: number; proxyProbes: number }> {
  const done: P[] = [];
  const aim = spec.goal + spec.aimAbove;
  const sameEncode = (a: number, b: number) => a === b || (!!spec.setting && spec.setting(a) === spec.setting(b));
  const proxyScores = new Map(known);
  const proxyAt = memoReader(proxyScores, proxy);
  const calibratedAim = spec.goal + spec.calibratedAimAbove;
  const proxyPrediction = (offset: Offset, lo: number, hi: number, from: number, calibrated = false) =>
    lowestPassingByProxy(proxyScores, proxyAt, calibrated ? calibratedAim : aim, offset, lo, hi, from, calibrated);
  const offsetAt = async (p: P) => p.score - (interpolatedReading(proxyScores, p.quality) ?? await proxyAt(p.quality));

  let quality = clamp(Math.round(spec.start), spec.lo, spec.hi);
  if (proxy) {
    quality = await proxyPrediction(() => PRIOR_PROXY_OFFSET, spec.lo, spec.hi, quality);
    // The mosaic reaches the aim at no quality with the usual offset: a photo whose full image reads above its
    // mosaic. The most favourable offset measured predicts the first probe instead of the highest quality
    // (an expensive probe, and rarely the floor).
    if (quality > spec.hi) quality = await proxyPrediction(() => HIGHEST_PROXY_OFFSET, spec.lo, spec.hi, spec.hi);
    if (quality > spec.hi && spec.outOfReachEnds) throw new OutOfReach();
    quality = clamp(quality, spec.lo, spec.hi);
  }
  while (done.length < spec.maxProbes + (overshotEveryPass(done, spec.goal) ? 1 : 0)) {
    const p = await probe(quality);
    done.push(p);
    const pass = p.score >= spec.goal;
    if (pass && p.score <= spec.goal + spec.slack) {
      if (!spec.stepDownWhenFlat) break;
      // Within the slack, unless the curve is flat here: then one step down still passes, for a step's bytes
      // (5% at q91 on one photo, where a step moved the score by 0.2).
      // The next quality down with an encoder setting of its own (AVIF's neighbours may share p's quantiser).
      let below = p.quality - 1;
      while (below >= spec.lo && sameEncode(below, p.quality)) below--;
      if (below < spec.lo || done.some((d) => sameEncode(d.quality, below))) break;
      // The slope from the readings around: a single mosaic reading has steps of its own (jpegli's mosaic moved
      // more than half a point from q90 to q91 on one validation photo whose full image moved 0.39).
      const step = proxy
        ? (interpolatedReading(proxyScores, p.quality) ?? await proxyAt(p.quality)) -
          (interpolatedReading(proxyScores, below) ?? await proxyAt(below))
        : slopeNear(done, aim, spec.slope);
      if (p.score - step < spec.goal) break;
      // A step the mosaic reads exactly the same is the same encode, for an encoder that declares no setting of
      // its own (MozJPEG's tables saturate near q100): nothing to gain.
      if (proxy && (await proxyAt(p.quality)) === (await proxyAt(below))) break;
      quality = below;
      continue;
    }
    const passing = done.filter((d) => d.score >= spec.goal).map((d) => d.quality);
    const failing = done.filter((d) => d.score < spec.goal).map((d) => d.quality);
    const above = passing.length ? Math.min(...passing) : spec.hi + 1; // lowest passing quality
    const below = failing.length ? Math.max(...failing) : spec.lo - 1; // highest failing quality
    if (above - below <= 1) break;
    let next: number;
    if (proxy) {
      // The offset changes with quality (by 3 points over 20 steps on some photos): between two full probes
      // that bracket the goal it is interpolated between theirs, else the last probe's holds.
      let offset: Offset;
      if (passing.length && failing.length) {
        const f = done.find((d) => d.quality === below)!, s = done.find((d) => d.quality === above)!;
        const [of, os] = [await offsetAt(f), await offsetAt(s)];
        offset = (q) => of + ((os - of) * (q - below)) / (above - below);
      } else {
        const o = await offsetAt(p);
        offset = () => o;
      }
      next = await proxyPrediction(offset, below + 1, above - 1, p.quality, true);
      if (next >= above) {
        // The calibrated proxy says the lowest passing probe is already the floor. A step down is probed only
        // when it reads close enough to the goal to pass after all (public corpus: such steps read within 0.2
        // points of their full probe's score on 7 of 9 photos, 0.30 and 0.79 the others, and every one read
        // under goal - 0.2 failed).
        const step = above - 1;
        const predicted = (interpolatedReading(proxyScores, step) ?? await proxyAt(step)) + offset(step);
        if (passing.length && predicted < spec.goal - SURE_FAIL_POINTS) break;
        next = step;
      }
    } else if (passing.length && failing.length) {
      // Bracketed: interpolate between the nearest failing and passing probes.
      const f = done.find((d) => d.quality === below)!, s = done.find((d) => d.quality === above)!;
      next = Math.ceil(f.quality + ((aim - f.score) * (s.quality - f.quality)) / Math.max(1e-6, s.score - f.score));
    } else {
      next = Math.round(quality + (aim - p.score) / slopeNear(done, aim, spec.slope));
    }
    next = clamp(next, below + 1, above - 1);
    // A quality whose encoder setting is already probed (AVIF's neighbouring qualities share a quantiser) would
    // make the same file again: the nearest quality in the bracket with a setting of its own, if any.
    if (done.some((d) => sameEncode(d.quality, next))) {
      const fresh = [];
      for (let q = below + 1; q < above; q++) if (!done.some((d) => sameEncode(d.quality, q))) fresh.push(q);
      next = fresh.sort((a, b) => Math.abs(a - next) - Math.abs(b - next))[0] ?? below;
    }
    if (next <= below || next >= above || next < spec.lo || next > spec.hi) break;
    quality = next;
  }
  const passed = done.filter((d) => d.score >= spec.goal);
  const chosen = passed.length
    ? passed.reduce((a, b) => (b.size < a.size ? b : a))
    : done.reduce((a, b) => (b.score > a.score ? b : a));
  return { chosen, passed: passed.length > 0, probes: done.length, proxyProbes: proxyScores.size - known.size };
}

/**
 * Auto promises a score of 80-83: a search whose probes ran out with every passing one over 3 points above the
 * goal, and the bracket still open, takes one probe more. A curve flat above the goal and steep below it misleads
 * the secant steps: A08 (grey) at 1,280 px in AVIF probed q78 90.4, q65 88.0, q24 65.2, q52 84.0 and kept 84.0.
 */
const OVERSHOOT_POINTS = 3;
function overshotEveryPass(done: readonly Probe[], goal: number): boolean {
  const passing = done.filter((d) => d.score >= goal);
  return passing.length > 0 && passing.every((d) => d.score > goal + OVERSHOOT_POINTS);
}

/** Score points per quality step at `q`, from the two proxy readings nearest it, else a prior. */
function proxySlope(readings: Map<number, number>, q: number): number {
  const near = [...readings].sort((a, b) => Math.abs(a[0] - q) - Math.abs(b[0] - q));
  if (near.length < 2) return PRIOR_SLOPE;
  const [[qa, sa], [qb, sb]] = near as [[number, number], [number, number]];
  return clamp((sa - sb) / (qa - qb), 0.15, 4);
}

/** Score points per quality step near 80 for MozJPEG, the prior where nothing better is known. */
export const PRIOR_SLOPE = 0.8;
function slopeNear(done: Probe[], aim: number, prior: number): number {
  if (done.length < 2) return prior;
  const [a, b] = [...done].sort((x, y) => Math.abs(x.score - aim) - Math.abs(y.score - aim));
  if (a!.quality === b!.quality) return prior;
  return clamp((a!.score - b!.score) / (a!.quality - b!.quality), 0.15, 4);
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
