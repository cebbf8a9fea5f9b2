/** Public entry of the sandbox gateway. */
export { startSandboxGateway } from './gateway';
export { SANDBOX_CREDENTIALS } from './credentials';
export { buildCallbackBody, isLoopbackHost } from './callbacks/body';
export { COLLECTION_CHANNELS } from './collection/channels';
export { readPayoutAnswers } from './disbursement/payouts';
export { AUTHORIZATIONS, BANKS, PAYOUT_CHANNELS, WALLETS } from './disbursement/fixtures';
export { AMOUNT_MAX, AMOUNT_MIN, REFERENCE_MAX_LENGTH } from './server/validation';
export { PAYOUT_ANSWERS } from './types';
export type {
	ApiInterface,
	CallbackRecord,
	FaultMode,
	FaultRule,
	FinalStatus,
	PayoutAnswers,
	RecordedRequest,
	SandboxCredentials,
	SandboxGateway,
	SandboxOptions,
	SandboxStats,
	Status,
} from './types';
