/**
 * How the service logs in to a registered cluster: the account, the pinned host key and the private key —
 * opened from the store's sealed copy or read from its file on the service's host, never logged, never
 * returned. The registry's probe and remote runs connect through this one function.
 */
import { readFile } from "node:fs/promises";
import type { KeySealer } from "../secret-box.js";
import type { ClusterRecord } from "../store/clusters/contract.js";
import { connectSsh, type SshTarget } from "./ssh.js";
import type { Client } from "ssh2";

/** The most of a key file read (an OpenSSH private key is a few kilobytes). */
const KEY_FILE_MAX_CHARS = 64 * 1024;

/** A cluster's connection settings with its private key opened. */
export async function clusterLogin(record: ClusterRecord, sealer: KeySealer): Promise<SshTarget> {
  return { host: record.ssh_host, port: record.ssh_port, username: record.ssh_user, privateKey: await privateKeyOf(record, sealer), pinned: record.host_key_sha256 };
}

/** Connects to a cluster as registered (see connectSsh: the host key must match the pin). */
export async function connectCluster(record: ClusterRecord, sealer: KeySealer, options: { timeoutMs?: number } = {}): Promise<Client> {
  return connectSsh(await clusterLogin(record, sealer), options);
}

/** The private key text of a cluster: opened from the store, or read from its file on the service's host. */
async function privateKeyOf(record: ClusterRecord, sealer: KeySealer): Promise<string> {
  if (record.sealed_private_key) return sealer.open(record.sealed_private_key);
  if (record.key_path) {
    const text = await readFile(record.key_path, "utf8").catch((error: NodeJS.ErrnoException) => {
      throw new Error(`cannot read the cluster's key file (${error.code ?? error.message})`);
    });
    return text.slice(0, KEY_FILE_MAX_CHARS);
  }
  throw new Error(`cluster '${record.id}' has no credential: give it a private_key or a key_path`);
}
