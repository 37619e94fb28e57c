/** Account shapes and input rules shared by the API and the web forms. */
import { z } from "zod";

export const USERNAME_RULE = "3-32 characters: letters, digits, '.', '_' or '-'";
export const PASSWORD_RULE = "8-256 characters";

export const usernameSchema = z.string({ error: "username is required" })
  .trim()
  .regex(/^[A-Za-z0-9._-]{3,32}$/, `username must be ${USERNAME_RULE}`);

export const passwordSchema = z.string({ error: "password is required" })
  .min(8, `password must be ${PASSWORD_RULE}`)
  .max(256, `password must be ${PASSWORD_RULE}`);

/** Optional text: blank counts as absent. */
const optionalText = (field: string, max: number) =>
  z.string({ error: `${field} must be text` }).trim()
    .max(max, `${field} must be at most ${max} characters`)
    .optional().nullable()
    .transform((v) => (v ? v : null));

export const registerSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  email: z.string({ error: "email must be text" }).trim().optional().nullable()
    .transform((v) => (v ? v : null))
    .pipe(z.email("email must be a valid email address").max(254).nullable()),
  firstName: optionalText("firstName", 64),
  lastName: optionalText("lastName", 64),
});
export type RegisterInput = z.input<typeof registerSchema>;

export const loginSchema = z.object({
  username: z.string({ error: "username is required" }).trim().min(1, "username is required").max(256),
  password: z.string({ error: "password is required" }).min(1, "password is required").max(256),
});
export type LoginInput = z.input<typeof loginSchema>;

export const SUBSCRIPTION_STATUSES = [
  "free",
  "active",
  "trialing",
  "past_due",
  "canceled",
  "unpaid",
  "incomplete",
  "incomplete_expired",
  "paused",
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface User {
  id: number;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  subscriptionStatus: SubscriptionStatus;
}

export const isPremium = (status: SubscriptionStatus): boolean => status === "active" || status === "trialing";

/** "First Last", else the username (spec §2). */
export function displayName(u: Pick<User, "username" | "firstName" | "lastName">): string {
  const full = [u.firstName, u.lastName].filter(Boolean).join(" ").trim();
  return full || u.username;
}

/** POST /api/logout-others: the user's other sessions were ended. */
export interface LogoutOthersResponse {
  success: true;
  ended: number;
}
