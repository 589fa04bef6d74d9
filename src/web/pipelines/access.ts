/**
 * What the caller may do with a pipeline, from the signed-in account (the account pages' one query of
 * `GET /api/auth/me`, asked in team and hpc modes; personal mode's single user may do everything): viewers
 * only read; changing, sharing and deleting are for the owner and administrators. The service decides in
 * the end; this only keeps the app from offering what it would refuse.
 */
import { useCurrentUser as useSession } from "../api/account.js";
import { useServiceMode } from "../api/health.js";

/** The signed-in account, or undefined in personal mode, while unknown, or signed out. */
export function useCurrentUser() {
  const { mode } = useServiceMode();
  const me = useSession(mode === "team" || mode === "hpc");
  return me.data?.user;
}

/** The caller's rights on one pipeline and, for each right it lacks, why. */
export interface PipelineAccess {
  /** May create pipelines (new, fork, import) and start runs. */
  create: boolean;
  /** May change, share, roll back and delete this pipeline. */
  write: boolean;
  /** Why a right is missing, as a sentence for the page; null when every right is there. */
  reason: string | null;
}

/** The rights of `user` on a pipeline owned by `owner` (unknown user: everything, the service will say). */
export function accessTo(user: { id: string; role: "admin" | "user" | "viewer" } | undefined, owner: string | undefined): PipelineAccess {
  if (!user) return { create: true, write: true, reason: null };
  if (user.role === "viewer") return { create: false, write: false, reason: "Viewers can read and download pipelines but not run, fork or change them." };
  const write = user.role === "admin" || owner === undefined || owner === user.id;
  return { create: true, write, reason: write ? null : "This pipeline belongs to someone else: fork it to get a copy you can change, share or delete." };
}
