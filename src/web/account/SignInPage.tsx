/**
 * Signing in (team and hpc modes): a username and password, or GitHub and ORCID when the service offers them;
 * a failed provider sign-in lands here with its reason. After signing in the app goes to `return_to` (a path
 * inside the app only) or the pipelines. Personal mode has no sign-in: the page says so.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { providerSignInUrl, providersQuery, useSignIn } from "../api/account.js";
import { ApiError } from "../api/errors.js";
import { useServiceMode } from "../api/health.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { safeReturnPath } from "./return-path.js";
import "./account.css";

export function SignInPage() {
  const { mode, health } = useServiceMode();
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get("return_to"));
  let body;
  if (health.isError && !mode) body = <ErrorNotice error={health.error} />;
  else if (!mode) body = <p className="muted">Connecting to the service…</p>;
  else if (mode === "personal") {
    body = (
      <>
        <p>This service runs in personal mode: it is yours alone, so there is nothing to sign in to.</p>
        <p>
          <Link className="primary-link" to={returnTo}>
            Go to the app
          </Link>
        </p>
      </>
    );
  } else body = <SignInForms mode={mode} returnTo={returnTo} oauthFailure={oauthFailure(params)} />;
  return (
    <div className="auth-screen">
      <section className="auth-card" aria-labelledby="sign-in-title">
        <div className="auth-brand" aria-hidden="true">
          <svg viewBox="0 0 32 32" width="40" height="40">
            <rect width="32" height="32" rx="7" fill="var(--accent)" />
            <path d="M9 23c6-1 8-5 7-8s-5-4-4-7 5-2 8-1M23 9c-6 1-8 5-7 8s5 4 4 7-5 2-8 1" stroke="var(--panel)" strokeWidth="2.4" fill="none" strokeLinecap="round" />
          </svg>
          <span>strand</span>
        </div>
        <h1 id="sign-in-title">{mode === "personal" ? "No sign-in needed" : "Sign in to strand"}</h1>
        {body}
      </section>
    </div>
  );
}

/** What a failed GitHub or ORCID sign-in left in the address, said in words (null when nothing failed). */
function oauthFailure(params: URLSearchParams): string | null {
  const code = params.get("auth_error");
  if (!code) return null;
  const provider = params.get("auth_provider") === "orcid" ? "ORCID" : params.get("auth_provider") === "github" ? "GitHub" : "the identity provider";
  const reason = params.get("auth_reason");
  if (code === "BAD_REQUEST") return `Signing in with ${provider} did not finish: the sign-in took too long or was started in another window. Please try again.`;
  if (reason === "access_denied") return `${provider} did not let strand sign you in (access was denied there). Try again, or sign in with your username and password.`;
  return `Signing in with ${provider} failed${reason ? ` (${reason.replace(/_/g, " ")})` : ""}. Try again, or sign in with your username and password.`;
}

/** The seconds a 429 answer asks to wait (30 when it does not say). */
function waitSeconds(error: ApiError): number {
  return error.retryAfterSeconds ?? 30;
}

/** A service suggestion as a sentence (the service writes them in lower case, to follow its messages). */
function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;
}

function SignInForms({ mode, returnTo, oauthFailure }: { mode: "team" | "hpc"; returnTo: string; oauthFailure: string | null }) {
  const navigate = useNavigate();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const providers = useQuery(providersQuery());
  const signIn = useSignIn(mode, {
    onSuccess: () => void navigate(returnTo, { replace: true }),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 429) setWaitUntil(Date.now() + waitSeconds(error) * 1000);
    },
  });
  const secondsLeft = waitUntil === null ? 0 : Math.max(0, Math.ceil((waitUntil - now) / 1000));
  useEffect(() => {
    if (waitUntil === null) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [waitUntil]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setWaitUntil(null);
    signIn.mutate({ username: username.trim(), password });
  };
  const oauth = providers.data?.oauth ?? [];
  const failure = signIn.error;
  return (
    <>
      {oauthFailure ? (
        <div className="auth-alert" role="alert">
          {oauthFailure}
        </div>
      ) : null}
      {failure ? (
        <div className="auth-alert" role="alert">
          {failure instanceof ApiError && failure.body.code === "AUTH_FAILED" ? (
            "Wrong username or password."
          ) : failure instanceof ApiError && failure.status === 429 ? (
            <>
              Too many failed sign-ins. {secondsLeft > 0 ? `Try again in ${secondsLeft} s.` : "You can try again now."}
              {failure.body.suggestion ? <div className="muted">{sentence(failure.body.suggestion)}</div> : null}
            </>
          ) : (
            <>
              {failure.message}
              {failure instanceof ApiError && failure.body.suggestion ? <div className="muted">{sentence(failure.body.suggestion)}</div> : null}
            </>
          )}
        </div>
      ) : null}
      <form className="auth-form" onSubmit={submit}>
        <label>
          Username
          <input name="username" autoComplete="username" required autoFocus value={username} onChange={(event) => setUsername(event.target.value)} />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={signIn.isPending || secondsLeft > 0}>
          {signIn.isPending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {oauth.length > 0 ? (
        <>
          <div className="auth-divider">
            <span>or</span>
          </div>
          <div className="auth-providers">
            {oauth.map((provider) => {
              return (
                <a key={provider.id} className={`provider-button provider-${provider.id}`} href={providerSignInUrl(provider.authorize_url, returnTo)}>
                  Sign in with {provider.name}
                </a>
              );
            })}
          </div>
        </>
      ) : null}
      {providers.isError ? <ErrorNotice error={providers.error} /> : null}
      <p className="muted auth-help">Forgot your password? An administrator can reset it.</p>
    </>
  );
}
