/**
 * The AI settings (`/settings/ai`): which providers answer, in the order they are tried and where each comes
 * from; a test of the first one; your own provider and (administrators, and anyone in personal mode) the
 * shared one: provider, model, base URL and key. The key is write-only: never shown or pre-filled, only
 * whether one is saved; an empty key field keeps it. Removing settings asks first.
 */
import { useId, useState, type FormEvent } from "react";
import { useCurrentUser } from "../api/account.js";
import { useAiConfig, useRemoveAiConfig, useSaveAiConfig, useTestAi, type AiConfig } from "../api/ai.js";
import { useServiceMode } from "../api/health.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { QueryState } from "../components/QueryState.js";
import { relativeTime } from "../components/formatting.js";
import "./ai.css";

type Stored = NonNullable<AiConfig["user"]>;
type Scope = "user" | "server";

/** The provider kinds a user chooses from, with their defaults (as the service fills them in). */
const PROVIDERS = {
  anthropic: { label: "Anthropic (Claude)", model: "claude-sonnet-4-5", url: "https://api.anthropic.com/v1", key: true },
  openai: { label: "OpenAI", model: "gpt-4o", url: "https://api.openai.com/v1", key: true },
  deepseek: { label: "DeepSeek", model: "deepseek-chat", url: "https://api.deepseek.com", key: true },
  ollama: { label: "Ollama (a local model runner)", model: "llama3.1", url: "http://127.0.0.1:11434/api", key: false },
} as const;
type Kind = keyof typeof PROVIDERS;

/** Where a provider of the chain comes from, in words. */
const SOURCES: Record<string, string> = {
  user: "your own settings",
  server: "the shared settings",
  environment: "the service's environment (SERVICE_AI_*)",
  discovered: "found in the service's environment (a provider's own API key variable)",
  local: "the local Ollama (OLLAMA_HOST)",
};

export function AiSettingsPage() {
  const config = useAiConfig();
  const { mode } = useServiceMode();
  const me = useCurrentUser(mode === "team" || mode === "hpc");
  const viewer = me.data?.user.role === "viewer";
  return (
    <section className="ai-settings-page" aria-labelledby="ai-settings-title">
      <div>
        <h1 id="ai-settings-title">AI settings</h1>
        <p className="muted">
          strand asks a language model to draft pipelines from a description and to explain failed runs. Its answers are proposals: nothing is saved or run until you do it. Keys are kept encrypted on the
          service and never shown again.
        </p>
      </div>
      <QueryState query={config} empty={null} />
      {config.data ? (
        <>
          <ChainCard config={config.data} canTest={!viewer} />
          {viewer ? (
            <div className="ai-card" role="note">
              <h2>Your own provider</h2>
              <p>Viewers read pipelines and runs but do not use the AI features, so there is nothing to set here. Ask an administrator for the user role if you need them.</p>
            </div>
          ) : (
            <SettingsCard
              scope="user"
              title="Your own provider"
              lead="Used first for your requests only (drafts, explanations), before the shared provider. Useful for your own key or model."
              stored={config.data.user}
            />
          )}
          {config.data.can_change_server ? (
            <SettingsCard
              scope="server"
              title="Shared provider"
              lead={mode === "personal" ? "The service's provider: what answers when you have no settings of your own." : "The provider everyone on this service uses unless they set their own. Only administrators change it."}
              stored={config.data.server}
            />
          ) : (
            <SharedReadOnly stored={config.data.server} />
          )}
        </>
      ) : null}
    </section>
  );
}

