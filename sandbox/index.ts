/** Public entry of the sandbox gateway. */
export { startSandboxGateway } from './gateway';
export { SANDBOX_CREDENTIALS } from './credentials';
export { isLoopbackHost, buildCallbackBody } from './callbacks';
export { AUTHORIZATIONS, BANKS, COLLECTION_CHANNELS, PAYOUT_CHANNELS, WALLETS } from './fixtures';
export { AMOUNT_MAX, AMOUNT_MIN, REFERENCE_MAX_LENGTH } from './validation';
export type {
	CallbackRecord,
	FaultMode,
	FaultRule,
	FinalStatus,
	RecordedRequest,
	SandboxCredentials,
	SandboxGateway,
	SandboxOptions,
	SandboxStats,
} from './types';
