/// <reference lib="deno.worker" />
/**
 * The real host worker (codecs/pool/host-worker.ts), which also dies with an uncaught error when
 * `crashTheHostWorkers()` says so, taking its codec workers with it. Passed to the pool as `hostUrl`
 * (tests/setup/pool-faults.ts).
 */
import "../../codecs/pool/host-worker.ts";
import { HOST_CRASH_CHANNEL } from "./pool-faults.ts";

new BroadcastChannel(HOST_CRASH_CHANNEL).onmessage = () => {
  throw new Error("The test's host worker crashed when told to");
};
