/** Credentials as n8n's server handles them: store, helper, credential types and the "Test" button. */
export { CredentialNotFoundError, CredentialStore } from './credentialStore';
export type { CredentialStats, KnownSecret, SecretKind } from './credentialStore';
export { HarnessCredentialsHelper } from './credentialsHelper';
export {
	expirablePropertyOf,
	getCredentialType,
	getParentTypes,
	registerCredentialType,
} from './credentialTypes';
export { testCredential } from './credentialTest';
export type { CredentialTestResult } from './credentialTest';
