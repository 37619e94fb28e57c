import { z } from "zod";
import { CONTACT_LIMITS, CONTACT_PER_HOUR } from "../../contract/contact.ts";
import type { Db } from "../../db/client.ts";
import { insertContactMessage, recentMessagesFrom } from "../../db/queries/contact.ts";
import { DomainError } from "../domain-error.ts";
import { parseInput } from "./validation.ts";

const HOUR_MS = 60 * 60 * 1000;

const required = (field: keyof typeof CONTACT_LIMITS) =>
  z.string({ error: `${field} is required` }).trim()
    .min(1, `${field} is required`)
    .max(CONTACT_LIMITS[field], `${field} must be at most ${CONTACT_LIMITS[field]} characters`);

export const contactSchema = z.object({
  name: required("name"),
  email: required("email").pipe(z.email("email must be a valid email address")),
  subject: required("subject"),
  message: required("message"),
  website: z.string().optional(),
});

export type ContactOutcome = { stored: true; id: number } | { stored: false; reason: "honeypot" };

/**
 * Validates and stores a contact message (spec §3 form, DESIGN §7).
 * A filled honeypot is dropped without a trace but answered like a success, so bots learn nothing;
 * past CONTACT_PER_HOUR stored messages per IP in the last hour the sender is rate_limited, told when to try again.
 */
export async function submitContactMessage(
  db: Db,
  input: unknown,
  ip: string,
  now: Date = new Date(),
): Promise<ContactOutcome> {
  const data = parseInput(contactSchema, input);
  if (data.website && data.website.trim() !== "") return { stored: false, reason: "honeypot" };

  const recent = await recentMessagesFrom(db, ip, new Date(now.getTime() - HOUR_MS));
  if (recent.count >= CONTACT_PER_HOUR) {
    const reopens = (recent.oldest?.getTime() ?? now.getTime()) + HOUR_MS;
    const seconds = Math.max(1, Math.ceil((reopens - now.getTime()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new DomainError(
      "rate_limited",
      `Too many messages from your network: please try again in ${minutes} minute${minutes === 1 ? "" : "s"}`,
      { retryAfterSeconds: seconds },
    );
  }
  const id = await insertContactMessage(db, {
    name: data.name,
    email: data.email,
    subject: data.subject,
    message: data.message,
    ip,
  });
  return { stored: true, id };
}
