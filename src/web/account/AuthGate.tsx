/** Sends a caller without a session to the sign-in page in team and hpc modes (being built: issue 17). */
import type { ReactNode } from "react";

export function AuthGate({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
