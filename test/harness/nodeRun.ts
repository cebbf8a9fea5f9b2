/**
 * Set-up shared by the action-node tests: a sandbox gateway, a credential store holding a working
 * credential for it, and running the node with that credential inside n8n's engine.
 */
import type { IDataObject, INodeCredentials, INodeParameters, OnError } from 'n8n-workflow';

import {
	SANDBOX_CREDENTIALS,
	startSandboxGateway,
	type SandboxGateway,
	type SandboxOptions,
} from '../../sandbox';
import { CredentialStore, runNode, type NodeRunResult } from './index';

export interface Setup {
	gw: SandboxGateway;
	store: CredentialStore;
	credentialId: string;
}

export interface RunOptions {
	items?: IDataObject[];
	onError?: OnError;
	credentialId?: string;
	/** The node's version; default 1, the version the stored workflows these tests stand for were made with. */
	typeVersion?: number;
	/** Further credentials of the node (a Payout Ledger), beside the one of its service. */
	moreCredentials?: INodeCredentials;
}

export interface NodeUnderTest {
	/** Full node type, e.g. n8n-nodes-payment-gateway.disbursement. */
	type: string;
	credentialType: string;
	/** The sandbox login of the service this node talks to. */
	account: 'collection' | 'disbursement';
}

export function nodeRunner(node: NodeUnderTest) {
	const login = SANDBOX_CREDENTIALS[node.account];

	/** Another credential for the same gateway, e.g. a production one or a wrong password. */
	function addCredential(setup: Setup, data: IDataObject): string {
		return setup.store.add(node.credentialType, {
			environment: 'sandbox',
			baseUrl: setup.gw.url,
			username: login.username,
			password: login.password,
			...data,
		}).id;
	}

	async function setUp(options: SandboxOptions = {}): Promise<Setup> {
		const gw = await startSandboxGateway(options);
		const setup: Setup = { gw, store: new CredentialStore(), credentialId: '' };
		setup.credentialId = addCredential(setup, { signingSecret: SANDBOX_CREDENTIALS.signingSecret });
		return setup;
	}

	/** The node's credentials parameter naming one credential of the store. */
	function credentialsOf(setup: Setup, credentialId = setup.credentialId): INodeCredentials {
		return {
			[node.credentialType]: {
				id: credentialId,
				name: setup.store.get(node.credentialType, credentialId).name,
			},
		};
	}

	async function run(
		setup: Setup,
		parameters: INodeParameters,
		options: RunOptions = {},
	): Promise<NodeRunResult> {
		return await runNode({
			type: node.type,
			store: setup.store,
			parameters,
			items: options.items,
			onError: options.onError,
			credentials: { ...credentialsOf(setup, options.credentialId), ...options.moreCredentials },
			typeVersion: options.typeVersion ?? 1,
		});
	}

	return { addCredential, setUp, credentialsOf, run };
}

export interface SuiteHooks {
	beforeEach?: (setup: Setup) => void;
	afterEach?: (setup: Setup) => void;
}

/**
 * One gateway for every test of the file (or describe block): started before the first test and
 * closed after the last. The returned object is filled in when it starts, so tests read `s.gw`.
 */
export function gatewayPerSuite(start: () => Promise<Setup>, hooks: SuiteHooks = {}): Setup {
	const setup = {} as Setup;
	beforeAll(async () => {
		Object.assign(setup, await start());
	});
	afterAll(async () => {
		await setup.gw.close();
	});
	if (hooks.beforeEach) beforeEach(() => hooks.beforeEach!(setup));
	if (hooks.afterEach) afterEach(() => hooks.afterEach!(setup));
	return setup;
}
