/**
 * The cache key of each server resource: the query that reads it and every mutation that changes it
 * use the same one, wherever in the app they live.
 */
export const queryKeys = {
  user: ["user"],
  jobs: ["jobs"],
  batches: ["batches"],
  queueStatus: ["queue-status"],
  usage: ["usage"],
  settings: ["settings"],
  subscriptionStatus: ["subscription-status"],
  siteConfig: ["site-config"],
  apiKeys: ["api-keys"],
  testCheckout: (id: string) => ["test-checkout", id] as const,
} as const;