/** The chain: who answers first, who takes over, and a test of the first. */
function ChainCard({ config, canTest }: { config: AiConfig; canTest: boolean }) {
  const test = useTestAi();
  return (
    <section className="ai-card" aria-labelledby="ai-chain-title">
      <h2 id="ai-chain-title">Who answers</h2>
      {config.is_configured ? (
        <p>
          AI is on: <strong>{config.provider}</strong> ({config.model}) answers first{config.source ? `, from ${SOURCES[config.source] ?? config.source}` : ""}. When a provider fails, the next one
          takes over.
        </p>
      ) : (
        <p>
          <strong>AI is off:</strong> no provider is usable. Set one below (or start the service with <code>SERVICE_AI_PROVIDER</code> and <code>SERVICE_AI_API_KEY</code>).
        </p>
      )}
      {config.chain.length > 0 ? (
        <table className="ai-chain">
          <caption className="visually-hidden">Providers in the order they are tried</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Provider</th>
              <th scope="col">Model</th>
              <th scope="col">Address</th>
              <th scope="col">Comes from</th>
            </tr>
          </thead>
          <tbody>
            {config.chain.map((entry, index) => (
              <tr key={`${entry.provider}-${entry.source}-${index}`}>
                <td>
                  {index + 1}
                  {index === 0 ? <span className="ai-first">first</span> : null}
                </td>
                <th scope="row">{entry.provider}</th>
                <td className="mono">{entry.model}</td>
                <td className="mono ai-url">{entry.api_url ?? <span className="muted">shown to administrators</span>}</td>
                <td>{SOURCES[entry.source] ?? entry.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {config.is_configured && canTest ? (
        <div className="ai-actions">
          <button type="button" onClick={() => test.mutate()} disabled={test.isPending} aria-busy={test.isPending}>
            {test.isPending ? "Testing…" : `Test ${config.provider}`}
          </button>
          <span className="muted">Asks the first provider for a one-word reply.</span>
        </div>
      ) : null}
      <div aria-live="polite">
        {test.error ? <ErrorNotice error={test.error} /> : null}
        {test.data ? (
          <div className={`ai-test-result ${test.data.success ? "ai-test-ok" : "ai-test-bad"}`} role="status">
            <p>
              <strong>{test.data.success ? "✓ It works" : "✕ It does not work"}</strong> · {test.data.provider} ({test.data.model}) · {test.data.latency_ms} ms
            </p>
            <p className="mono">{test.data.message}</p>
          </div>
        ) : null}
      </div>
    </section>
  );
}

/** One scope's settings as a form: save, remove (after a confirmation). */
function SettingsCard({ scope, title, lead, stored }: { scope: Scope; title: string; lead: string; stored: Stored | null }) {
  const titleId = useId();
  return (
    <section className="ai-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <p className="muted">{lead}</p>
      {stored ? (
        <p>
          Saved: <strong>{stored.provider}</strong>
          {stored.model ? ` · ${stored.model}` : ""}
          {stored.api_url ? <span className="mono"> · {stored.api_url}</span> : null} · <span className="muted">changed {relativeTime(stored.updated_at)}</span>
        </p>
      ) : (
        <p>Nothing saved yet.</p>
      )}
      {/* A new form after each save, so the fields show what was saved (the key field stays empty). */}
      <SettingsForm key={stored?.updated_at ?? "none"} scope={scope} stored={stored} title={title} />
    </section>
  );
}

function SettingsForm({ scope, stored, title }: { scope: Scope; stored: Stored | null; title: string }) {
  const initialKind = (stored && stored.provider in PROVIDERS ? stored.provider : "anthropic") as Kind;
  const [kind, setKind] = useState<Kind>(initialKind);
  const [model, setModel] = useState(stored?.model ?? "");
  const [url, setUrl] = useState(stored?.api_url ?? "");
  const [key, setKey] = useState("");
  const [removing, setRemoving] = useState(false);
  const [saved, setSaved] = useState(false);
  const id = useId();
  const defaults = PROVIDERS[kind];
  // The service keeps a saved key only while the provider stays the same.
  const keyKept = stored !== null && stored.has_api_key && stored.provider === kind;
  const change = useSaveAiConfig();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    change.mutate(
      { scope, provider: kind, model: model.trim() || null, api_url: url.trim() || null, ...(key.trim() ? { api_key: key.trim() } : {}) },
      {
        onSuccess: () => {
          setKey("");
          setSaved(true);
        },
      },
    );
  };
  const remove = useRemoveAiConfig(scope, { onSuccess: () => setRemoving(false) });
  return (
    <form className="ai-settings-form" onSubmit={submit} aria-label={`${title} settings`}>
      <div className="ai-field">
        <label htmlFor={`${id}-provider`}>Provider</label>
        <select id={`${id}-provider`} value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
          {Object.entries(PROVIDERS).map(([value, entry]) => (
            <option key={value} value={value}>
              {entry.label}
            </option>
          ))}
        </select>
      </div>
      <div className="ai-field">
        <label htmlFor={`${id}-model`}>Model</label>
        <input id={`${id}-model`} value={model} maxLength={200} placeholder={`default: ${defaults.model}`} onChange={(event) => setModel(event.target.value)} />
      </div>
      <div className="ai-field">
        <label htmlFor={`${id}-url`}>Base URL</label>
        <input id={`${id}-url`} value={url} maxLength={500} placeholder={defaults.url} inputMode="url" onChange={(event) => setUrl(event.target.value)} aria-describedby={`${id}-url-hint`} />
        <span id={`${id}-url-hint`} className="muted">
          Empty: the provider's own address.
        </span>
      </div>
      <div className="ai-field">
        <label htmlFor={`${id}-key`}>API key</label>
        <input
          id={`${id}-key`}
          type="password"
          value={key}
          maxLength={500}
          autoComplete="new-password"
          spellCheck={false}
          placeholder={keyKept ? "•••••••• (saved)" : defaults.key ? "paste the key" : "not needed"}
          onChange={(event) => setKey(event.target.value)}
          aria-describedby={`${id}-key-state`}
        />
        <span id={`${id}-key-state`} className={`ai-key-state ${keyKept ? "ai-key-saved" : "muted"}`}>
          {keyKept ? "✓ A key is saved (never shown). Leave empty to keep it." : defaults.key ? (stored?.has_api_key ? "The saved key is for another provider: give this one's key." : "No key saved.") : "Ollama needs no key."}
        </span>
      </div>
      <div className="ai-actions">
        <button type="submit" className="ai-primary" disabled={change.isPending} aria-busy={change.isPending}>
          {change.isPending ? "Saving…" : "Save"}
        </button>
        {stored ? (
          <button type="button" className="danger-text" onClick={() => setRemoving(true)}>
            Remove
          </button>
        ) : null}
        {saved && !change.isPending ? (
          <span className="ai-saved-note" role="status">
            Saved.
          </span>
        ) : null}
      </div>
      {change.error ? <ErrorNotice error={change.error} /> : null}
      <ConfirmDialog
        open={removing}
        title={`Remove the ${title.toLowerCase()}?`}
        confirmLabel="Remove settings"
        cancelLabel="Keep them"
        danger
        busy={remove.isPending}
        busyLabel="Removing…"
        error={remove.error}
        onCancel={() => {
          setRemoving(false);
          remove.reset();
        }}
        onConfirm={() => remove.mutate()}
      >
        <p>
          The {stored?.provider} settings {stored?.has_api_key ? "and their saved key " : ""}are deleted. {scope === "user" ? "Your requests then go to the shared provider, if there is one." : "Users without settings of their own then have no AI provider unless the service's environment names one."}
        </p>
      </ConfirmDialog>
    </form>
  );
}

/** The shared settings for a user who may not change them. */
function SharedReadOnly({ stored }: { stored: Stored | null }) {
  return (
    <section className="ai-card" aria-labelledby="ai-shared-title">
      <h2 id="ai-shared-title">Shared provider</h2>
      {stored ? (
        <p>
          <strong>{stored.provider}</strong>
          {stored.model ? ` · ${stored.model}` : ""}
          {stored.api_url ? <span className="mono"> · {stored.api_url}</span> : null}
          {stored.has_api_key ? " · a key is saved" : ""}
        </p>
      ) : (
        <p>No shared settings are saved (the service's environment may still name a provider: see above).</p>
      )}
      <p className="muted">
        Only administrators change the shared provider.
      </p>
    </section>
  );
}
