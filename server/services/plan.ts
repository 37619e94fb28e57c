import { planFor, type PlanLimits } from "../../contract/plans.ts";
import { type BillingFields, effectiveSubscriptionStatus } from "./billing/effective-status.ts";

/** The limits that apply to this user now: an ended premium period counts as free at once. */
export const planOf = (user: BillingFields, nowMs = Date.now()): PlanLimits =>
  planFor(effectiveSubscriptionStatus(user, nowMs));
