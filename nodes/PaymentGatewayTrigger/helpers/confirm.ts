/**
 * "Confirm with the service": the signature covers amount and reference only, never the status,
 * so a replayed signed callback could carry a forged status. This looks the reference up with
 * the credential and accepts the callback only when the service reports the same status.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { ServiceError } from '../../shared/errors';
import { findCollectionTransaction, findPayout } from '../../shared/lookups';
import type { ApiInterface, Callback } from './payload';

export const CONFIRM_TIMEOUT_MS = 10_000;

export type ConfirmOutcome =
	| { ok: true; api: ApiInterface; record: IDataObject; status: string }
	/** 401: the service contradicts the callback. 503: the service could not be asked. */
	| { ok: false; code: 401 | 503; reason: string };

export async function confirmWithService(
	ctx: IWebhookFunctions,
	candidates: ApiInterface[],
	callback: Callback,
): Promise<ConfirmOutcome> {
	const found: Array<{ api: ApiInterface; record: IDataObject }> = [];
	const failures: string[] = [];
	for (const api of candidates) {
		try {
			const lookup = api === 'collection' ? findCollectionTransaction : findPayout;
			const record = await lookup(ctx, callback.referenceNo, CONFIRM_TIMEOUT_MS);
			if (record) found.push({ api, record });
		} catch (error) {
			// The message of a ServiceError is built from safe fields only (no request, no token).
			failures.push(error instanceof ServiceError ? error.message : 'the look-up failed');
		}
	}
	if (found.length === 0) {
		if (failures.length > 0) {
			return { ok: false, code: 503, reason: `the service could not be asked: ${failures.join('; ')}` };
		}
		return { ok: false, code: 401, reason: 'the service does not know this reference_no' };
	}
	const match = found.find(({ record }) => normalise(record.status) === callback.status);
	if (!match) {
		const said = found.map(({ record }) => `"${String(record.status)}"`).join(' or ');
		return {
			ok: false,
			code: 401,
			reason: `the callback says "${callback.status}" but the service says ${said}`,
		};
	}
	return { ok: true, api: match.api, record: match.record, status: normalise(match.record.status) };
}

function normalise(status: unknown): string {
	return typeof status === 'string' ? status.trim().toLowerCase() : '';
}
