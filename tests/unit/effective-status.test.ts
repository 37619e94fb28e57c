/**
 * The effective plan has one rule and two spellings: `effectiveSubscriptionStatus` for one user, and
 * `premiumNowSql` for queries over many (the shared queue's order). Both run over the same rows here.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { isPremium, SUBSCRIPTION_STATUSES } from "../../contract/accounts.ts";
import { createDb } from "../../db/client.ts";
import { insertUser } from "../../db/queries/users.ts";
import { users } from "../../db/schema.ts";
import {
  type BillingFields,
  effectiveSubscriptionStatus,
  LOCAL_SUBSCRIPTION_PREFIX,
  premiumNowSql,
} from "../../server/services/billing/effective-status.ts";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const seconds = (ms: number) => Math.floor(ms / 1000);

Deno.test("premiumNowSql decides as effectiveSubscriptionStatus over every kind of billing row", async () => {
  const database = await createDb({ url: ":memory:" });
  try {
    const rows: BillingFields[] = [];
    for (const subscriptionStatus of [...SUBSCRIPTION_STATUSES, "unknown"]) {
      for (const currentPeriodEnd of [null, seconds(NOW) - 1, seconds(NOW), seconds(NOW) + 1]) {
        for (const cancelAtPeriodEnd of [false, true]) {
          for (const stripeSubscriptionId of [null, "sub_1", `${LOCAL_SUBSCRIPTION_PREFIX}1`, "localXsubX1"]) {
            rows.push({ subscriptionStatus, currentPeriodEnd, cancelAtPeriodEnd, stripeSubscriptionId });
          }
        }
      }
    }
    for (const [i, row] of rows.entries()) {
      const user = await insertUser(database.db, {
        username: `u${i}`,
        passwordHash: "x",
        email: null,
        firstName: null,
        lastName: null,
      });
      await database.db.update(users).set(row).where(sql`id = ${user!.id}`);
    }
    const decided = await database.db.all<{ username: string; premium: number }>(
      sql`SELECT username, ${premiumNowSql(NOW, "u")} AS premium FROM users u ORDER BY id`,
    );
    assert.equal(decided.length, rows.length);
    for (const [i, row] of rows.entries()) {
      const expected = isPremium(effectiveSubscriptionStatus(row, NOW));
      assert.equal(Boolean(decided[i]!.premium), expected, JSON.stringify(row));
    }
    // The matrix holds both answers, and an ended period that does not renew among the refusals.
    assert.ok(decided.some((d) => d.premium) && decided.some((d) => !d.premium));
  } finally {
    database.close();
  }
});
