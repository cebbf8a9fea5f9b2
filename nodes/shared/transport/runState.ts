/**
 * What the transport keeps for one run: the credentials it read. Made once where a run starts
 * (the runner's `RunContext` extends it) or once per call at an entry point outside a run (the
 * editor's dropdowns, the trigger's webhook and activation hooks), and handed down explicitly, so
 * no module-level state is keyed by n8n's execution context. The tokens themselves outlive a run:
 * n8n stores them with the credential, and token.ts shares token requests across runs.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import type { ApiInterface } from './endpoints';

export type ServiceContext = IExecuteFunctions | ILoadOptionsFunctions | IWebhookFunctions;

/** What reads a credential: also the trigger's activation hooks, which send no request. */
export type CredentialContext = ServiceContext | IHookFunctions;

/** A decrypted credential with the reference n8n needs to use it for a request. */
export interface ReadCredential extends ICredentialsDecrypted {
	data: ICredentialDataDecryptedObject;
}

export interface ServiceRun<C extends CredentialContext = ServiceContext> {
	/** n8n's functions for this run (or this one call). */
	readonly ctx: C;
	/** One credential read per interface: n8n decrypts on every getCredentials call. */
	readonly credentials: Map<ApiInterface, Promise<ReadCredential>>;
}

/** A fresh transport state: at the start of a run, or for one call from outside a run. */
export function serviceRun<C extends CredentialContext>(ctx: C): ServiceRun<C> {
	return { ctx, credentials: new Map() };
}
