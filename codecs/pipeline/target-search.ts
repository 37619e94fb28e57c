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
  /** The first quality to try (see `predictQuality`). */
  start: number;
  lo: number;
  hi: number;
  maxProbes: number;
}

/**
 * Predict, then verify: encode at the predicted quality, measure, then move by
 * secant steps on score-versus-quality (a prior slope until two probes give one)
 * towards just above the goal, inside the bracket the probes have established.
 * Stops at the first passing probe within `slack` of the goal, or when the
 * passing and failing qualities are adjacent. Returns the smallest passing
 * probe, else the best-scoring one.
 */
export async function searchScore<P extends Probe>(
  spec: ScoreSearch,
  probe: (quality: number) => Promise<P>,
): Promise<{ chosen: P; passed: boolean; probes: number }> {
  const done: P[] = [];
  const aim = spec.goal + Math.min(1, spec.slack / 2);
  let quality = clamp(Math.round(spec.start), spec.lo, spec.hi);
  while (done.length < spec.maxProbes) {
    const p = await probe(quality);
    done.push(p);
    const pass = p.score >= spec.goal;
    if (pass && p.score <= spec.goal + spec.slack) break;
    const passing = done.filter((d) => d.score >= spec.goal).map((d) => d.quality);
    const failing = done.filter((d) => d.score < spec.goal).map((d) => d.quality);
    const above = passing.length ? Math.min(...passing) : spec.hi + 1; // lowest passing quality
    const below = failing.length ? Math.max(...failing) : spec.lo - 1; // highest failing quality
    if (above - below <= 1) break;
    let next = Math.round(quality + (aim - p.score) / slopeNear(done, aim));
    next = clamp(next, below + 1, above - 1);
    if (done.some((d) => d.quality === next)) next = pass ? next - 1 : next + 1;
    if (next <= below || next >= above || next < spec.lo || next > spec.hi) break;
    quality = next;
  }
  const passed = done.filter((d) => d.score >= spec.goal);
  const chosen = passed.length
    ? passed.reduce((a, b) => (b.size < a.size ? b : a))
    : done.reduce((a, b) => (b.score > a.score ? b : a));
  return { chosen, passed: passed.length > 0, probes: done.length };
}

/** Score points per quality step near the aim: from the two probes closest to it, else a prior. */
const PRIOR_SLOPE = 0.8;
function slopeNear(done: Probe[], aim: number): number {
  if (done.length < 2) return PRIOR_SLOPE;
  const [a, b] = [...done].sort((x, y) => Math.abs(x.score - aim) - Math.abs(y.score - aim));
  if (a!.quality === b!.quality) return PRIOR_SLOPE;
  return clamp((a!.score - b!.score) / (a!.quality - b!.quality), 0.15, 4);
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
