/**
 * Refuses passwords that attackers try first: the length rule lives in
 * contract/accounts.ts (shared with the form); this blocklist is server-only,
 * so the web bundle does not carry it.
 */
import { dictionary } from "@zxcvbn-ts/language-common";
import { DomainError } from "../domain-error.ts";

/** zxcvbn-ts's list of the most common passwords (about 49,000, from real breaches), maintained upstream. */
const COMMON = new Set((dictionary["passwords-common"] as string[]).map((p) => p.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}

export function refuseCommonPassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new DomainError(
      "invalid_input",
      "password is one of the most common passwords, which attackers try first; choose another",
    );
  }
}
