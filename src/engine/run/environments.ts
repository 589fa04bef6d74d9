/**
 * Environments (conda, mamba, pixi, docker/podman, singularity/apptainer, venv, modules, system): the one
 * import for the runner. Wrapping a job's command lives in `environment-wrap.ts`; checking the backend is
 * installed and setting the environment up once lives in `environment-setup.ts`.
 */
export {
  type BackendBinaries,
  CONTAINER_RUNTIME_VARIABLE,
  condaEnvironmentName,
  containerRuntime,
  pulledImagePath,
  resolveBackendBinaries,
  wrapCommand,
  type WrapOptions,
} from "./environment-wrap.js";
export {
  backendAvailable,
  ensureEnvironment,
  type EnsureEnvironmentOptions,
  ENVIRONMENT_CACHE_FILE,
  environmentKey,
  missingBackendHint,
  recordedEnvironments,
  requireBackend,
} from "./environment-setup.js";
