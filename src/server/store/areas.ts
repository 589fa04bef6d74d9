/**
 * Every data area of the store. A new persisted area is one folder (contract, rows, two schemas, two
 * implementations, area.ts) and one line here: the composed Store type and both databases follow.
 */
import { pipelineArea } from "./pipelines/area.js";
import { shareArea } from "./shares/area.js";
import { accountArea } from "./accounts/area.js";
import { templateArea } from "./templates/area.js";
import { auditArea } from "./audit/area.js";
import { runArea } from "./runs/area.js";
import { aiSettingsArea } from "./ai-settings/area.js";
import { chatArea } from "./chat/area.js";
import { clusterArea } from "./clusters/area.js";
import { instanceArea } from "./instances/area.js";

/** The areas the composed store is made of; their method names never overlap (checked when composing). */
export const STORE_AREAS = [
  pipelineArea,
  shareArea,
  accountArea,
  templateArea,
  auditArea,
  runArea,
  aiSettingsArea,
  chatArea,
  clusterArea,
  instanceArea,
] as const;
