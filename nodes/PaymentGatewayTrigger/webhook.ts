/**
 * What happens to one callback request. Checks run cheapest and most telling first:
 * source address (403), body (400), signature (401), interface and status filters (200, no
 * execution), duplicates (200, no execution), confirmation with the service (401, or 503 when the
 * service cannot be asked), then one normalised item starts the workflow. Every refusal is
 * answered here and logged with its reason (never a secret); only an accepted callback returns
 * workflowData.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { chosenInterfaces } from './helpers/chosenInterfaces';
import { confirmWithService } from './helpers/confirm';
import { callbackKey, recentKeysFor } from './helpers/duplicates';
import { readCallback, type ApiInterface, type Callback, type IncomingRequest } from './helpers/payload';
import { isAllowed, normaliseAddress, parseAllowList } from './helpers/sourceAddress';
import { checkSignature } from './helpers/verification';


interface Verified {
	signature: true | 'not configured';
	sourceAddress: true | 'not configured';
	confirmedWithService: true | 'not configured';
}

export async function handleCallback(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject() as unknown as IncomingRequest;
	const chosen = chosenInterfaces(this);
	const statuses = this.getNodeParameter('statuses', ['completed', 'cancelled']) as string[];
	const confirm = this.getNodeParameter('confirmWithService', false) as boolean;
	const allowText = this.getNodeParameter('allowedIpAddresses', '') as string;
	const sourceAddress = normaliseAddress(request.ip ?? request.socket?.remoteAddress);
	const log = logFor(this, sourceAddress);

	// 1. Source address.
	let addressChecked: Verified['sourceAddress'] = 'not configured';
	if (allowText.trim() !== '') {
		const allowList = parseAllowList(allowText);
		if (allowList.invalid.length > 0) {
			log.refused(403, `Allowed IP Addresses holds entries that are not addresses: ${allowList.invalid.join(', ')}`);
			return reply(this, 403, 'Forbidden');
		}
		if (!isAllowed(allowList, sourceAddress)) {
			log.refused(403, 'the source address is not in Allowed IP Addresses');
			return reply(this, 403, 'Forbidden');
		}
		addressChecked = true;
	}

	// 2. Body.
	const read = readCallback(request);
	if (!read.ok) {
		log.refused(400, read.reason);
		return reply(this, 400, `Bad request: ${read.reason}`);
	}
	const callback = read.callback;
	log.reference = callback.referenceNo;

	// 3. Signature.
	const signature = await checkSignature(this, chosen, callback);
	if (!signature.ok) {
		log.refused(401, signature.reason);
		return reply(this, 401, 'Unauthorized');
	}
	if (signature.verified === 'not configured') {
		log.warn('accepted a callback WITHOUT verification: the chosen credential has no Signing Secret');
	}

	// 4. Filters.
	if (callback.shapeHint && !chosen.includes(callback.shapeHint)) {
		log.ignored(`it is a ${callback.shapeHint} callback and this trigger listens to ${chosen.join(' and ')}`);
		return reply(this, 200, 'Ignored: other interface');
	}
	if (!statuses.includes(callback.status)) {
		log.ignored(`status "${callback.status}" is not one of the chosen statuses`);
		return reply(this, 200, `Ignored: status ${callback.status}`);
	}
	let api = pickInterface(signature.interfaces, callback.shapeHint);

	// 5. Duplicates (checked again after the await below, where the key is recorded).
	const dedupe = this.getMode() !== 'manual';
	const seen = recentKeysFor(nodeKey(this));
	if (dedupe && api !== 'unknown' && seen.has(callbackKey(api, callback.referenceNo, callback.status))) {
		log.ignored('duplicate delivery');
		return reply(this, 200, 'Duplicate ignored');
	}

	// 6. Confirmation with the service.
	let status: string = callback.status;
	let transaction: IDataObject | null = callback.transaction ?? null;
	let confirmed: Verified['confirmedWithService'] = 'not configured';
	if (confirm) {
		const candidates = api === 'unknown' ? signature.interfaces : [api];
		const outcome = await confirmWithService(this, candidates, callback);
		if (!outcome.ok) {
			log.refused(outcome.code, outcome.reason);
			return reply(this, outcome.code, outcome.code === 401 ? 'Unauthorized' : 'Service unavailable, try again later');
		}
		api = outcome.api;
		status = outcome.status;
		transaction = outcome.record;
		confirmed = true;
	}

	if (dedupe && !seen.add(callbackKey(api, callback.referenceNo, status))) {
		log.ignored('duplicate delivery');
		return reply(this, 200, 'Duplicate ignored');
	}

	const item: IDataObject = {
		interface: api,
		reference_no: callback.referenceNo,
		status,
		amount: callback.amount,
		total_amount: callback.totalAmount,
		channel: channelOf(callback, transaction),
		verified: {
			signature: signature.verified,
			sourceAddress: addressChecked,
			confirmedWithService: confirmed,
		} satisfies Verified,
		sourceAddress: sourceAddress ?? null,
		receivedAt: new Date().toISOString(),
		transaction,
		raw: callback.raw,
	};
	log.accepted(api, status);
	return { workflowData: [[{ json: item }]] };
}

/** The interface whose secret verified the callback, its shape breaking a tie. */
function pickInterface(verifiedBy: ApiInterface[], hint: ApiInterface | undefined): ApiInterface | 'unknown' {
	if (hint && verifiedBy.includes(hint)) return hint;
	if (verifiedBy.length === 1) return verifiedBy[0];
	return 'unknown';
}

function channelOf(callback: Callback, transaction: IDataObject | null): string | null {
	for (const source of [transaction, callback.transaction, callback.payload]) {
		const channel = source?.channel;
		if (typeof channel === 'string') return channel;
		if (channel && typeof channel === 'object' && typeof (channel as IDataObject).code === 'string') {
			return (channel as IDataObject).code as string;
		}
	}
	return null;
}

function nodeKey(ctx: IWebhookFunctions): string {
	const node = ctx.getNode();
	return `${ctx.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
}

/** Answers the request here, so n8n sends nothing more and starts no execution. */
function reply(ctx: IWebhookFunctions, code: number, message: string): IWebhookResponseData {
	const response = ctx.getResponseObject();
	response.writeHead(code, { 'content-type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify({ message }));
	return { noWebhookResponse: true };
}

function logFor(ctx: IWebhookFunctions, sourceAddress: string | undefined) {
	const node = ctx.getNode().name;
	const state = {
		reference: undefined as string | undefined,
		meta(): IDataObject {
			return { node, workflowId: ctx.getWorkflow().id, reference_no: state.reference, sourceAddress };
		},
		refused(code: number, reason: string) {
			ctx.logger.warn(`Payment Gateway Trigger refused a callback (HTTP ${code}): ${reason}`, state.meta());
		},
		ignored(reason: string) {
			ctx.logger.info(`Payment Gateway Trigger ignored a callback: ${reason}`, state.meta());
		},
		warn(message: string) {
			ctx.logger.warn(`Payment Gateway Trigger ${message}`, state.meta());
		},
		accepted(api: string, status: string) {
			ctx.logger.debug(`Payment Gateway Trigger accepted a ${api} callback with status ${status}`, state.meta());
		},
	};
	return state;
}
