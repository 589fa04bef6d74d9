/**
 * The service's API as TypeScript types, generated from its OpenAPI document by openapi-typescript.
 * Do not edit: run `npm run client:generate` after changing a route (a test fails until you do).
 */
export interface paths {
    "/api/ai/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The AI provider that answers for you, every usable provider in chain order, and the saved settings (never a key) */
        get: operations["getAiConfig"];
        put?: never;
        /** Set the shared provider (administrators) or your own; the key is write-only and kept sealed */
        post: operations["setAiConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai/explain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Why a run's job failed: the deterministic diagnosis plus the model's explanation, grounded in the job's stderr tail, exit code and command, with the evidence it quotes */
        post: operations["explainRunFailure"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai/interpret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What a run's results show: narrative, highlights, caveats and next steps, grounded in its result files and their first lines */
        post: operations["interpretRunResults"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai/optimize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A saved pipeline tuned for speed, cost or sensitivity, validated by the engine, with the changes compared rule by rule and effects estimated from your runs of it; never saved */
        post: operations["optimizePipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the first provider of your chain for a one-word reply; says whether it worked and why not */
        post: operations["testAiProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai/translate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A pipeline drafted from a sentence, validated by the engine (errors corrected by the model, up to 3 rounds); never saved by itself */
        post: operations["translateIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai/translate/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Translate with progress as server-sent events: progress (intent, match, generate, validate, correct), then done with the draft, or error
         * @description Named events: `progress` with `{step, message}` (intent adds `intent`, match adds `templates_count`, generate adds `round` and `provider`, validate adds `valid` and `errors`); `done` with the same body as POST /api/ai/translate (it carries `pipeline_id`); `error` with the error body. Keep-alive `: ping` comments. Never compressed. Leaving the stream cancels the model call.
         */
        post: operations["translateIntentStream"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit log, newest first: sign-in attempts, refused requests and state-changing requests (administrators), filtered by user, action, result, resource and time */
        get: operations["listAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with a username and password: a session token, and the session cookie for the browser */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out: end this session and clear the cookie */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who you are signed in as, and until when */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oauth/{provider}/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start signing in with GitHub or ORCID: a redirect to the provider (state and PKCE verifier kept in a 10-minute cookie) */
        get: operations["startOAuthSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oauth/{provider}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the provider sends the browser back: signs in (creating a user account at the first sign-in) and redirects into the app */
        get: operations["finishOAuthSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change your password (your other sessions end) */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sign-in methods this service offers (password, and GitHub or ORCID when configured) */
        get: operations["listSignInMethods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your sessions (signed-in browsers and scripts), the current one marked */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one of your sessions */
        delete: operations["revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your personal access tokens (never their secrets) */
        get: operations["listAccessTokens"];
        put?: never;
        /** Create a personal access token for scripts (shown once) */
        post: operations["createAccessToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of your personal access tokens */
        delete: operations["deleteAccessToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask the copilot; the reply streams as server-sent events (text as it is written, tool calls, a proposed pipeline validated by the engine)
         * @description Named events: `status` {message} (with `restart_round` when a provider failed midway and the next provider writes that round again: drop the text of that round received so far); `tool_call` {name, args}; `tool_result` {name, summary, refused} (refused: the model asked for a tool that does not exist, such as a write); `text` {chunk, round} (token deltas as they arrive; round grows with each correction); `action` {action_type: "pipeline_ready", data: {toml_content, validation: {valid, errors, warnings}}} when the reply proposes a pipeline (validated by the engine, corrected by the model at most twice; sent with valid false when it never validates); `done` {session_id, rounds}; `error` {code: CHAT_ERROR…, message} (no `done` after it). Keep-alive `: ping` comments. Leaving the stream cancels the model call; what was said so far is kept in the session. The session's earlier messages are fed back to the model (the latest in full, older ones as a summary).
         */
        post: operations["sendChatMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/send/json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask the copilot and get the whole reply at once (the same harness and tools as /api/chat/send) */
        post: operations["sendChatMessageJson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your chat sessions, most recently active first */
        get: operations["listChatSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete one of your sessions with its messages */
        delete: operations["deleteChatSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/sessions/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of your sessions with its messages, oldest first */
        get: operations["listChatMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/clusters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The remote clusters you may run on (every one for administrators), by name; never a key or its path */
        get: operations["listClusters"];
        put?: never;
        /** Register a cluster, or change one by id (administrators); fields left out keep their values */
        post: operations["saveCluster"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/clusters/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a cluster from the registry (administrators) */
        delete: operations["deleteCluster"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/clusters/{id}/probe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect to a cluster you may use and report its host name, scheduler, engine, free space and latency
         * @description The host key is checked against the pinned fingerprint before anything is sent: an unpinned or changed key ends the connection before authentication and is recorded for an administrator to confirm (ok false, with the key in the error). An unreachable host or a refused key is also ok false, with the reason.
         */
        post: operations["probeCluster"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data/analyze": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Formats by content, FASTQ read length and quality encoding, pairs, lanes and samples, and template suggestions (bounded walk, no links followed) */
        post: operations["analyzeData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data/perceive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Findings from the files and your description, each with its source, evidence and confidence; conflicts between the two reported */
        post: operations["perceiveData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data/reference": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One genome in the reference roots (SERVICE_REFERENCE_ROOTS): the components found, those missing and the commands to obtain or build them */
        post: operations["findReference"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data/reference/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every genome in the reference roots, and the well-known builds that are missing, with download and build commands */
        get: operations["getReferenceStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data/roots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The folders you may read: your own files folder (relative paths), the data roots, your home (personal mode without data roots) */
        get: operations["listDataRoots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data/samplesheet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Write a sample sheet (sample,fastq_1,fastq_2; one row per lane) from the analysis of your files */
        post: operations["generateSampleSheet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data/samplesheet/parse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Read an nf-core-style sample sheet (CSV or TSV) by header name, with problems per row and column (files checked inside your folders only) */
        post: operations["parseSampleSheet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data/template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A built-in template with the samples and reads of your files written in (the analysis' first suggestion unless named); a proposal, not saved */
        post: operations["templateFromData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Interactive documentation of this API (Swagger UI) */
        get: operations["getApiDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/assets/{version}/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A script or style sheet of the documentation page (cached for good: the path holds the version) */
        get: operations["getApiDocsAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Real-time run and job events as server-sent events
         * @description Each message has `id:` (a sequence number) and `data:` = `{type, time, data}`; types: run_queued, run_started, run_paused, run_resumed, run_completed, run_failed, run_cancelled, job_started, job_completed, job_failed, job_skipped, run_connection, lagged. `lagged` (no id; `data.missed` counts lost events) means the client fell behind or resumed from an id older than the replay ring and should refetch state. `Last-Event-ID` (or `last_event_id` on the first connect) replays recent events. Keep-alive: a `: ping` comment every 15 s. Only events of runs the caller may read are sent; never compressed. The stream ends when the session or token it was opened with ends (sign-out, revocation, expiry, a password reset) or the account's role changes or it is deleted; a client that reconnects is authenticated afresh. A user may hold SERVICE_EVENT_STREAMS_PER_USER streams at once (default 8 in team and hpc modes).
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The entries of a folder: relative paths in your files folder, absolute ones in the data folders you may read (no links followed, at most 1000) */
        get: operations["listFiles"];
        put?: never;
        /** Upload into your files folder (uploads/ or ?path=): the raw file with ?name=, or multipart/form-data file parts; streamed to disk, size-limited (SERVICE_UPLOAD_LIMIT_MB) */
        post: operations["uploadFiles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Availability: version, mode, license and the status of each component */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/hpc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The local scheduler (SLURM): partitions, nodes and the job queue (hpc mode only)
         * @description Read with sinfo and squeue on the service's host and shared between requests for 2 seconds. When no scheduler is installed or its controller does not answer, the answer is still 200, with available false and a message saying why. Partitions and nodes are shown to every signed-in account. Administrators see every job in the queue; everyone else sees the jobs of their own runs (named strand-<run id>-<n>: scheduler jobs never carry sample names) and only a count of the others (other_jobs).
         */
        get: operations["getHpcStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/license": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** License status: type, validity, licensee, expiry, contact (informational only) */
        get: operations["getLicense"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/license/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Install a commercial license after checking its Ed25519 signature */
        post: operations["uploadLicense"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runtime metrics as JSON, or in the Prometheus text format with ?format=prometheus or Accept: text/plain */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipeline/{id}/command": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply one graph edit to a pipeline's text (add, remove, connect, disconnect, update or rename rules; patch the workflow)
         * @description The edit changes only the bytes of what it touches: comments and layout of the rest stay as written, [[rules]] tables stay tables and an inline rules array stays inline. The answer is the edited text with its validation errors (success is false when it does not validate); nothing is saved. The id names a saved pipeline (the caller must be allowed to change it) or is any key of an unsaved editor; undo and redo history is kept per id and caller.
         */
        post: operations["editPipelineGraph"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipeline/{id}/redo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Apply again the caller's latest undone graph edit of this id */
        post: operations["redoPipelineEdit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipeline/{id}/undo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Take back the caller's latest graph edit of this id: the text before it */
        post: operations["undoPipelineEdit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Saved pipelines the caller may read, newest update first (at most 100; without their text) */
        get: operations["listPipelines"];
        put?: never;
        /** Save a pipeline (a draft with lint errors may be saved; its findings come back) */
        post: operations["createPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One saved pipeline (a translation's draft id is not a saved id: 404) */
        get: operations["getPipeline"];
        /** Change a pipeline; the previous content stays as a revision */
        put: operations["updatePipeline"];
        post?: never;
        /** Delete a pipeline with its revisions and share links (its runs stay) */
        delete: operations["deletePipeline"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/{id}/fork": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Copy a pipeline you may read into a private pipeline you own */
        post: operations["forkPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/{id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every revision of a pipeline, newest first (the first is the current content) */
        get: operations["listRevisions"];
        put?: never;
        post?: never;
        /** Delete all but the newest `keep` revisions (frees storage quota; the current content stays) */
        delete: operations["pruneRevisions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/{id}/revisions/{rev}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One revision with its content, by number or id */
        get: operations["getRevision"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/{id}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore an earlier revision's content and name, as a new revision */
        post: operations["rollbackPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/{id}/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a share link (anyone holding it can read and import the pipeline until it expires or is revoked) */
        post: operations["sharePipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/{id}/share/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a share link (at once; the landing document answers 410 afterwards) */
        delete: operations["revokeShare"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/{id}/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The share links of a pipeline, newest first, with their states */
        get: operations["listShares"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/dag": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The rule graph, or the job graph with expanded: true */
        post: operations["pipelineDag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Compare two pipelines */
        post: operations["diffPipelines"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A Dockerfile or Apptainer definition for a pipeline */
        post: operations["exportPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/format": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Format a pipeline canonically (comments kept) */
        post: operations["formatPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a pipeline from strand+https://<host>/share/<token>, oxo+https://<host>/share/<token> (an oxo-flow server's share) or toml+https://<location> */
        post: operations["importPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/lint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Lint a pipeline (E, W and info findings) */
        post: operations["lintPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/parse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Parse a pipeline into its structure */
        post: operations["parsePipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/prepare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Expand a pipeline into jobs with rendered commands */
        post: operations["preparePipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Search saved pipelines (that the caller may read) and templates by name, tags and content, ranked */
        post: operations["searchPipelines"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pipeline statistics */
        post: operations["pipelineStats"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/pipelines/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Validate a pipeline (E codes); a syntax error is a result, not a failure */
        post: operations["validatePipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a plugin manifest's fields and its Ed25519 signature
         * @description Every problem names its field (JSON path), what is wrong and how to fix it; unknown fields are warnings. The signature covers the RFC 8785 canonical JSON of the whole manifest except its signature field. valid is false whenever a present signature does not verify or its key is not trusted; an unsigned manifest is valid with a warning unless allow_unsigned is false.
         */
        post: operations["validatePlugin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs, newest first, a page at a time (stable while runs are created) */
        get: operations["listRuns"];
        put?: never;
        /** Start a run of pipeline text or of a saved pipeline; the pipeline is validated first */
        post: operations["createRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run with the tail of its engine log */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a run */
        post: operations["cancelRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/dag-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The pipeline's DAG with per-node live status, job totals and an ETA (and every job unless jobs=false) */
        get: operations["getRunDagStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/diagnostics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Why jobs failed: one diagnosis per failed job from the rule engine */
        get: operations["getRunDiagnostics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A file or folder of the run's workspace: a file's bytes (ranges supported), a folder's entries, or a folder as a zip
         * @description A file is streamed with its Content-Type (by extension; HTML, XML and unknown text as text/plain), Content-Length, ETag, Accept-Ranges and Content-Disposition (inline for text, JSON, images and PDF, attachment otherwise or with download=1); a Range header answers 206 with Content-Range, or 416 outside the file. Every file answer carries X-Content-Type-Options: nosniff and a Content-Security-Policy that sandboxes it (PDFs: default-src 'none' without sandbox), so nothing in a result runs script on this origin. A folder answers JSON (RunFolder), or with format=zip an application/zip built while it is sent (at most 10,000 entries; links skipped). The workspace is shared by runs of one saved pipeline: it shows the files as they are now. HEAD works too.
         */
        get: operations["readRunFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of the run's jobs, filtered and sorted on the server (a dry run: its plan)
         * @description Each row has the job's position in the engine's order (`index`), status, the engine's reason, times, duration and exit code. `total` counts the jobs the filters keep. Fast on runs of 100,000 jobs: the run's jobs are folded once and kept until its event log changes.
         */
        get: operations["listRunJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the engine's log or of one job's stdout/stderr */
        get: operations["getRunLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause a run */
        post: operations["pauseRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run's report: one self-contained HTML page (summary, rules, timeline, resources, failures with diagnoses, pipeline, environment) */
        get: operations["getRunReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Declared outputs that exist, with sizes */
        get: operations["getRunResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a run */
        post: operations["resumeRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retry a failed or cancelled run: a new run re-executes failed jobs and their downstream only */
        post: operations["retryRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live status: nodes grouped by rule with job counts, the recent timeline, resources (and every job unless jobs=false) */
        get: operations["getRunStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/share/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public landing document of a share link (the token is the credential) */
        get: operations["getShare"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/system": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The machine and process the service runs on */
        get: operations["getSystem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every template: the built-in ones, then those users added */
        get: operations["listTemplates"];
        put?: never;
        /** Add a template (it must parse as a pipeline; its lint result comes back) */
        post: operations["createTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One template, by id, built-in slug or exact name */
        get: operations["getTemplate"];
        put?: never;
        post?: never;
        /** Delete a template you added (administrators: any user template; built-in ones cannot be deleted) */
        delete: operations["deleteTemplate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every account (administrators) */
        get: operations["listUsers"];
        put?: never;
        /** Create an account with a password (administrators) */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an account; its sessions and tokens stop working at once (administrators) */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /** Change an account's role or reset its password (administrators; effective on the account's next request) */
        patch: operations["updateUser"];
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AccessToken: {
            created_at: string;
            expires_at: string | null;
            id: string;
            last_used_at: string | null;
            name: string;
        };
        AiConfig: {
            /** @description where the first provider is called; null unless it is your own or you are an administrator */
            api_url: string | null;
            can_change_server: boolean;
            /** @description every usable provider, in the order they are tried */
            chain: {
                /** @description where it is called; null unless it is your own provider or you are an administrator */
                api_url: string | null;
                model: string;
                provider: string;
                source: string;
            }[];
            is_configured: boolean;
            model: string | null;
            /** @description the provider that answers first for you; null when none is usable */
            provider: string | null;
            /** @description the shared settings saved through this API (never the key; api_url only for administrators) */
            server: {
                api_url: string | null;
                has_api_key: boolean;
                model: string | null;
                provider: string;
                updated_at: string;
            } | null;
            /** @description where the first provider comes from: user, server, environment, discovered or local */
            source: string | null;
            /** @description your own settings (never the key) */
            user: {
                api_url: string | null;
                has_api_key: boolean;
                model: string | null;
                provider: string;
                updated_at: string;
            } | null;
        };
        AiConfigChange: {
            /** @description write-only; kept sealed; leave out to keep the stored key */
            api_key?: string | null;
            /** @description base URL of the provider's API (a local server speaking its protocol works too) */
            api_url?: string | null;
            model?: string | null;
            /** @description anthropic (or claude), openai, deepseek, ollama; disabled removes the settings */
            provider: string;
            /**
             * @description server (administrators; the default for them) or user (your own provider)
             * @enum {string}
             */
            scope?: "server" | "user";
        };
        AiTestResult: {
            latency_ms: number;
            message: string;
            model: string;
            provider: string;
            success: boolean;
        };
        AnalyzeDataRequest: {
            /** @description folder levels below each given folder (default 3, at most 8) */
            max_depth?: number;
            /** @description files looked at in all (default 2000, at most 10000) */
            max_files?: number;
            paths: string[];
        };
        AuditEntry: {
            action: string;
            id: string;
            /** @description the client address (behind a trusted proxy, the address it forwarded) */
            ip: string | null;
            /** @description the request's X-Request-Id, as in the service's log */
            request_id: string | null;
            resource: string | null;
            /** @enum {string} */
            result: "success" | "failure" | "denied";
            /** @description the HTTP status of the answer */
            status: number;
            time: string;
            user: string | null;
        };
        AuditPage: {
            items: components["schemas"]["AuditEntry"][];
            next_cursor: string | null;
        };
        ChatMessage: {
            content: string;
            created_at: string;
            /** @description assistant messages: toml_content, validation, tool_calls, rounds, provider (cancelled or error when the reply was cut short); user messages: the context sent */
            metadata: {
                [key: string]: unknown;
            } | null;
            /** @enum {string} */
            role: "user" | "assistant" | "tool";
            /** @description its place in the session, from 1 */
            seq: number;
        };
        ChatMessages: {
            messages: components["schemas"]["ChatMessage"][];
            session: components["schemas"]["ChatSession"] & {
                /** @description messages up to this seq reach the model only as a summary */
                summarised_through: number;
            };
        };
        ChatReply: {
            provider: {
                model: string;
                provider: string;
            };
            /** @description the assistant's final text (stored in the session) */
            reply: string;
            /** @description model replies it took (1, or more after corrections of a rejected pipeline) */
            rounds: number;
            session_id: string;
            /** @description the pipeline the reply proposes, or null; never saved by itself */
            toml_content: string | null;
            tool_calls: components["schemas"]["ChatToolCall"][];
            validation: components["schemas"]["ChatValidation"];
        };
        ChatSendRequest: {
            context?: {
                /** @description what the data looks like (formats, pairing, samples, organism…) */
                data?: {
                    [key: string]: unknown;
                };
                /** @description a saved pipeline you may read; its rule graph is given to the model */
                pipeline_id?: string;
                /** @description the editor's text (at most 200 KB) */
                toml_content?: string;
            };
            message: string;
            /** @description a run you may read: the model is offered tools that read this run (status, diagnosis, job logs) and no other */
            run_id?: string;
            /** @description continue this session of yours (its earlier messages are fed back to the model); leave out to start one */
            session_id?: string;
        };
        ChatSession: {
            created_at: string;
            id: string;
            message_count: number;
            /** @description the first message's first 60 characters; never changes */
            title: string;
            updated_at: string;
        };
        ChatSessionPage: {
            items: components["schemas"]["ChatSession"][];
            next_cursor: string | null;
        };
        ChatToolCall: {
            /** @description the arguments the model gave */
            args?: unknown;
            name: string;
            /** @description true when the model asked for a tool that does not exist (a write, say) and was refused */
            refused: boolean;
            /** @description the tool's answer, cut to 200 characters */
            summary: string;
        };
        /** @description the engine's verdict on the proposed pipeline */
        ChatValidation: {
            errors: components["schemas"]["Finding"][];
            valid: boolean;
            warnings: components["schemas"]["Finding"][];
        } | null;
        Cluster: {
            /** @description administrators only */
            access?: {
                roles: string[] | null;
                users: string[] | null;
            };
            created_at: string;
            /**
             * @description administrators only: which kind of credential is stored (never the key or its path)
             * @enum {string}
             */
            credential?: "key" | "path" | "none";
            enabled: boolean;
            /** @description administrators only: the engine job's submit options */
            engine_job_options?: string[];
            /**
             * @description where a run's engine runs: on the login node, or as a scheduler job
             * @enum {string}
             */
            engine_placement: "login_node" | "job";
            host_key: components["schemas"]["ClusterHostKey"];
            id: string;
            max_runs_per_user: number | null;
            name: string;
            /** @description administrators only */
            remote_dir?: string;
            /** @enum {string} */
            results: "pull" | "remote";
            /** @enum {string} */
            scheduler: "auto" | "slurm" | "pbs" | "sge" | "lsf" | "none";
            ssh_host: string;
            ssh_port: number;
            /** @description administrators only */
            ssh_user?: string;
            updated_at: string;
        };
        ClusterHostKey: {
            /** @description the pinned SHA-256 fingerprint */
            pinned: string | null;
            /** @description what the last probe saw, when it is not the pinned one */
            seen: string | null;
            /**
             * @description pinned: runs may start; unconfirmed: a probe saw a key for an administrator to confirm; changed: the host's key differs from the pinned one (runs refused); unknown: no key pinned or seen yet
             * @enum {string}
             */
            state: "pinned" | "unconfirmed" | "changed" | "unknown";
        };
        ClusterList: components["schemas"]["Cluster"][];
        ClusterProbe: {
            cluster: string;
            duration_ms: number;
            /** @description what runs would use there, or what to install */
            engine: string | null;
            /** @description why the probe failed: an unpinned or changed host key (with the key seen), an unreachable host, a refused key */
            error: string | null;
            /** @description free space where the remote folder is (or would be) */
            free_bytes: number | null;
            host_key: components["schemas"]["ClusterHostKey"];
            hostname: string | null;
            /** @description one round trip of a command */
            latency_ms: number | null;
            node_version: string | null;
            /** @description the login node answered the probe */
            ok: boolean;
            /**
             * @description the scheduler whose commands answer there
             * @enum {string|null}
             */
            scheduler: "slurm" | "pbs" | "sge" | "lsf" | "none" | null;
            strand_version: string | null;
            /** @description the scheduler's version, as it prints it */
            version: string | null;
        };
        CreatedAccessToken: components["schemas"]["AccessToken"] & {
            /** @description shown this once; only a hash is kept */
            token: string;
        };
        CreatePipeline: {
            /** @description default: [workflow].name */
            name?: string;
            tags?: string[];
            /** @description pipeline TOML text; it must parse and have [workflow].name */
            toml_content: string;
            /**
             * @description default private
             * @enum {string}
             */
            visibility?: "private" | "workspace" | "link";
        };
        CreateRun: {
            /** @description run on this registered remote cluster (GET /api/clusters lists the ones you may use); null or empty: on this service's machine. target may then carry the cluster scheduler's options */
            cluster_id?: string | null;
            /** @description config overrides, like --arg KEY=VALUE */
            config?: {
                [key: string]: string | number | boolean;
            };
            /** @description plan only: nothing executes; every job would_run or would_skip with the engine's reason, in …/status, …/dag-status and …/logs */
            dry_run?: boolean;
            /** @description a saved pipeline's run in an empty workspace of its own; without it, runs of one saved pipeline by one owner share a workspace and skip what is up to date */
            fresh?: boolean;
            /** @description jobs at once (default 1) */
            jobs?: number;
            /** @description keep running independent jobs after a failure */
            keep_going?: boolean;
            /** @description a saved pipeline to run (its current revision is recorded) */
            pipeline_id?: string;
            /**
             * @description samples to use: names (and pair ids), or "first:N"; e.g. ["S1", "S2"] or ["first:2"]
             * @example [
             *       "S1",
             *       "S2"
             *     ]
             */
            samples?: string[];
            target?: components["schemas"]["RunTarget"];
            /** @description run only these rules (prefix match) and what they need */
            targets?: string[];
            /** @description pipeline TOML text (or give pipeline_id) */
            toml_content?: string;
        };
        CurrentUser: {
            /** @description when the session or token expires; null for a token without expiry and in personal mode */
            expires_at: string | null;
            /** @enum {string} */
            mode: "personal" | "team" | "hpc";
            user: components["schemas"]["UserSummary"];
            /**
             * @description how this request was authenticated
             * @enum {string}
             */
            via: "session" | "access-token" | "personal";
        };
        DagBody: {
            /** @description next_cursor of the previous page */
            cursor?: string;
            expanded?: boolean;
            /** @description nodes in one page (default 5000, at most 20000) */
            limit?: number;
            /** @description pipeline TOML text */
            toml_content: string;
        };
        DagCommandBody: {
            /**
             * @description one of add_rule, remove_rule, connect, disconnect, update_rule, update_workflow, rename_rule
             * @example connect
             */
            operation: string;
            /**
             * @description the operation's fields: add_rule {rule: {name, …}}; remove_rule {name}; connect and disconnect {from, to}; update_rule {name, patch}; update_workflow {patch}; rename_rule {from, to}. A patch is an RFC 7396 merge patch: null deletes a key, a table merges into the table it names, any other value replaces.
             * @example {
             *       "from": "trim",
             *       "to": "align"
             *     }
             */
            payload?: {
                [key: string]: unknown;
            };
            /** @description what the text is called in messages (a file name); informational */
            source?: string;
            /** @description the text to edit (the client's current text) */
            toml_content: string;
        };
        DagCommandResult: {
            operation: string;
            /** @description undone edits that /redo can apply again now */
            redo_depth: number;
            /** @description whether the edited text validates (it is returned either way) */
            success: boolean;
            /** @description the edited text; comments and layout of untouched parts kept */
            toml_content: string;
            /** @description edits that /undo can take back now */
            undo_depth: number;
            /** @description validation errors of the edited text */
            validation_errors: components["schemas"]["DagEditFinding"][];
        };
        DagEditFinding: {
            code: string;
            message: string;
            suggestion: string | null;
        };
        DagHistoryBody: {
            /** @description the client's current text (must be what the last edit, undo or redo answered) */
            toml_content: string;
        };
        DagHistoryResult: {
            /** @description undone edits that /redo can apply again now */
            redo_depth: number;
            toml_content: string;
            /** @description edits that /undo can take back now */
            undo_depth: number;
        };
        DagResult: {
            critical_path: string[];
            edges: {
                from: string;
                /** @enum {string} */
                kind: "file" | "declared";
                to: string;
            }[];
            levels: string[][];
            /** @description of the whole graph, also when it comes in pages */
            metrics: {
                edges: number;
                max_depth: number;
                max_width: number;
                nodes: number;
            };
            /** @description the next page of a graph larger than one page (send it as cursor); null on the last page */
            next_cursor: string | null;
            nodes: {
                environment: string;
                id: string;
                label: string;
                level: number;
                memory: string | null;
                rule: string;
                threads: number;
            }[];
        };
        DataAnalysis: {
            files: {
                /** @enum {string} */
                compression: "none" | "gzip" | "bgzf";
                /** @enum {string} */
                detected_by: "content" | "name";
                fastq: {
                    header_read: 1 | 2 | null;
                    /** @enum {string} */
                    quality_encoding: "phred33" | "phred64" | "unknown";
                    read_length: {
                        max: number;
                        mean: number;
                        min: number;
                    } | null;
                    records: number;
                } | null;
                /** @enum {string} */
                format: "fastq" | "fasta" | "sam" | "bam" | "cram" | "vcf" | "bcf" | "bed" | "gff" | "gtf" | "bigwig" | "bigbed" | "count_matrix" | "csv" | "tsv" | "text" | "unknown";
                format_confidence: number;
                lane: number | null;
                /** @enum {string|null} */
                name_suggests: "fastq" | "fasta" | "sam" | "bam" | "cram" | "vcf" | "bcf" | "bed" | "gff" | "gtf" | "bigwig" | "bigbed" | "count_matrix" | "csv" | "tsv" | "text" | "unknown" | null;
                paired_with: string | null;
                path: string;
                read: 1 | 2 | null;
                sample_name: string | null;
                size: number;
                warnings: string[];
            }[];
            samples: {
                lanes: number[];
                /** @enum {string} */
                layout: "paired" | "single" | "mixed";
                problems: string[];
                r1: string[];
                r2: string[];
                sample: string;
                single: string[];
            }[];
            suggested_workflow: components["schemas"]["TemplateSuggestion"] | null;
            suggestions: components["schemas"]["TemplateSuggestion"][];
            summary: {
                files: number;
                formats_detected: ("fastq" | "fasta" | "sam" | "bam" | "cram" | "vcf" | "bcf" | "bed" | "gff" | "gtf" | "bigwig" | "bigbed" | "count_matrix" | "csv" | "tsv" | "text" | "unknown")[];
                /** @enum {string|null} */
                layout: "paired" | "single" | "mixed" | null;
                paired_end_detected: boolean;
                /** @enum {string|null} */
                quality_encoding: "phred33" | "phred64" | "mixed" | "unknown" | null;
                read_length: {
                    max: number;
                    mean: number;
                    min: number;
                } | null;
                /** @description whether the library is strand-specific: reads alone do not tell, so null */
                strand_specific: boolean | null;
                total_size: number;
            };
            truncated: boolean;
            warnings: string[];
        };
        DataPerception: {
            conflicts: {
                field: string;
                file_scan: string | number | boolean | string[];
                message: string;
                user_description: string | number | boolean | string[];
            }[];
            /** @description 0 nothing given, 2 a description only, 3 files analysed */
            data_level: number;
            findings: {
                confidence: number;
                /** @description the file names or the words the finding rests on */
                evidence: string;
                field: string;
                /** @enum {string} */
                source: "file_scan" | "user_description";
                value: string | number | boolean | string[];
            }[];
            suggestions: string[];
            templates: components["schemas"]["TemplateSuggestion"][];
            warnings: string[];
        };
        DataRootList: {
            roots: {
                /**
                 * @description own: your files folder (relative paths, uploads); data: a SERVICE_DATA_ROOTS folder; home: your home folder (personal mode without data roots)
                 * @enum {string}
                 */
                kind: "own" | "data" | "home";
                /** @description how to name it in requests: '.' for your own folder, else the absolute path */
                path: string;
                /** @description your own folder's place on the server (administrators only) */
                server_path: string | null;
            }[];
        };
        Deleted: {
            deleted: string;
        };
        DeletedCluster: {
            deleted: string;
        };
        DiffBody: {
            /** @description pipeline TOML text */
            toml_a: string;
            /** @description pipeline TOML text */
            toml_b: string;
        };
        DiffResult: {
            changes: {
                [key: string]: unknown;
            }[];
            identical: boolean;
            unified_diff: string;
        };
        Error: {
            code: components["schemas"]["ErrorCode"];
            detail?: string;
            message: string;
            suggestion?: string;
        };
        /** @description what went wrong: a service code (docs/reference/error-codes.md), an engine code, or a validate E code */
        ErrorCode: ("BAD_REQUEST" | "MISSING_FIELD" | "DAG_EDIT_ERROR" | "AUTH_REQUIRED" | "AUTH_FAILED" | "TOKEN_EXPIRED" | "ACCESS_DENIED" | "NOT_FOUND" | "NO_UNDO" | "NO_REDO" | "RATE_LIMITED" | "DB_ERROR" | "AI_NOT_CONFIGURED" | "PARSE_ERROR" | "VALIDATE_ERROR" | "PREPARE_ERROR" | "DAG_ERROR" | "LINT_ERROR" | "STATS_ERROR" | "DIFF_ERROR" | "EXPORT_ERROR" | "SEARCH_ERROR" | "RUN_ERROR" | "RETRY_ERROR" | "DATA_ERROR" | "REF_ERROR" | "PLUGIN_ERROR" | "AI_TRANSLATE_ERROR" | "CHAT_ERROR" | "INVALID_URL" | "AI_EXPLAIN_ERROR" | "AI_INTERPRET_ERROR" | "AI_OPTIMIZE_ERROR" | "INVALID_NAME" | "INVALID_PATH" | "CROSS_ORIGIN" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "EXPIRED" | "PAYLOAD_TOO_LARGE" | "QUOTA_EXCEEDED" | "UNSUPPORTED_MEDIA_TYPE" | "RANGE_NOT_SATISFIABLE" | "MISDIRECTED_REQUEST" | "WORK_LIMIT" | "USER_LIMIT" | "INTERNAL" | "UPSTREAM_ERROR" | "SERVICE_BUSY" | "SCHEMA_ERROR" | "INCLUDE_ERROR" | "SOURCE_ERROR" | "CONFIG_ERROR" | "REFERENCE_ERROR" | "EXPAND_ERROR" | "TARGET_ERROR" | "LIMIT_ERROR" | "USAGE_ERROR" | "IO_ERROR" | "ENV_ERROR" | "CLUSTER_ERROR" | "CLUSTER_DIRECTIVE" | "SERVICE_ERROR" | "REENTRY_ERROR" | "BUDGET_ERROR" | "UNSAFE_VALUE" | "LOCKED") | string;
        ExplainRequest: {
            /** @description the failed job to explain (default: the first failure) */
            job?: string;
            /** @description the language of the explanation (default English); the quoted evidence stays as it is */
            language?: string;
            run_id: string;
        };
        ExplainResult: {
            /** @description the evidence the summary really quotes, found by matching it against the stderr tail, exit code and command */
            citations: {
                job: string | null;
                /** @enum {string} */
                kind: "stderr" | "exit_code" | "command";
                /** @description the stderr line, `exit code N` or the command, exactly as given to the model */
                text: string;
            }[];
            /** @description the explained job first, then up to 4 other failed jobs, each with the deterministic diagnosis of GET /api/runs/{id}/diagnostics */
            failures: {
                /** @description the command the job ran, rendered by the engine */
                command: string | null;
                diagnosis: {
                    category: string;
                    likely_cause: string;
                    pattern: string;
                    suggestions: string[];
                };
                exit_code: number | null;
                job: string | null;
                rule: string | null;
                /** @description the last lines of the job's stderr (at most 60, each cut to 400 characters) */
                stderr_tail: string[];
            }[];
            fix_suggestion: {
                action: string;
                /** @enum {boolean} */
                automated: false;
                estimated_impact: string;
            } | null;
            /** @description the job explained (null: the run failed before any job) */
            job: string | null;
            /** @description the provider and model that answered */
            provider: {
                model: string;
                provider: string;
            };
            /** @description from the deterministic diagnosis of the explained job, not from the model */
            root_cause: {
                confidence: number;
                error_type: string;
                evidence: string;
                job: string | null;
                rule: string | null;
            } | null;
            run_id: string;
            /** @description the model's explanation (Markdown) */
            summary: string;
        };
        ExportBody: {
            /** @enum {string} */
            format?: "docker" | "singularity";
            /** @description pipeline TOML text */
            toml_content: string;
        };
        ExportResult: {
            content: string;
            filename: string;
            format: string;
        };
        FileListing: {
            entries: {
                modified_at: string;
                name: string;
                path: string;
                size: number;
                /** @enum {string} */
                type: "file" | "folder";
            }[];
            path: string;
            truncated: boolean;
        };
        FilledTemplate: {
            analysis: components["schemas"]["DataAnalysis"];
            notes: string[];
            /** @description pattern: the read inputs now name the files; staged: a rule gathers each sample's files (lanes) into the template's paths; unchanged: the template's read paths were kept (reason) */
            reads: {
                /** @enum {string} */
                how: "pattern";
                r1: string;
                r2: string | null;
            } | {
                /** @enum {string} */
                how: "staged";
                rule: string;
            } | {
                /** @enum {string} */
                how: "unchanged";
                reason: string;
            };
            samples: string[];
            template: string;
            title: string;
            /** @description the template with the samples and reads written in, files named where jobs read them (your own files by their place on the server); not saved (POST /api/pipelines saves it) */
            toml_content: string;
        };
        Finding: {
            code: string;
            column: number | null;
            line: number | null;
            message: string;
            rule: string | null;
            /** @enum {string} */
            severity: "error" | "warning" | "info";
            suggestion: string | null;
        };
        Fork: {
            /** @description default: "<name> (fork)" */
            name?: string;
        };
        Forked: {
            forked_from: string;
            id: string;
            name: string;
        };
        FormatResult: {
            changed: boolean;
            formatted: string;
        };
        GeneratedSampleSheet: {
            content: string;
            samples_count: number;
            warnings: string[];
        };
        GenerateSampleSheetRequest: {
            /** @enum {string} */
            delimiter?: "csv" | "tsv";
            max_depth?: number;
            paths: string[];
        };
        GenomeStatus: {
            components: {
                command: string | null;
                component: string;
                path: string | null;
                present: boolean;
            }[];
            folder: string | null;
            genome: string;
            /** @enum {string} */
            layout: "igenomes" | "ensembl" | "flat" | "none";
            missing: string[];
            species: string | null;
        };
        Health: {
            components: {
                ai: {
                    provider: string | null;
                    /** @enum {string} */
                    status: "ok" | "not_configured";
                };
                database: {
                    detail?: string;
                    latency_ms: number | null;
                    /** @enum {string} */
                    status: "ok" | "down";
                };
                engine: {
                    /** @description runs whose engine this service supervises (running or paused) */
                    active_runs: number;
                    detail?: string;
                    queued_runs: number;
                    /** @enum {string} */
                    status: "ok" | "down";
                    version: string;
                };
                /** @description the job sandbox and how jobs are limited */
                sandbox: {
                    /**
                     * @description jobs' capabilities: none (their own user namespace, every capability dropped)
                     * @enum {string}
                     */
                    capabilities: "none" | "the service's";
                    /** @enum {string} */
                    kind: "bwrap" | "none";
                    /**
                     * @description what holds each job to its declared memory, its CPUs and the process cap
                     * @enum {string}
                     */
                    limits: "cgroup-v2" | "rlimits" | "none";
                    /**
                     * @description jobs' network: their own empty one, or the host's (SERVICE_JOB_NETWORK)
                     * @enum {string}
                     */
                    network: "none" | "host";
                    /** @description SERVICE_JOB_MAX_PROCESSES */
                    processes_per_job: number | null;
                    /**
                     * @description a root service's jobs run under an unprivileged account (SERVICE_SANDBOX_USER)
                     * @enum {string}
                     */
                    runs_as: "the service's account" | "an unprivileged account";
                    /**
                     * @description off: runs are not sandboxed (personal mode, or SERVICE_SANDBOX=off)
                     * @enum {string}
                     */
                    status: "ok" | "off";
                    /** @description each user's workspace quota (SERVICE_USER_WORKSPACE_MB); null: none */
                    workspace_quota_mb: number | null;
                };
            };
            /** @description this process among the instances serving the database (SERVICE_INSTANCE_ID, or made at start) */
            instance_id: string;
            license: {
                type: string;
                valid: boolean;
            };
            /** @enum {string} */
            mode: "personal" | "team" | "hpc";
            /** @description the other instances registered on this database, as this one's last heartbeat read them (empty with SQLite, which one process serves) */
            peers: {
                /** @description its heartbeat is fresh (within 30 s) */
                alive: boolean;
                /** @description when it last said it was alive (every 5 s while it runs) */
                heartbeat_at: string;
                host: string;
                instance_id: string;
                pid: number;
                started_at: string;
                version: string;
            }[];
            /** @enum {string} */
            status: "ok" | "degraded";
            uptime_s: number;
            version: string;
        };
        HpcJob: {
            cpus: number;
            /** @description as the scheduler prints it: "[days-]hours:minutes:seconds", "minutes:seconds", "UNLIMITED"… */
            elapsed: string;
            /** @description the same duration in seconds; null when unlimited or not set */
            elapsed_s: number | null;
            /** @description the job id (array tasks as 123_4) */
            id: string;
            name: string;
            node_count: number;
            /** @description the nodes it runs on (SLURM's list syntax, e.g. node[01-04]); null while pending */
            nodes: string | null;
            partition: string;
            /** @description why it waits (Priority, Resources…); null when none */
            reason: string | null;
            /** @description PENDING, RUNNING, COMPLETING…, as squeue prints it */
            state: string;
            submitted_at: string | null;
            /** @description as the scheduler prints it: "[days-]hours:minutes:seconds", "minutes:seconds", "UNLIMITED"… */
            time_limit: string;
            /** @description the same duration in seconds; null when unlimited or not set */
            time_limit_s: number | null;
            /** @description the Unix user the job runs as */
            user: string;
        };
        HpcNode: {
            cpus_allocated: number;
            cpus_idle: number;
            cpus_total: number;
            memory_allocated_mb: number | null;
            /** @description free memory as the node's operating system reports it */
            memory_free_mb: number | null;
            memory_total_mb: number | null;
            name: string;
            partitions: string[];
            /** @description why the node is down or drained, when it is */
            reason: string | null;
            /** @description idle, mixed, allocated, down, drained…, as sinfo prints it (a trailing * means the node does not answer) */
            state: string;
        };
        HpcPartition: {
            cpus_allocated: number;
            cpus_idle: number;
            cpus_total: number;
            /** @description whether jobs that name no partition go here */
            default: boolean;
            name: string;
            nodes: number;
            nodes_allocated: number;
            nodes_idle: number;
            /** @description up, down, drain or inactive (sinfo's AVAIL) */
            state: string;
            /** @description as the scheduler prints it: "[days-]hours:minutes:seconds", "minutes:seconds", "UNLIMITED"… */
            time_limit: string;
            /** @description the same duration in seconds; null when unlimited or not set */
            time_limit_s: number | null;
        };
        HpcStatus: {
            /** @description whether the scheduler answered; when false, message says why and the lists are empty */
            available: boolean;
            /** @description when the scheduler was read (answers are shared for 2 seconds) */
            checked_at: string;
            /** @description jobs in the queue the caller may see, in squeue's order (at most 1,000) */
            jobs: components["schemas"]["HpcJob"][];
            jobs_truncated: boolean;
            /**
             * @description all: every job in the queue (administrators); own: the jobs of the caller's own runs only
             * @enum {string}
             */
            jobs_visibility: "all" | "own";
            /** @description why the scheduler could not be read (null when it was) */
            message: string | null;
            nodes: components["schemas"]["HpcNode"][];
            /** @description jobs in the queue the caller does not see (other users' runs, jobs from outside strand), counted without any detail; 0 for administrators */
            other_jobs: number;
            partitions: components["schemas"]["HpcPartition"][];
            /**
             * @description the scheduler found on this host; null when none is installed
             * @enum {string|null}
             */
            scheduler: "slurm" | null;
            /** @description jobs in the queue the caller may see, including those beyond the list */
            total_jobs: number;
            version: string | null;
        };
        Imported: components["schemas"]["SavedPipelineWithValidation"] & {
            source: {
                /** @enum {string} */
                kind: "share" | "toml";
                /** @description a share of this service, read without a fetch */
                local: boolean;
                url: string;
            };
        };
        ImportRequest: {
            name?: string;
            /** @description strand+https://<host>/share/<token>, oxo+https://<host>/share/<token> (an oxo-flow server's share) or toml+https://<location> */
            url: string;
        };
        InterpretRequest: {
            /**
             * @description what to look for: deg (differential expression), variants, qc, or general (the default)
             * @enum {string}
             */
            result_type?: "general" | "deg" | "variants" | "qc";
            run_id: string;
        };
        InterpretResult: {
            /** @description the model's caveats; one saying the text is AI-written when the model gave none */
            caveats: string[];
            files: {
                /** @description the first line (a table's header); null when binary or not read */
                header: string | null;
                path: string;
                size_bytes: number;
            }[];
            highlights: {
                finding: string;
                significance: string;
                /** @description the result file(s) the finding comes from */
                supporting_evidence: string;
            }[];
            /** @description sections the model left out (Narrative, Highlights, Caveats, Suggested next): their lists are empty */
            missing_sections: string[];
            narrative: string;
            /** @description the provider and model that answered */
            provider: {
                model: string;
                provider: string;
            };
            /** @enum {string} */
            result_type: "general" | "deg" | "variants" | "qc";
            run_id: string;
            suggested_next: string[];
        };
        LicenseStatus: {
            contact: string;
            expires_at: string | null;
            licensee: string | null;
            problem?: string;
            /**
             * @description which place decided: SERVICE_LICENSE, the configuration directory, the legacy ~/.strand path, or the embedded academic license
             * @enum {string}
             */
            source: "env" | "config" | "legacy" | "embedded";
            /** @enum {string} */
            type: "academic" | "commercial";
            valid: boolean;
        };
        LicenseUpload: {
            license_data: string;
        };
        LintBody: {
            strict?: boolean;
            /** @description pipeline TOML text */
            toml_content: string;
        };
        LintResult: {
            errors: components["schemas"]["Finding"][];
            info: components["schemas"]["Finding"][];
            valid: boolean;
            warnings: components["schemas"]["Finding"][];
        };
        LoginAnswer: {
            /** @description renewed while the session is used */
            expires_at: string;
            /** @description send as Authorization: Bearer <token>; the browser gets it as the HttpOnly session cookie too */
            token: string;
            user: components["schemas"]["UserSummary"];
        };
        LoginRequest: {
            password: string;
            username: string;
        };
        Metrics: {
            active_runs: number;
            cpu_pct: number;
            event_loop_lag_ms: number;
            heap_used_mb: number;
            load_average_1m: number;
            memory_free_mb: number;
            memory_total_mb: number;
            memory_used_mb: number;
            queued_runs: number;
            requests_total: number;
            rss_mb: number;
            sse_subscribers: number;
            uptime_s: number;
        };
        NewAccessToken: {
            /** @description omit for a token that does not expire */
            expires_in_days?: number;
            /** @description what the token is for, e.g. nightly-ci */
            name: string;
        };
        NewTemplate: {
            /** @description default: [workflow].description */
            description?: string;
            name: string;
            tags?: string[];
            /** @description pipeline TOML text; it must parse and have [workflow].name */
            toml_content: string;
        };
        NewUser: {
            password: string;
            /**
             * @description admin: everything; user: own pipelines and runs; viewer: reads only
             * @default user
             * @enum {string}
             */
            role: "admin" | "user" | "viewer";
            /** @description letters and digits with single dots, dashes or underscores between them; 409 when taken or when it looks like an existing name (compared without case and marks) */
            username: string;
        };
        OptimizeRequest: {
            /** @description limits per rule; a proposal above them is rejected */
            constraints?: {
                max_memory?: string;
                max_threads?: number;
            };
            /** @enum {string} */
            goal: "speed" | "cost" | "sensitivity";
            /** @description a saved pipeline you may read (a translate draft id is NOT_FOUND: save its toml_content first) */
            pipeline_id: string;
        };
        OptimizeResult: {
            /** @description computed by comparing the rules' settings before and after */
            changes: {
                after: string;
                before: string;
                expected_impact: string;
                field: string;
                /** @description the model's reason, from its Changes list */
                rationale: string;
                /** @description the rule, or workflow for tables outside the rules */
                rule: string;
            }[];
            estimated: {
                /** @enum {string} */
                basis: "run_history" | "none";
                memory_reduction: string;
                /** @description how the figures were reckoned */
                method: string;
                runs_considered: number;
                time_saved: string;
            };
            /** @enum {string} */
            goal: "speed" | "cost" | "sensitivity";
            /** @description the proposal, validated by the engine; nothing is saved */
            optimized_toml: string;
            pipeline_id: string;
            /** @description the provider and model that answered */
            provider: {
                model: string;
                provider: string;
            };
            /** @description model replies it took (1 = accepted at once) */
            rounds: number;
            validation: {
                valid: boolean;
                warnings: {
                    code: string;
                    message: string;
                    suggestion?: string | null;
                }[];
            };
        };
        ParsedSampleSheet: {
            columns: {
                [key: string]: string;
            };
            /** @enum {string} */
            delimiter: "csv" | "tsv";
            detected_headers: string[];
            errors: {
                column: string | null;
                /** @enum {string} */
                level: "error" | "warning";
                line: number | null;
                message: string;
                suggestion?: string;
            }[];
            /** @enum {string} */
            format: "nf-core" | "unknown";
            rows: {
                condition: string | null;
                extra: {
                    [key: string]: string;
                };
                fastq_1: string | null;
                fastq_2: string | null;
                line: number;
                replicate: string | null;
                sample: string;
                strandedness: string | null;
            }[];
            samples: {
                condition: string | null;
                fastq_1: string[];
                fastq_2: string[];
                /** @enum {string} */
                layout: "paired" | "single" | "mixed";
                rows: number;
                sample: string;
            }[];
            samples_count: number;
            valid: boolean;
            warnings: {
                column: string | null;
                /** @enum {string} */
                level: "error" | "warning";
                line: number | null;
                message: string;
                suggestion?: string;
            }[];
        };
        ParseResult: {
            config: {
                [key: string]: unknown;
            };
            includes: {
                [key: string]: unknown;
            }[];
            pairs: {
                [key: string]: unknown;
            }[];
            rules: {
                [key: string]: unknown;
            }[];
            sample_groups: {
                name: string;
                samples: string[];
            }[];
            workflow: {
                author: string | null;
                description: string | null;
                name: string;
                version: string;
            };
        };
        ParseSampleSheetRequest: {
            /** @description the folder relative file paths of the sheet are read from (default: your own files folder) */
            base_path?: string;
            content: string;
        };
        PasswordChange: {
            current_password: string;
            new_password: string;
        };
        PerceiveDataRequest: {
            /** @description the data in your words: assay, organism or build, read type and length, replicates, conditions */
            description?: string;
            paths?: string[];
        };
        PipelineSummary: {
            created_at: string;
            description: string | null;
            forked_from: string | null;
            id: string;
            name: string;
            owner: string;
            /** @description grows by one with every change; send it back with PUT to refuse lost updates */
            revision: number;
            rules_count: number;
            tags: string[];
            updated_at: string;
            version: string | null;
            /**
             * @description private (owner and administrators), workspace (every signed-in user may read and fork) or link (readable through a share link)
             * @enum {string}
             */
            visibility: "private" | "workspace" | "link";
        };
        PluginProblem: {
            /** @description the field's JSON path, e.g. permissions[1] or signature.value */
            field: string;
            message: string;
            suggestion: string;
        };
        PluginSignatureVerdict: {
            key_id: string | null;
            present: boolean;
            public_key: string | null;
            /** @description verified, and the key is a trusted one */
            trusted: boolean;
            /** @description well formed and matching the manifest under its public key */
            verified: boolean;
        };
        PluginValidation: {
            errors: components["schemas"]["PluginProblem"][];
            name: string | null;
            plugin_type: string | null;
            signature: components["schemas"]["PluginSignatureVerdict"];
            /** @description no errors: the fields check out and a present signature verifies with a trusted key */
            valid: boolean;
            version: string | null;
            warnings: components["schemas"]["PluginProblem"][];
        };
        PrepareBody: {
            config?: {
                [key: string]: string;
            };
            /** @description next_cursor of the previous page */
            cursor?: string;
            /** @description jobs in this page (default 1000, at most 10000) */
            limit?: number;
            /**
             * @description samples to use: names (and pair ids), or "first:N"; e.g. ["S1", "S2"] or ["first:2"]
             * @example [
             *       "S1",
             *       "S2"
             *     ]
             */
            samples?: string[];
            /** @description pipeline TOML text */
            toml_content: string;
        };
        PrepareResult: {
            environment_setup: {
                command: string | null;
                kind: string;
                spec: string;
            }[];
            jobs: {
                bindings: {
                    [key: string]: string;
                };
                command: string | null;
                environment: string;
                inputs: string[];
                memory: string | null;
                name: string;
                outputs: string[];
                rule: string;
                threads: number;
            }[];
            jobs_total: number;
            /** @description the page after this one (send it as cursor); null when jobs_total is reached */
            next_cursor: string | null;
            rules: {
                jobs: number;
                rule: string;
            }[];
        };
        PrunedRevisions: {
            deleted_revisions: number;
            pipeline_id: string;
            /** @description bytes of revision text the pipeline keeps now */
            size_bytes: number;
        };
        ReferenceAnswer: {
            /** @description the commands that obtain or build what is missing */
            download_commands: string[];
            /** @description paths of the components present */
            found: string[];
            genome: string;
            /** @description the components asked for that are missing */
            missing: string[];
            status: components["schemas"]["GenomeStatus"];
        };
        ReferenceRequest: {
            /** @description fasta, fai, dict, annotation (gtf), bwa, bowtie2, star, hisat2 (default: all) */
            components?: string[];
            genome: string;
        };
        ReferenceStatus: {
            download_commands: string[];
            installed: (components["schemas"]["GenomeStatus"] & {
                found: string[];
            })[];
            /** @description well-known builds not found in the reference roots */
            missing: string[];
            /** @description reference roots configured (SERVICE_REFERENCE_ROOTS) */
            roots: number;
        };
        Revision: components["schemas"]["RevisionSummary"] & {
            toml_content: string;
        };
        RevisionSummary: {
            created_at: string;
            current: boolean;
            id: string;
            name: string;
            pipeline_id: string;
            revision: number;
            /** @description the revision's text in bytes, which the storage quotas count */
            size_bytes: number;
        };
        Rollback: {
            /** @description the revision's id, or its number */
            revision_id: string | number;
        };
        Run: {
            /** @description what the run's state allows now (POST /api/runs/{id}/<action>): pause a running run, resume a paused one, cancel one that has not ended, retry a failed or cancelled one that was not a dry run */
            actions: ("pause" | "resume" | "cancel" | "retry")[];
            counts: components["schemas"]["RunCounts"];
            created_at: string;
            dry_run: boolean;
            /** @description why the run failed or was cancelled */
            error: string | null;
            exit_code: number | null;
            finished_at: string | null;
            id: string;
            owner: string;
            pipeline_id: string | null;
            pipeline_revision: number | null;
            remote: components["schemas"]["RunRemote"];
            retry_of: string | null;
            started_at: string | null;
            /** @enum {string} */
            status: "queued" | "running" | "paused" | "completed" | "failed" | "cancelled";
            target: {
                [key: string]: unknown;
            };
            workflow_name: string;
            /** @description the run's working folder on the server; shown to administrators only (null for other callers, whose views say <workspace> for it) */
            workspace: string | null;
        };
        RunConflict: {
            code: components["schemas"]["ErrorCode"];
            detail?: string;
            message: string;
            /** @description the run in the way */
            running_run?: string;
            suggestion?: string;
        };
        RunCounts: {
            completed: number;
            failed: number;
            pending: number;
            running: number;
            skipped: number;
            total: number;
        };
        RunDagStatus: components["schemas"]["DagResult"] & {
            completed: number;
            /** @description estimated time to finish (null until a job has finished; 0 once the run has ended) */
            eta_ms: number | null;
            failed: number;
            /** @description the jobs the engine has named so far, in its order; empty with ?jobs=false (GET /api/runs/{id}/jobs pages them) */
            jobs: {
                job: string;
                /** @description why the engine runs (or would run) the job, or skips it; null when it did not say (a job stopped by a cancel keeps the reason it was started for) */
                reason: {
                    /** @description never-completed, config-changed, rule-changed, downstream, up-to-date, … */
                    code: string;
                    text: string;
                } | null;
                rule: string;
                /**
                 * @description would_run and would_skip: a dry run's plan
                 * @enum {string}
                 */
                status: "queued" | "running" | "completed" | "failed" | "skipped" | "would_run" | "would_skip";
            }[];
            nodes?: {
                environment: string;
                id: string;
                /** @description the node's jobs by state (one job for a job node) */
                jobs: {
                    completed: number;
                    failed: number;
                    running: number;
                    skipped: number;
                    total: number;
                };
                label: string;
                level: number;
                memory: string | null;
                rule: string;
                /**
                 * @description the rule's state in this run; a dry run's rules are would_run (a job of it would run) or would_skip
                 * @enum {string}
                 */
                status: "pending" | "running" | "completed" | "failed" | "skipped" | "would_run" | "would_skip";
                threads: number;
            }[];
            pending: number;
            running: number;
            skipped: number;
            status: string;
        };
        RunDetail: components["schemas"]["Run"] & {
            /** @description the last 100 lines of the engine's log */
            log_tail: string[];
        };
        RunDiagnostics: {
            bottlenecks: {
                [key: string]: unknown;
            }[];
            failures: {
                category: string;
                exit_code: number | null;
                job: string | null;
                likely_cause: string;
                log_excerpt: string[];
                pattern: string;
                rule: string | null;
                suggestions: string[];
            }[];
            warnings: {
                [key: string]: unknown;
            }[];
        };
        RunFolder: {
            entries: {
                modified_at: string;
                name: string;
                /** @description relative to the workspace: the path to ask for next */
                path: string;
                /** @description a file's size (0 for a folder) */
                size_bytes: number;
                /** @enum {string} */
                type: "file" | "folder";
            }[];
            /** @description the folder, relative to the workspace (empty: its top) */
            path: string;
            /** @description true when the folder has more entries than one answer lists (5,000; folders first, then files, by name) */
            truncated: boolean;
        };
        RunJobRow: {
            duration_ms: number | null;
            exit_code: number | null;
            finished_at: string | null;
            /** @description the job's position in the engine's order (0 first) */
            index: number;
            job: string;
            /** @description why the engine runs (or would run) the job, or skips it; null when it did not say */
            reason: {
                /** @description never-completed, config-changed, rule-changed, downstream, up-to-date, … */
                code: string;
                text: string;
            } | null;
            rule: string;
            started_at: string | null;
            /**
             * @description would_run and would_skip: a dry run's plan
             * @enum {string}
             */
            status: "queued" | "running" | "completed" | "failed" | "skipped" | "would_run" | "would_skip";
        };
        RunJobsPage: {
            items: components["schemas"]["RunJobRow"][];
            limit: number;
            offset: number;
            /** @description jobs the filters keep (all pages) */
            total: number;
        };
        RunLogs: {
            eof: boolean;
            job: string | null;
            lines: string[];
            next_offset: number;
            stream: string;
        };
        RunPage: {
            items: components["schemas"]["Run"][];
            next_cursor: string | null;
            total: number;
        };
        RunRefusal: {
            code: components["schemas"]["ErrorCode"];
            detail?: string;
            findings?: components["schemas"]["Finding"][];
            message: string;
            suggestion?: string;
        };
        /** @description where a run on a remote cluster is (null for runs on this service's machine) */
        RunRemote: {
            cluster_id: string;
            /** @description the link to the login node while the service follows the run (null once it ended) */
            connection: {
                attempts: number;
                error: string | null;
                retry_at: string | null;
                since: string;
                /** @enum {string} */
                state: "connecting" | "connected" | "reconnecting" | "refused" | "closed";
            } | null;
            /** @description the scheduler job the remote engine runs in, on a cluster that places engines in jobs (null: it runs on the login node); queued until the scheduler starts it */
            engine_job: {
                id: string;
                /** @enum {string} */
                state: "queued" | "running" | "ended";
            } | null;
            /** @enum {string} */
            phase: "staging" | "running" | "collecting" | "done";
            /**
             * @description pull: results are brought back when the run ends; remote: they stay in the remote workspace
             * @enum {string}
             */
            results: "pull" | "remote";
            /** @description the scheduler the remote engine submits jobs to (none: the login node runs them); null until the run started */
            scheduler: string | null;
            /** @description the run's workspace on the cluster (under its remote folder, per user and per run or pipeline) */
            workspace: string | null;
        } | null;
        RunResults: {
            files: {
                modified_at: string;
                path: string;
                rule: string;
                size_bytes: number;
            }[];
            /** @description results left on a remote cluster (its results = remote): the paths are relative to this workspace there, and cannot be previewed or downloaded here */
            remote: {
                cluster_id: string;
                workspace: string;
            } | null;
            total_size_bytes: number;
            /** @description true when more outputs exist than one answer lists (10,000) */
            truncated: boolean;
        };
        RunStatusView: {
            /** @description the jobs the engine has named so far, in its order; empty with ?jobs=false (GET /api/runs/{id}/jobs pages them) */
            jobs: {
                job: string;
                /** @description why the engine runs (or would run) the job, or skips it; null when it did not say (a job stopped by a cancel keeps the reason it was started for) */
                reason: {
                    /** @description never-completed, config-changed, rule-changed, downstream, up-to-date, … */
                    code: string;
                    text: string;
                } | null;
                rule: string;
                /**
                 * @description would_run and would_skip: a dry run's plan
                 * @enum {string}
                 */
                status: "queued" | "running" | "completed" | "failed" | "skipped" | "would_run" | "would_skip";
            }[];
            nodes: {
                duration_ms: number | null;
                jobs: {
                    completed: number;
                    failed: number;
                    running: number;
                    skipped: number;
                    total: number;
                };
                rule: string;
                /**
                 * @description the rule's state in this run; a dry run's rules are would_run (a job of it would run) or would_skip
                 * @enum {string}
                 */
                status: "pending" | "running" | "completed" | "failed" | "skipped" | "would_run" | "would_skip";
            }[];
            resources: {
                cpu_pct: number;
                disk_mb: number;
                memory_mb: number;
                peak_memory_mb: number;
            };
            status: string;
            /** @description the most recent entries, oldest first (at most 500; timeline_total counts them all) */
            timeline: {
                job: string | null;
                message: string;
                rule: string | null;
                time: string;
                type: string;
            }[];
            /** @description entries of the whole timeline, those left out of `timeline` included */
            timeline_total: number;
        };
        RunTarget: {
            account?: string;
            /** @description extra submission options, e.g. --qos=short */
            extra_args?: string[];
            /** @description container target: the image every rule without its own environment runs in */
            image?: string;
            /** @description scheduler jobs in flight at once */
            max_submitted?: number;
            /** @description scheduler partition (slurm) or queue */
            partition?: string;
            /** @description how often to ask the scheduler (seconds or 5s, 1m) */
            poll_interval?: number | string;
            /** @description scheduler queue (pbs, sge, lsf); same as partition */
            queue?: string;
            /**
             * @description container target: the program that runs the image
             * @enum {string}
             */
            runtime?: "docker" | "podman" | "apptainer" | "singularity";
            /**
             * @description where the jobs run (default local)
             * @enum {string}
             */
            type: "local" | "slurm" | "pbs" | "sge" | "lsf" | "container" | "cloud_batch";
            /** @description default time limit per scheduler job, e.g. 01:00:00 */
            walltime?: string;
        };
        SaveCluster: {
            /** @description who may start runs on it: every signed-in user when both are null or absent; else the listed roles and users (administrators always) */
            access?: {
                roles?: ("admin" | "user" | "viewer")[] | null;
                /** @description user ids */
                users?: string[] | null;
            };
            /** @description pins the host key the last probe saw */
            confirm_host_key?: boolean;
            /** @description default true */
            enabled?: boolean;
            /**
             * @description more options for the submit command of the engine's job, one word each (e.g. ["--partition=long", "--time=7-00:00:00"]); default none
             * @example [
             *       "--time=2-00:00:00",
             *       "--mem=4G"
             *     ]
             */
            engine_job_options?: string[];
            /**
             * @description login_node (default): a run's engine runs on the login node, detached; job: it is submitted as a job of the cluster's scheduler (for sites that allow no long-running processes on login nodes)
             * @enum {string}
             */
            engine_placement?: "login_node" | "job";
            /**
             * @description pins the host key (null unpins it); a run starts only on a cluster with a pinned key
             * @example SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s
             */
            host_key_sha256?: string | null;
            /** @example hpc-main */
            id: string;
            /** @description write-only: a private key file on the service's host, read when connecting; replaces private_key */
            key_path?: string;
            max_runs_per_user?: number | null;
            /** @description default: the id */
            name?: string;
            /** @description write-only: stored sealed, never returned or logged; replaces key_path */
            private_key?: string;
            /** @description required when the cluster is new: per-user and per-run folders are made under it */
            remote_dir?: string;
            /**
             * @description pull (default): results are copied back when a run ends; remote: left there, their paths listed
             * @enum {string}
             */
            results?: "pull" | "remote";
            /**
             * @description default auto (found by the probe); none runs jobs on the login node
             * @enum {string}
             */
            scheduler?: "auto" | "slurm" | "pbs" | "sge" | "lsf" | "none";
            /** @description the login node; required when the cluster is new */
            ssh_host?: string;
            /** @description default 22 */
            ssh_port?: number;
            /** @description the account on the login node; required when the cluster is new */
            ssh_user?: string;
        };
        SavedPipeline: components["schemas"]["PipelineSummary"] & {
            toml_content: string;
        };
        SavedPipelineWithValidation: components["schemas"]["SavedPipeline"] & {
            validation: components["schemas"]["LintResult"];
        };
        SearchHit: {
            id: string;
            /** @enum {string} */
            kind: "pipeline" | "template";
            name: string;
            /** @description 0 to 1; higher is better */
            score: number;
            snippet: string;
        };
        SearchQuery: {
            /** @description default 20 */
            limit?: number;
            /** @description words to look for in names, tags and content */
            query: string;
        };
        SearchResult: {
            hits: components["schemas"]["SearchHit"][];
            query: string;
            total: number;
        };
        Session: {
            created_at: string;
            /** @description the session of this request */
            current: boolean;
            expires_at: string;
            id: string;
            ip: string | null;
            last_seen_at: string;
            user_agent: string | null;
        };
        ShareLanding: {
            expires_at: string | null;
            pipeline: {
                description: string | null;
                id: string;
                name: string;
                rules_count: number;
                tags: string[];
                updated_at: string;
                version: string | null;
            };
            token: string;
            toml_content: string;
        };
        ShareLink: {
            created_at: string;
            expires_at: string | null;
            pipeline_id: string;
            revoked_at: string | null;
            /** @description strand+https://<public host>/share/<token>; POST /api/pipelines/import takes it */
            share_url: string;
            /** @enum {string} */
            state: "active" | "expired" | "revoked";
            token: string;
        };
        ShareRequest: {
            /** @description lifetime of the link (default 30 days) */
            expires_in_days?: number;
        };
        SignInMethods: {
            /** @description the external identity providers configured (none when no SERVICE_OAUTH_* client is set) */
            oauth: {
                /** @description where the browser goes to sign in (a path under the base path; add ?return_to=/path to land there afterwards) */
                authorize_url: string;
                /** @enum {string} */
                id: "github" | "orcid";
                /** @description what the sign-in button says, e.g. GitHub */
                name: string;
            }[];
            /** @description whether POST /api/auth/login signs in with a username and password */
            password: boolean;
        };
        StatsResult: {
            /** @description edges of the rule graph (before expansion) */
            dependencies: number;
            environments: string[];
            /** @description jobs after expansion (samples, pairs, values, scatter, transform) */
            jobs: number;
            levels: number;
            max_depth: number;
            pairs: number;
            rules: number;
            samples: number;
            script_rules: number;
            shell_rules: number;
            total_threads: number;
            wildcard_names: string[];
        };
        System: {
            arch: string;
            cpu_model: string | null;
            cpus: number;
            /** @description the service's data folder; administrators only (null for other callers) */
            data_dir: string | null;
            engine: {
                executors: string[];
                version: string;
            };
            hostname: string;
            memory_free_mb: number;
            memory_total_mb: number;
            mode: string;
            node_version: string;
            pid: number;
            platform: string;
            /** @description the job sandbox in use */
            sandbox: {
                /** @description SERVICE_DATA_ROOTS, readable by jobs; administrators only (null for other callers) */
                data_roots: string[] | null;
                /** @description folders jobs see empty; administrators only (null for other callers) */
                hidden: string[] | null;
                /**
                 * @description bwrap: runs' engines and jobs run in bubblewrap; none: unsandboxed (SERVICE_SANDBOX)
                 * @enum {string}
                 */
                kind: "bwrap" | "none";
            };
            started_at: string;
            /** @enum {string} */
            storage: "sqlite" | "postgres";
            version: string;
        };
        Template: {
            builtin: boolean;
            created_at: string | null;
            description: string;
            features: string[];
            id: string;
            name: string;
            /** @description the id of the user who added it; null for built-in templates and those added before sign-in */
            owner: string | null;
            /** @description runs on a bare machine (bash and coreutils only) */
            runnable: boolean;
            /** @description a built-in template's short name (what `strand template` takes) */
            slug: string | null;
            tags: string[];
            title: string;
            toml_content: string;
        };
        TemplateFromDataRequest: {
            max_depth?: number;
            max_files?: number;
            paths: string[];
            /** @description a built-in template's id (default: the analysis' first suggestion) */
            template?: string;
        };
        TemplateList: components["schemas"]["Template"][];
        TemplateSuggestion: {
            reason: string;
            score: number;
            template: string;
            title: string;
        };
        TemplateWithValidation: components["schemas"]["Template"] & {
            validation: components["schemas"]["LintResult"];
        };
        TomlBody: {
            /** @description pipeline TOML text */
            toml_content: string;
        };
        TranslateRequest: {
            context?: {
                /** @description what the data looks like (formats, pairing, samples, organism…); part of the request's identity for the cache */
                data?: {
                    [key: string]: unknown;
                };
            };
            intent: string;
        };
        TranslateResult: {
            /** @description other tools for the draft's steps, from strand's notes on each kind of analysis */
            alternatives: {
                alternatives: string[];
                reason: string;
                rule: string;
                tool: string;
            }[];
            cached: boolean;
            confidence: number;
            explanation: {
                steps: {
                    key_params: string;
                    purpose: string;
                    rule: string;
                    tool: string;
                    why_chosen: string;
                }[];
                summary: string;
            };
            /** @description the draft's id; a draft is never saved by itself (save its toml_content) */
            pipeline_id: string;
            provider: {
                model: string;
                provider: string;
            };
            /** @description model replies it took (1 = valid at once) */
            rounds: number;
            toml_content: string;
            validation: {
                valid: boolean;
                warnings: {
                    code: string;
                    message: string;
                    suggestion?: string | null;
                }[];
            };
        };
        UpdatePipeline: {
            name?: string;
            /** @description the revision the change is based on; a newer one is 409 CONFLICT */
            revision?: number;
            tags?: string[];
            toml_content?: string;
            /**
             * @description private (owner and administrators), workspace (every signed-in user may read and fork) or link (readable through a share link)
             * @enum {string}
             */
            visibility?: "private" | "workspace" | "link";
        };
        UploadAnswer: {
            files: {
                /** @description relative to your files folder (use it as a request path) */
                path: string;
                sha256: string;
                size: number;
            }[];
            /** @description relative to your files folder (use it as a request path) */
            path: string;
            sha256: string;
            size: number;
        };
        User: components["schemas"]["UserSummary"] & {
            created_at: string;
            /** @description false for accounts that sign in only through GitHub or ORCID */
            has_password: boolean;
            updated_at: string;
        };
        UserPatch: {
            /** @description a new password (ends the account's sessions) */
            password?: string;
            /**
             * @description admin: everything; user: own pipelines and runs; viewer: reads only
             * @enum {string}
             */
            role?: "admin" | "user" | "viewer";
        };
        UserSummary: {
            id: string;
            /**
             * @description admin: everything; user: own pipelines and runs; viewer: reads only
             * @enum {string}
             */
            role: "admin" | "user" | "viewer";
            username: string;
        };
        ValidatePluginRequest: {
            /** @description whether an unsigned manifest may be valid (default true: it gets a warning); false makes a missing signature an error */
            allow_unsigned?: boolean;
            /**
             * @description the plugin manifest (name, version, plugin_type, description, author, license, entry, command_template, environment, strand_version, permissions, homepage, repository, signature)
             * @example {
             *       "name": "fastp-trim",
             *       "version": "1.0.0",
             *       "plugin_type": "rule",
             *       "description": "Adapter trimming with fastp",
             *       "author": "Ada Lovelace",
             *       "license": "MIT",
             *       "entry": "rules/fastp.toml",
             *       "strand_version": "^0.1.0"
             *     }
             */
            manifest: {
                [key: string]: unknown;
            };
            /** @description Ed25519 public keys (standard base64) to trust besides the service's SERVICE_PLUGIN_TRUSTED_KEYS: a list, or an object {key_id: key} */
            trusted_keys?: string[] | {
                [key: string]: string;
            };
        };
        ValidateResult: {
            dependencies: number;
            errors: components["schemas"]["Finding"][];
            missing_inputs: string[];
            rules: number;
            valid: boolean;
            warnings: components["schemas"]["Finding"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAiConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the configuration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiConfig"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setAiConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AiConfigChange"];
            };
        };
        responses: {
            /** @description the configuration after the change */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiConfig"];
                };
            };
            /** @description unknown provider, unusable settings or a bad URL */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description only administrators change the shared provider */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    explainRunFailure: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExplainRequest"];
            };
        };
        responses: {
            /** @description the explanation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExplainResult"];
                };
            };
            /** @description BAD_REQUEST: the run has no failed job (or not the one named); AI_EXPLAIN_ERROR: every provider failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no run you may read has this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description AI_NOT_CONFIGURED: no usable AI provider */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    interpretRunResults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InterpretRequest"];
            };
        };
        responses: {
            /** @description the interpretation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InterpretResult"];
                };
            };
            /** @description BAD_REQUEST: the run has no result files yet; AI_INTERPRET_ERROR: every provider failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no run you may read has this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description AI_NOT_CONFIGURED: no usable AI provider */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    optimizePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OptimizeRequest"];
            };
        };
        responses: {
            /** @description the proposal */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OptimizeResult"];
                };
            };
            /** @description AI_OPTIMIZE_ERROR: every provider failed, or the proposal kept engine errors or broke the constraints */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no saved pipeline you may read has this id (a translate draft is not saved) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description AI_NOT_CONFIGURED: no usable AI provider */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testAiProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the outcome (success false with the provider's error when it failed) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiTestResult"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description AI_NOT_CONFIGURED: no usable AI provider */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    translateIntent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TranslateRequest"];
            };
        };
        responses: {
            /** @description the validated draft */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranslateResult"];
                };
            };
            /** @description AI_TRANSLATE_ERROR: every provider failed or the draft kept errors (the message may suggest a template) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description AI_NOT_CONFIGURED: no usable AI provider */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    translateIntentStream: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TranslateRequest"];
            };
        };
        responses: {
            /** @description the event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description AI_NOT_CONFIGURED: no usable AI provider */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAudit: {
        parameters: {
            query?: {
                /** @description only this action, e.g. pipeline.create or auth.login */
                action?: string;
                /** @description next_cursor of the previous page (keep the same filters) */
                cursor?: string;
                /** @description page size (default 50) */
                limit?: number;
                /** @description only entries about this resource, e.g. run/<id> or user/<name> */
                resource?: string;
                /** @description only entries with this outcome */
                result?: "success" | "failure" | "denied";
                /** @description only entries at or after this time (RFC 3339) */
                since?: string;
                /** @description only entries before this time (RFC 3339) */
                until?: string;
                /** @description only this user's entries: a user id or a username */
                user?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description one page of audit entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
                };
            };
            /** @description a bad limit, cursor or result, or a since or until that is not an RFC 3339 time (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the caller is not an administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description signed in */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginAnswer"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description wrong username or password (AUTH_FAILED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode has no sign-in */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many failed sign-ins for this account or address; wait (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description signed out */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        logged_out: true;
                    };
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode has no sign-in */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the current account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CurrentUser"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startOAuthSignIn: {
        parameters: {
            query?: {
                /** @description a path inside the app to land on after signing in (default /); never another site */
                return_to?: string;
            };
            header?: never;
            path: {
                /** @description github or orcid */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description to the provider's sign-in page */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description return_to is not a path inside the app (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such provider, the provider is not configured (the suggestion names its variables), or personal mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    finishOAuthSignIn: {
        parameters: {
            query?: {
                code?: string;
                /** @description the provider's refusal, e.g. access_denied */
                error?: string;
                error_description?: string;
                state?: string;
            };
            header?: never;
            path: {
                /** @description github or orcid */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description signed in: the session cookie is set and the browser goes to the return path (default the app's start page); failed: the browser goes to the app's start page with ?auth_error=BAD_REQUEST (state cookie missing, expired or not matching) or ?auth_error=AUTH_FAILED (the provider refused or failed), and auth_reason */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such provider, the provider is not configured, or personal mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        changed: true;
                        /** @description your other sessions, ended by the change */
                        sessions_ended: number;
                    };
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the current password is wrong (AUTH_FAILED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode has no sign-in */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSignInMethods: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the sign-in methods */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignInMethods"];
                };
            };
            /** @description personal mode has no sign-in */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description your sessions, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"][];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode has no sign-in */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description session id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the session ended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such session of yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAccessTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description your tokens, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessToken"][];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode has no sign-in */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewAccessToken"];
            };
        };
        responses: {
            /** @description the token, shown this once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedAccessToken"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode has no sign-in */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description token id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the token revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such token of yours */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendChatMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatSendRequest"];
            };
        };
        responses: {
            /** @description the event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the session is not yours, or the run or pipeline named is not one you may read */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description AI_NOT_CONFIGURED: no usable AI provider */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendChatMessageJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatSendRequest"];
            };
        };
        responses: {
            /** @description the reply, its proposed pipeline (if any) with the engine's verdict, and the tool calls */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatReply"];
                };
            };
            /** @description CHAT_ERROR: every provider failed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the session is not yours, or the run or pipeline named is not one you may read */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description AI_NOT_CONFIGURED: no usable AI provider */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listChatSessions: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description page size (default 20, at most 100) */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of sessions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatSessionPage"];
                };
            };
            /** @description a cursor this service did not issue */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteChatSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description chat session id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the session is gone */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no session of yours with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listChatMessages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description chat session id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the session and its messages */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessages"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no session of yours with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listClusters: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the clusters */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClusterList"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    saveCluster: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SaveCluster"];
            };
        };
        responses: {
            /** @description the cluster as saved */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cluster"];
                };
            };
            /** @description a field is invalid (the message names it), a new cluster lacks ssh_host, ssh_user or remote_dir, or there is no seen key to confirm */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not an administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteCluster: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the id of the removed cluster */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedCluster"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not an administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no cluster of that id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    probeCluster: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description what the probe found, or why it failed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClusterProbe"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a viewer */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no cluster of that id that you may use */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    analyzeData: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnalyzeDataRequest"];
            };
        };
        responses: {
            /** @description the analysis (paths as you gave them) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataAnalysis"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a path outside your data folders, existing or not (NOT_FOUND; existence is never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    perceiveData: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PerceiveDataRequest"];
            };
        };
        responses: {
            /** @description what is known of the data */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataPerception"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a path outside your data folders, existing or not (NOT_FOUND; existence is never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    findReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReferenceRequest"];
            };
        };
        responses: {
            /** @description the genome's status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferenceAnswer"];
                };
            };
            /** @description an unknown component (REF_ERROR) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReferenceStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the reference roots' genomes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferenceStatus"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDataRoots: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description your folders */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRootList"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generateSampleSheet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GenerateSampleSheetRequest"];
            };
        };
        responses: {
            /** @description the sheet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeneratedSampleSheet"];
                };
            };
            /** @description no FASTQ samples found (DATA_ERROR) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a path outside your data folders, existing or not (NOT_FOUND; existence is never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    parseSampleSheet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ParseSampleSheetRequest"];
            };
        };
        responses: {
            /** @description the sheet as read, valid or not */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParsedSampleSheet"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a path outside your data folders, existing or not (NOT_FOUND; existence is never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    templateFromData: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TemplateFromDataRequest"];
            };
        };
        responses: {
            /** @description the filled template and the analysis it rests on */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FilledTemplate"];
                };
            };
            /** @description no FASTQ samples, or no such template (DATA_ERROR) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a path outside your data folders, existing or not (NOT_FOUND; existence is never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description an HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiDocsAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/css": string;
                    "text/javascript": string;
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such asset */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description resume after this event id (for clients that cannot set Last-Event-ID) */
                last_event_id?: string;
                /** @description only this run's events (a `lagged` notice still comes; it may concern other runs' events) */
                run_id?: string;
            };
            header?: {
                /** @description resume after this event id (sent by EventSource when it reconnects); wins over the query */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description an endless event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED, with Retry-After: too many requests from this client, or the caller already holds as many event streams as one user may (the message names SERVICE_EVENT_STREAMS_PER_USER) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listFiles: {
        parameters: {
            query?: {
                /** @description a folder inside your files folder (relative), or an absolute folder inside a data root you may read (default: your files folder) */
                path?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the folder's entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileListing"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such folder in your data folders (existence is never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadFiles: {
        parameters: {
            query?: {
                /** @description the file's name (a raw body; multipart parts carry their own) */
                name?: string;
                /** @description replace a file of that name (default false: 409) */
                overwrite?: "true" | "false";
                /** @description the folder inside your files folder (default uploads) */
                path?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                };
            };
        };
        responses: {
            /** @description the stored file (the first one, and every one under files) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadAnswer"];
                };
            };
            /** @description a bad name or folder (INVALID_NAME, INVALID_PATH) or a malformed body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a file of that name exists (add overwrite=true) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a file over the upload limit (PAYLOAD_TOO_LARGE); nothing of it is kept */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the health document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the database cannot be reached (the same document, status degraded) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getHpcStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the scheduler's status (available false when it could not be read) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HpcStatus"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the service does not run in hpc mode */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLicense: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LicenseStatus"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadLicense: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LicenseUpload"];
            };
        };
        responses: {
            /** @description the installed license's status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LicenseStatus"];
                };
            };
            /** @description missing field, or a license that does not check out */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: {
                /** @description prometheus: the Prometheus text exposition format (as Accept: text/plain) */
                format?: "json" | "prometheus";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the metrics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Metrics"];
                    "text/plain": string;
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    editPipelineGraph: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DagCommandBody"];
            };
        };
        responses: {
            /** @description the edited text and its validation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DagCommandResult"];
                };
            };
            /** @description DAG_EDIT_ERROR: an unknown operation, a missing payload field, an unknown rule, a name already taken, or text that does not parse */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a viewer, or a saved pipeline the caller may read but not change (ACCESS_DENIED) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description another user's private pipeline (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redoPipelineEdit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DagHistoryBody"];
            };
        };
        responses: {
            /** @description the text after the latest undone edit */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DagHistoryResult"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a viewer, or a saved pipeline the caller may read but not change (ACCESS_DENIED) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_REDO: nothing to redo (a new edit clears it); or NOT_FOUND: another user's private pipeline */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: the text sent is not what the latest undo produced */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    undoPipelineEdit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DagHistoryBody"];
            };
        };
        responses: {
            /** @description the text before the latest edit */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DagHistoryResult"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a viewer, or a saved pipeline the caller may read but not change (ACCESS_DENIED) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_UNDO: nothing to undo; or NOT_FOUND: another user's private pipeline */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: the text sent is not what the latest edit produced (it changed since) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPipelines: {
        parameters: {
            query?: {
                /** @description at most this many (default and maximum 100) */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a bare array of pipelines */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PipelineSummary"][];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePipeline"];
            };
        };
        responses: {
            /** @description the saved pipeline and its lint result */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedPipelineWithValidation"];
                };
            };
            /** @description missing toml_content (MISSING_FIELD), or text that does not parse or has no [workflow].name (PARSE_ERROR) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the pipeline */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedPipeline"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown, not readable, or a draft id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePipeline"];
            };
        };
        responses: {
            /** @description the pipeline and its lint result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedPipelineWithValidation"];
                };
            };
            /** @description nothing to change, or text that does not parse */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description someone else's pipeline */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown or not readable */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the pipeline changed since the revision sent */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description what was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description someone else's pipeline */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown or not readable */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    forkPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Fork"];
            };
        };
        responses: {
            /** @description the copy */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Forked"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown or not readable */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRevisions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the revisions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevisionSummary"][];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown or not readable */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pruneRevisions: {
        parameters: {
            query: {
                /** @description how many of the newest revisions to keep (the current one is always among them) */
                keep: number;
            };
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description what was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrunedRevisions"];
                };
            };
            /** @description keep missing or not a whole number of at least 1 */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description someone else's pipeline */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown or not readable */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRevision: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
                /** @description revision number or revision id */
                rev: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the revision */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Revision"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown pipeline or revision */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rollbackPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Rollback"];
            };
        };
        responses: {
            /** @description the pipeline as restored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedPipelineWithValidation"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description someone else's pipeline */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown pipeline or revision */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sharePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ShareRequest"];
            };
        };
        responses: {
            /** @description the link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareLink"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description someone else's pipeline */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown or not readable */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the revoked link */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareLink"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description someone else's pipeline */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown pipeline or link */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listShares: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description pipeline id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the links */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareLink"][];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description someone else's pipeline */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown or not readable */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pipelineDag: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DagBody"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DagResult"];
                };
            };
            /** @description a missing field, or a pipeline the engine refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    diffPipelines: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DiffBody"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiffResult"];
                };
            };
            /** @description a missing field, or a pipeline the engine refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExportBody"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportResult"];
                };
            };
            /** @description a missing field, or a pipeline the engine refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    formatPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TomlBody"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FormatResult"];
                };
            };
            /** @description a missing field, or a pipeline the engine refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImportRequest"];
            };
        };
        responses: {
            /** @description the imported pipeline (private, yours) with its lint result */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Imported"];
                };
            };
            /** @description INVALID_URL: another scheme, a private address, a redirect, an answer over 1 MiB; PARSE_ERROR: not a pipeline */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: no such share link (on this service or on the remote server) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the share link expired or was revoked */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_ERROR: the remote server did not answer in time */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    lintPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LintBody"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LintResult"];
                };
            };
            /** @description a missing field, or a pipeline the engine refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    parsePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TomlBody"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParseResult"];
                };
            };
            /** @description a missing field, or a pipeline the engine refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    preparePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PrepareBody"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrepareResult"];
                };
            };
            /** @description a missing field, or a pipeline the engine refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchPipelines: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchQuery"];
            };
        };
        responses: {
            /** @description ranked hits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResult"];
                };
            };
            /** @description an empty query (SEARCH_ERROR) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pipelineStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TomlBody"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatsResult"];
                };
            };
            /** @description a missing field, or a pipeline the engine refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    validatePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TomlBody"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateResult"];
                };
            };
            /** @description a missing field, or a pipeline the engine refuses */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    validatePlugin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidatePluginRequest"];
            };
        };
        responses: {
            /** @description the verdict, with every problem found */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginValidation"];
                };
            };
            /** @description no manifest (MISSING_FIELD), or a trusted key that is not an Ed25519 public key (PLUGIN_ERROR) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRuns: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description page size (default 50, at most 500) */
                limit?: number;
                /** @description part of the workflow name */
                q?: string;
                status?: "queued" | "running" | "paused" | "completed" | "failed" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page; next_cursor is null on the last */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunPage"];
                };
            };
            /** @description a cursor this server did not issue */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRun"];
            };
        };
        responses: {
            /** @description the queued run */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description MISSING_FIELD, BAD_REQUEST, VALIDATE_ERROR (with findings) or RUN_ERROR (a target this server cannot use) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunRefusal"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description pipeline_id names no pipeline you can read */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: another run of this saved pipeline is working in its shared workspace (running_run names it); wait, cancel it, or send fresh: true */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunConflict"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description USER_LIMIT: the caller's active runs (SERVICE_USER_MAX_RUNS) or their jobs at once (SERVICE_USER_MAX_THREADS) would go over the per-user limit (the body names the limit, allowed, in_use and requested); or RATE_LIMITED: too many requests from this client (with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunDetail"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description RUN_ERROR: the run's state does not allow it */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRunDagStatus: {
        parameters: {
            query?: {
                /** @description false: `jobs` is returned empty (page the jobs with GET /api/runs/{id}/jobs instead); default true */
                jobs?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pipeline's DAG with per-node live status, job totals and an ETA (and every job unless jobs=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunDagStatus"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRunDiagnostics: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Why jobs failed: one diagnosis per failed job from the rule engine */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunDiagnostics"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    readRunFile: {
        parameters: {
            query?: {
                /** @description 1: Content-Disposition attachment even for a file a browser could show */
                download?: "0" | "1" | "true" | "false";
                /** @description for a folder: json (default) lists it; zip streams it as a zip archive */
                format?: "json" | "zip";
                /** @description a file or folder, relative to the run's workspace with / between parts (absent: the top); absolute paths, .., links and the engine's .strand folder answer 404 */
                path?: string;
            };
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a folder's entries (JSON), a folder as a zip, or a whole file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunFolder"];
                    "application/octet-stream": string;
                    "application/zip": string;
                };
            };
            /** @description the requested range of a file (Content-Range says which) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description the file has not changed (If-None-Match matched its ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description format=zip for a file */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours), or no such file or folder in its workspace (also for an absolute path, .., a link, or .strand) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RANGE_NOT_SATISFIABLE: the range is outside the file (Content-Range: bytes *\/size) */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRunJobs: {
        parameters: {
            query?: {
                /** @description rows in the page (default 100, at most 1000) */
                limit?: number;
                /** @description rows to skip (default 0) */
                offset?: number | null;
                /** @description default asc */
                order?: "asc" | "desc";
                /** @description only jobs whose id or rule contains this text (case-insensitive) */
                q?: string;
                /** @description only jobs of this rule */
                rule?: string;
                /** @description the column to sort by (default order: the engine's order); ties keep the engine's order, rows without a value come last */
                sort?: "order" | "job" | "rule" | "status" | "started_at" | "duration_ms";
                /** @description only jobs in this status */
                status?: "queued" | "running" | "completed" | "failed" | "skipped" | "would_run" | "would_skip";
            };
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of jobs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunJobsPage"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRunLogs: {
        parameters: {
            query?: {
                /** @description a job of the run (default: the engine's log) */
                job?: string;
                /** @description lines (default 1000) */
                limit?: number;
                /** @description byte offset: next_offset of the previous page */
                offset?: number | null;
                /** @description default: stderr with a job, engine without */
                stream?: "stdout" | "stderr" | "engine";
            };
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of lines */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunLogs"];
                };
            };
            /** @description a stream that needs a job, or a job with the engine stream */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description RUN_ERROR: the run's state does not allow it */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRunReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description an HTML document with inline CSS and SVG, no scripts and nothing loaded from elsewhere */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours), or a run with no event log yet (not started, or a dry run) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRunResults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Declared outputs that exist, with sizes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResults"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description RUN_ERROR: the run's state does not allow it */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the new run */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description RETRY_ERROR: the run's state does not allow it */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description USER_LIMIT: the caller's active runs (SERVICE_USER_MAX_RUNS) or their jobs at once (SERVICE_USER_MAX_THREADS) would go over the per-user limit (the body names the limit, allowed, in_use and requested); or RATE_LIMITED: too many requests from this client (with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRunStatus: {
        parameters: {
            query?: {
                /** @description false: `jobs` is returned empty (page the jobs with GET /api/runs/{id}/jobs instead); default true */
                jobs?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Live status: nodes grouped by rule with job counts, the recent timeline, resources (and every job unless jobs=false) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunStatusView"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such run (or not yours) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the shared pipeline */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareLanding"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such link */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the link expired or was revoked (EXPIRED) */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSystem: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description system information */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["System"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description all templates, whole */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateList"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewTemplate"];
            };
        };
        responses: {
            /** @description the new template with its lint result */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateWithValidation"];
                };
            };
            /** @description a missing field, or TOML that does not parse (PARSE_ERROR) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a template with that name exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the engine work took longer or needed more memory than the service allows (WORK_LIMIT) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many engine tasks are waiting (SERVICE_BUSY, with Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description template id, built-in slug, or exact name */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the template */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such template */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description template id, built-in slug, or exact name */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description what was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description a built-in template, or another user's (only its owner or an administrator deletes one) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such template */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description accounts by username */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"][];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode has no accounts */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewUser"];
            };
        };
        responses: {
            /** @description the new account */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode has no accounts */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the username is taken, or looks like a taken one */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description user id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the account deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the last administrator cannot be deleted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description user id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserPatch"];
            };
        };
        responses: {
            /** @description the account */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the last administrator cannot be demoted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is over the size cap (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is not JSON (UNSUPPORTED_MEDIA_TYPE) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST) */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many requests from this client (RATE_LIMITED, with Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an unexpected error (INTERNAL, with the request id in detail) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
