import type { LoginInput, RegisterInput, User } from "../../contract/accounts.ts";
import { loginSchema, registerSchema } from "../../contract/accounts.ts";
import type { Db } from "../../db/client.ts";
import type { UserRow } from "../../db/schema.ts";
import { findUserByUsername, insertUser } from "../../db/queries/users.ts";
import { DomainError } from "../domain-error.ts";
import type { PasswordHasher } from "./passwords.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { parseInput } from "./validation.ts";
import { refuseCommonPassword } from "./password-policy.ts";

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    subscriptionStatus: row.subscriptionStatus as User["subscriptionStatus"],
  };
}

export async function register(db: Db, passwords: PasswordHasher, input: RegisterInput | unknown): Promise<UserRow> {
  const data = parseInput(registerSchema, input);
  refuseCommonPassword(data.password);
  const row = await insertUser(db, {
    username: data.username,
    passwordHash: await passwords.hash(data.password),
    email: data.email,
    firstName: data.firstName,
    lastName: data.lastName,
  });
  if (!row) throw new DomainError("conflict", `The username '${data.username}' is already taken`);
  return row;
}

const BAD_CREDENTIALS = "Invalid username or password";

export async function login(
  db: Db,
  throttle: LoginThrottle,
  passwords: PasswordHasher,
  input: LoginInput | unknown,
  ip: string,
): Promise<UserRow> {
  const { username, password } = parseInput(loginSchema, input);
  // Counted as a failure from here on, unless the password turns out right.
  const attempt = await throttle.begin(username, ip);
  if (attempt.retryAfter > 0) {
    throw new DomainError("rate_limited", "Too many failed sign-in attempts; try again later", {
      retryAfterSeconds: attempt.retryAfter,
    });
  }
  const row = await findUserByUsername(db, username);
  // Verify against a dummy hash for unknown users so timing does not reveal who exists.
  const ok = await passwords.verify(password, row?.passwordHash ?? await passwords.dummyHash());
  if (!row || !ok) throw new DomainError("unauthenticated", BAD_CREDENTIALS);
  await throttle.recordSuccess(username, ip, attempt);
  return row;
}
