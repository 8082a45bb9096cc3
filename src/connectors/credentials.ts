// A connector's credentials at rest: the platform's secrets as one sealed JSON, the webhook secret sealed apart
// (crypto/secret-box.ts, like webhook secrets); opened only to call the platform.
import type { SecretBox } from "../crypto/secret-box.ts";
import type { StoreCredentials, StorePlatformName } from "./platform.ts";

/** The sealed credentials of a connector, opened (for the catalogue import and write-backs). */
export function openCredentials(
  box: SecretBox,
  platform: StorePlatformName,
  storeUrl: string,
  credentialsSealed: string,
  webhookSecretSealed: string,
): StoreCredentials {
  const secrets = JSON.parse(box.open(credentialsSealed)) as Record<string, string>;
  return { ...secrets, platform, storeUrl, webhookSecret: box.open(webhookSecretSealed) } as StoreCredentials;
}
