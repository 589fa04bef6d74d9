/**
 * Accounts as the app reads and changes them: who is signed in (one query the gate, the user menu and the
 * pages share), signing in and out, your password, sessions and access tokens, and (administrators) the
 * accounts of the service. Each mutation refreshes what it changed.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { components } from "../../client/api-types.js";
import { api, dataOf } from "./client.js";
import { isSessionEnded } from "./errors.js";
import { afterCacheWork, type AnswerOf, type Reactions } from "./reactions.js";
import { baseUrl } from "./service-address.js";

/** The signed-in caller as `GET /api/auth/me` answers it. */
export type CurrentUser = components["schemas"]["CurrentUser"];
/** An account as the administrators' list shows it. */
export type User = components["schemas"]["User"];
/** An account's role. */
export type Role = components["schemas"]["UserSummary"]["role"];
/** A new access token, with its secret (shown once). */
export type CreatedAccessToken = components["schemas"]["CreatedAccessToken"];

/** Query keys of the caller's own account. */
export const accountKeys = {
  all: ["account"] as const,
  /** The current user: `null` data means signed out. */
  me: () => [...accountKeys.all, "me"] as const,
  providers: () => [...accountKeys.all, "providers"] as const,
  sessions: () => [...accountKeys.all, "sessions"] as const,
  tokens: () => [...accountKeys.all, "tokens"] as const,
};

/** Query keys of the service's accounts (administrators). */
export const userKeys = {
  all: ["users"] as const,
  list: () => [...userKeys.all, "list"] as const,
};

/**
 * The current user in team and hpc modes, or null when signed out (a 401 is an answer here, not a failure).
 * `enabled` is false in personal mode and on the sign-in page, where asking would only earn a 401.
 */
export function currentUserQuery(enabled: boolean) {
  return queryOptions({
    queryKey: accountKeys.me(),
    enabled,
    retry: false,
    staleTime: 60_000,
    queryFn: async (): Promise<CurrentUser | null> => {
      try {
        return dataOf(await api.GET("/api/auth/me"));
      } catch (error) {
        if (isSessionEnded(error)) return null;
        throw error;
      }
    },
  });
}

/** The current user (see currentUserQuery). */
export function useCurrentUser(enabled: boolean) {
  return useQuery(currentUserQuery(enabled));
}

/** Marks the caller signed out in the cache, so the gate sends them to the sign-in page. */
export function markSignedOut(client: QueryClient): void {
  client.setQueryData(accountKeys.me(), null);
}

/** `GET /api/auth/providers`: the sign-in methods besides the password (they change only with a restart). */
export function providersQuery() {
  return queryOptions({ queryKey: accountKeys.providers(), queryFn: async () => dataOf(await api.GET("/api/auth/providers")), staleTime: Infinity });
}

/** The address that starts a sign-in with an identity provider, coming back to `returnTo`. */
export function providerSignInUrl(authorizeUrl: string, returnTo: string): string {
  const href = new URL(authorizeUrl, baseUrl);
  if (returnTo !== "/") href.searchParams.set("return_to", returnTo);
  return href.href;
}

type Credentials = components["schemas"]["LoginRequest"];
const signIn = async (credentials: Credentials) => dataOf(await api.POST("/api/auth/login", { body: credentials }));

/** Signing in with a username and password; the answers cached before (refusals, another account's data) are dropped. */
export function useSignIn(mode: CurrentUser["mode"], reactions?: Reactions<AnswerOf<typeof signIn>, Credentials>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    ...afterCacheWork((answer) => {
      client.clear();
      client.setQueryData<CurrentUser>(accountKeys.me(), { user: answer.user, expires_at: answer.expires_at, mode, via: "session" });
    }, reactions),
  });
}

/** Signing out: whatever the answer (a session already over says 401), this browser is signed out afterwards. */
export function useSignOut(reactions: { onSettled?: () => void } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => dataOf(await api.POST("/api/auth/logout")),
    onSettled: () => {
      client.clear();
      markSignedOut(client);
      reactions.onSettled?.();
    },
  });
}

const changePassword = async (body: components["schemas"]["PasswordChange"]) => dataOf(await api.POST("/api/auth/password", { body }));

/** Changing your own password (your other sessions end). */
export function useChangePassword(reactions?: Reactions<AnswerOf<typeof changePassword>, components["schemas"]["PasswordChange"]>) {
  return useMutation({
    mutationFn: changePassword,
    ...reactions,
  });
}

/** `GET /api/auth/sessions`: where your account is signed in. */
export function sessionsQuery() {
  return queryOptions({ queryKey: accountKeys.sessions(), queryFn: async () => dataOf(await api.GET("/api/auth/sessions")) });
}

/** Ending one of your sessions. */
export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => dataOf(await api.DELETE("/api/auth/sessions/{id}", { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}

/** `GET /api/auth/tokens`: your access tokens (never their secrets). */
export function tokensQuery() {
  return queryOptions({ queryKey: accountKeys.tokens(), queryFn: async () => dataOf(await api.GET("/api/auth/tokens")) });
}

/** Creating an access token: the answer carries its secret, the only time it is shown. */
export function useCreateToken(reactions?: Reactions<CreatedAccessToken, components["schemas"]["NewAccessToken"]>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: components["schemas"]["NewAccessToken"]) => dataOf(await api.POST("/api/auth/tokens", { body })),
    ...afterCacheWork(() => void client.invalidateQueries({ queryKey: accountKeys.tokens() }), reactions),
  });
}

/** Revoking an access token. */
export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => dataOf(await api.DELETE("/api/auth/tokens/{id}", { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: accountKeys.tokens() }),
  });
}

/** `GET /api/users`: every account of the service (administrators; the audit log names users from it). */
export function usersQuery() {
  return queryOptions({ queryKey: userKeys.list(), queryFn: async () => dataOf(await api.GET("/api/users")) });
}

const createUser = async (body: components["schemas"]["NewUser"]) => dataOf(await api.POST("/api/users", { body }));

/** Creating an account. */
export function useCreateUser(reactions?: Reactions<AnswerOf<typeof createUser>, components["schemas"]["NewUser"]>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    ...afterCacheWork(() => void client.invalidateQueries({ queryKey: userKeys.all }), reactions),
  });
}

/** Changing an account's role; the list is asked again whatever the answer (a refusal keeps the old role). */
export function useChangeRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, role }: { id: string; role: Role }) => dataOf(await api.PATCH("/api/users/{id}", { params: { path: { id } }, body: { role } })),
    onSettled: () => void client.invalidateQueries({ queryKey: userKeys.all }),
  });
}

const resetPassword = async ({ id, password }: { id: string; password: string }) => dataOf(await api.PATCH("/api/users/{id}", { params: { path: { id } }, body: { password } }));

/** Setting an account's password (its sessions and tokens end). */
export function useResetPassword(reactions?: Reactions<AnswerOf<typeof resetPassword>, { id: string; password: string }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    ...afterCacheWork(() => void client.invalidateQueries({ queryKey: userKeys.all }), reactions),
  });
}

/** Deleting an account. */
export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => dataOf(await api.DELETE("/api/users/{id}", { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: userKeys.all }),
  });
}
