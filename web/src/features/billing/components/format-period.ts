/** A period end (unix seconds) as "June 1, 2025" in the reader's time zone. */
export const formatPeriodEnd = (unixSeconds: number): string =>
  new Date(unixSeconds * 1000).toLocaleDateString("en-US", { dateStyle: "long" });
