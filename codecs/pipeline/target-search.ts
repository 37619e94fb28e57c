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
