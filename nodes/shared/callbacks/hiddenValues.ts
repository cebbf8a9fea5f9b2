/**
 * The secret values of the chosen credentials (password, Signing Secret, stored token). A broken
 * service may echo one in its callback; nothing the trigger emits, answers or logs holds them.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import type { ApiInterface } from '../transport/endpoints';
import { secretsOf } from '../transport/secrets';
import { credentialsFor, type ServiceRun } from '../transport/transport';

export async function hiddenValues(
	service: ServiceRun<IWebhookFunctions>,
	chosen: ApiInterface[],
): Promise<string[]> {
	const values: string[] = [];
	for (const api of chosen) values.push(...secretsOf(await credentialsFor(service, api)));
	// Longest first, so a secret containing another is hidden whole.
	return [...new Set(values)].sort((a, b) => b.length - a.length);
}
