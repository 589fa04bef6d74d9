/**
 * Which account an external identity signs into. An identity is linked to one account by provider and the
 * provider's user id, never by a name (predecessor 14.1 #2: a GitHub login equal to `admin` must not become
 * the administrator). The first sign-in of an identity creates an account with role `user` and no password,
 * named after the provider's login, made unique with a suffix when taken or when it looks like an existing
 * name (`octocat`, `octocat-2`, …; see usernames.ts).
 */
import type { AccountStore, OAuthIdentity, User } from "../../store/accounts/contract.js";
import { isStoreError } from "../../store/store-error.js";
import type { ExternalIdentity } from "./oauth-providers.js";
import type { OAuthProviderId } from "./oauth-settings.js";
import { lookAlike } from "./usernames.js";

/** Usernames made from a login keep room for a `-NN` suffix. */
const STEM_LENGTH = 56;

/** A username stem from a provider login or name, in the shape of a new username (usernames.ts). */
export function usernameStem(login: string | null, provider: OAuthProviderId): string {
  const ascii = (login ?? "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  const stem = ascii
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/[._-]{2,}/g, (marks) => marks[0]!)
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, STEM_LENGTH)
    .replace(/[^A-Za-z0-9]+$/, "");
  return stem === "" ? `${provider}-user` : stem;
}

/** The account an identity signs into, and whether this sign-in created it. */
export interface LinkedAccount {
  user: User;
  created: boolean;
}

/** Finds the account linked to an identity, or creates one and links it. */
export async function accountForIdentity(store: AccountStore, provider: OAuthProviderId, identity: ExternalIdentity): Promise<LinkedAccount> {
  const linked = await store.findIdentity(provider, identity.providerUserId);
  if (linked) return { user: await store.getUser(linked.user_id), created: false };
  const user = await createUniqueUser(store, usernameStem(identity.login, provider));
  let link: OAuthIdentity;
  try {
    link = await store.linkIdentity({ provider, provider_user_id: identity.providerUserId, user_id: user.id, login: identity.login });
  } catch (error) {
    // The same identity's first sign-in in another tab won the race: use its account, drop this one.
    if (!isStoreError(error, "CONFLICT")) throw error;
    await store.deleteUser(user.id);
    const winner = await store.findIdentity(provider, identity.providerUserId);
    if (!winner) throw error;
    return { user: await store.getUser(winner.user_id), created: false };
  }
  return { user: await store.getUser(link.user_id), created: true };
}

/** Creates a `user` account without a password under the stem, or the stem with the first suffix that looks like no other account. */
async function createUniqueUser(store: AccountStore, stem: string): Promise<User> {
  const existing = await store.listUsers();
  for (let attempt = 1; attempt <= 100; attempt++) {
    const username = attempt === 1 ? stem : `${stem}-${attempt}`;
    if (lookAlike(username, existing)) continue;
    try {
      return await store.createUser({ username, role: "user", password_hash: null });
    } catch (error) {
      if (!isStoreError(error, "CONFLICT")) throw error;
    }
  }
  // A hundred accounts named alike: a random suffix instead of counting further.
  return store.createUser({ username: `${stem}-${crypto.randomUUID().slice(0, 8)}`, role: "user", password_hash: null });
}
