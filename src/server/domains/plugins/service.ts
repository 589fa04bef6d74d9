/**
 * Plugin validation as the service uses it: the engine's manifest and signature checks
 * (`src/engine/plugins/`), shared with `strand plugin verify` so both answer alike.
 */
export { configuredTrustedKeys, readPublicKey, TRUSTED_KEYS_VARIABLE, validatePlugin, type PluginValidation, type TrustedKey } from "../../../engine/plugins/validate-plugin.js";
