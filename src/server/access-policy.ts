/**
 * Who may call each operation of the API, in one table keyed by the OpenAPI operationId. The
 * authentication middleware enforces it in team and hpc modes (personal mode has one local administrator);
 * ownership of individual pipelines and runs is the domains' business (another user's private resource
 * answers 404, never 403). A test fails when an operation of the OpenAPI document has no entry here, or an
 * entry names an operation that does not exist.
 *
 * - `public`: anyone, without credentials (docs/guide/team-and-security.md).
 * - `read`: any signed-in caller, viewers included; the operation changes nothing.
 * - `account`: any signed-in caller, viewers included; the operation changes only the caller's own account
 *   (signing out, their sessions, their password, their personal access tokens).
 * - `write`: users and administrators; a viewer gets 403 ACCESS_DENIED.
 * - `admin`: administrators only; others get 403 ACCESS_DENIED.
 */

/** An access level of the table. */
export type Access = "public" | "read" | "account" | "write" | "admin";

/** operationId → who may call it. */
export const ROUTE_ACCESS: Readonly<Record<string, Access>> = {
  // API description and health
  getOpenApiDocument: "public",
  getApiDocs: "public",
  getApiDocsAsset: "public",
  getHealth: "public",
  getLicense: "public",
  getShare: "public",
  // sign-in
  login: "public",
  logout: "account",
  getCurrentUser: "account",
  listSessions: "account",
  revokeSession: "account",
  changePassword: "account",
  createAccessToken: "account",
  listAccessTokens: "account",
  deleteAccessToken: "account",
  listUsers: "admin",
  createUser: "admin",
  updateUser: "admin",
  deleteUser: "admin",
  // sign-in with GitHub and ORCID (the browser arrives without a session)
  listSignInMethods: "public",
  startOAuthSignIn: "public",
  finishOAuthSignIn: "public",
  // stateless pipeline tooling: checks that change nothing
  parsePipeline: "read",
  validatePipeline: "read",
  preparePipeline: "read",
  pipelineDag: "read",
  formatPipeline: "read",
  lintPipeline: "read",
  pipelineStats: "read",
  diffPipelines: "read",
  exportPipeline: "read",
  searchPipelines: "read",
  // saved pipelines
  listPipelines: "read",
  getPipeline: "read",
  listRevisions: "read",
  getRevision: "read",
  createPipeline: "write",
  updatePipeline: "write",
  deletePipeline: "write",
  pruneRevisions: "write",
  rollbackPipeline: "write",
  // collaboration
  forkPipeline: "write",
  sharePipeline: "write",
  listShares: "read",
  revokeShare: "write",
  importPipeline: "write",
  // graph edits of a pipeline's text (write permission on a saved pipeline is the domain's check)
  editPipelineGraph: "write",
  undoPipelineEdit: "write",
  redoPipelineEdit: "write",
  // templates
  listTemplates: "read",
  getTemplate: "read",
  createTemplate: "write",
  deleteTemplate: "write",
  // data helpers: each caller reads only their own folders (another's is 404); uploads write into their own
  listDataRoots: "read",
  analyzeData: "read",
  perceiveData: "read",
  templateFromData: "read",
  parseSampleSheet: "read",
  generateSampleSheet: "read",
  findReference: "read",
  getReferenceStatus: "read",
  listFiles: "read",
  uploadFiles: "write",
  // runs and events
  streamEvents: "read",
  listRuns: "read",
  getRun: "read",
  getRunStatus: "read",
  getRunDagStatus: "read",
  listRunJobs: "read",
  getRunLogs: "read",
  getRunResults: "read",
  getRunDiagnostics: "read",
  getRunReport: "read",
  readRunFile: "read",
  createRun: "write",
  cancelRun: "write",
  pauseRun: "write",
  resumeRun: "write",
  retryRun: "write",
  // observability and license
  getSystem: "read",
  getMetrics: "read",
  listAudit: "admin",
  uploadLicense: "admin",
  // AI: the settings are read by anyone signed in; drafting and diagnosis spend the provider's tokens (users
  // and administrators); who changes the shared provider is decided by the domain (administrators only)
  getAiConfig: "read",
  setAiConfig: "write",
  testAiProvider: "write",
  translateIntent: "write",
  translateIntentStream: "write",
  explainRunFailure: "write",
  interpretRunResults: "write",
  optimizePipeline: "write",
  // the copilot: asking spends the provider's tokens (users and administrators); each caller reads and deletes
  // only their own sessions (another user's is 404, administrators included)
  sendChatMessage: "write",
  sendChatMessageJson: "write",
  listChatSessions: "read",
  listChatMessages: "read",
  deleteChatSession: "write",
  // plugins: validating a manifest changes nothing
  validatePlugin: "read",
  // the scheduler's queue, as squeue shows it to anyone on a login node (hpc mode; 404 in other modes)
  getHpcStatus: "read",
  // the registry of remote clusters: everyone lists what they may use; administrators change it
  listClusters: "read",
  saveCluster: "admin",
  deleteCluster: "admin",
  probeCluster: "write",
};

/** Whether a caller of this role passes this access level (ownership is checked later, by the domain). */
export function roleAllows(access: Access, role: "admin" | "user" | "viewer" | "anonymous"): boolean {
  switch (access) {
    case "public":
      return true;
    case "read":
    case "account":
      return role !== "anonymous";
    case "write":
      return role === "admin" || role === "user";
    case "admin":
      return role === "admin";
  }
}
