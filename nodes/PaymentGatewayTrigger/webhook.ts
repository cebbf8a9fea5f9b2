/**
 * What happens to one callback request. Settings are read strictly first (an unreadable one
 * throws: n8n answers 500). Checks run cheapest and most telling first: source address (403),
 * body (400), signature (401; also when the credential has no Signing Secret, unless the user
 * accepts unsigned callbacks, and when the transaction copy contradicts the signed fields),
 * interface and status filters (200, no execution), duplicates (200, no execution), confirmation
 * with the service (401, or 503 when the service cannot be asked), then one normalised item
 * starts the workflow. Every request is answered by the trigger itself (helpers/answer.ts says
 * why, also for an accepted one); a refusal is logged with a short, escaped reason (never a
 * secret, never the body); only an accepted one returns workflowData.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { LedgerProblem } from '../shared/transport/ledger';
import { outcomeOf } from '../shared/transport/outcome';
import { hideDeep } from '../shared/transport/secrets';
import { serviceRun } from '../shared/transport/runState';
import { recordChannel } from '../shared/validation/records';
import { accept, reply } from './helpers/answer';
import { callbackLog } from './helpers/callbackLog';
import { chosenInterfaces } from './helpers/chosenInterfaces';
import { confirmWithService, type CallbackFact } from '../shared/callbacks/confirm';
import { deliveryKey, deliveryRecord } from './helpers/duplicates';
import { hiddenValues } from '../shared/callbacks/hiddenValues';
import { claimDelivery, claimScope, claimsInLedger } from './helpers/ledgerClaims';
import { readCallback, type ApiInterface, type IncomingRequest } from '../shared/callbacks/payload';
import { triggerSettings } from './helpers/settings';
import {
	allowListProblem,
	isAllowed,
	normaliseAddress,
	parseAllowList,
} from './helpers/sourceAddress';
import { checkSignature } from '../shared/callbacks/verification';

/** A check on the callback: true when it ran and passed, null when it is off (not configured). */
type Check = true | null;

interface Verified {
	signature: Check;
	sourceAddress: Check;
	confirmedWithService: Check;
}

/** What the item states; each fact is either verified or marked as not confirmed. */
interface Facts {
	api: ApiInterface | 'unknown';
	status: string;
	amount: number;
	totalAmount: number | null;
	channel: string | null;
	transaction: IDataObject | null;
	/** With Confirm With Service: facts the callback states that the record does not. */
	unconfirmed: CallbackFact[];
}

export async function handleCallback(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject() as unknown as IncomingRequest;
	const chosen = chosenInterfaces(this);
	const { statuses, confirm, acceptUnsigned, allowText } = triggerSettings(this);
	const sourceAddress = normaliseAddress(request.ip ?? request.socket?.remoteAddress);
	// One credential read per callback, shared by every step below.
	const service = serviceRun(this);
	const hidden = await hiddenValues(service, chosen);
	const log = callbackLog(this, sourceAddress, hidden);

	// 1. Source address.
	let addressChecked: Check = null;
	if (allowText.trim() !== '') {
		const problem = allowListProblem(allowText);
		if (problem) {
			log.refused(403, problem);
			return reply(this, 403, 'Forbidden');
		}
		if (!isAllowed(parseAllowList(allowText), sourceAddress)) {
			log.refused(403, 'the source address is not in Allowed IP Addresses');
			return reply(this, 403, 'Forbidden');
		}
		addressChecked = true;
	}

	// 2. Body.
	const read = readCallback(request, hidden);
	if (!read.ok) {
		log.refused(400, read.reason);
		return reply(this, 400, `Bad request: ${read.reason}`);
	}
	const callback = read.callback;

	// 3. Signature. Nothing of the body is logged before this point.
	const signature = await checkSignature(service, chosen, callback, acceptUnsigned);
	if (!signature.ok) {
		log.refused(401, signature.reason);
		return reply(this, 401, 'Unauthorized');
	}
	log.reference = callback.referenceNo;
	if (signature.verified === 'not configured') {
		log.warn('accepted a callback WITHOUT verification: Accept Unsigned Callbacks (Unsafe) is on');
	}

	// 4. Filters. The body's shape is unsigned: it may turn a callback away, never let one in.
	if (callback.shapeHint && !chosen.includes(callback.shapeHint)) {
		log.ignored(
			`it is a ${callback.shapeHint} callback and this trigger listens to ${chosen.join(' and ')}`,
		);
		return reply(this, 200, 'Ignored: other interface');
	}
	if (!statuses.includes(callback.status)) {
		log.ignored(`status "${callback.status}" is not one of the chosen statuses`);
		return reply(this, 200, `Ignored: status ${callback.status}`);
	}

	// 5. Duplicates, keyed on verified fields only (the interfaces whose secret verified it, or the one
	// the service confirms; reference_no; status): checked before the look-up if known, claimed after.
	const verifiedBy = signature.interfaces;
	const record =
		this.getMode() === 'manual'
			? undefined
			: deliveryRecord(nodeKey(this), this.getWorkflowStaticData('node'));
	let keyInterface = confirm && verifiedBy.length > 1 ? undefined : verifiedBy.join('+');
	if (
		record &&
		keyInterface !== undefined &&
		record.has(deliveryKey(keyInterface, callback.referenceNo, callback.status))
	) {
		log.ignored('duplicate delivery');
		return reply(this, 200, 'Duplicate ignored');
	}

	// 6. Confirmation with the service: the emitted facts then come from its record.
	let facts: Facts = {
		api: pickInterface(verifiedBy, callback.shapeHint),
		status: callback.status,
		amount: callback.amount,
		totalAmount: callback.totalAmount,
		channel: recordChannel(callback.transaction) ?? recordChannel(callback.payload) ?? null,
		transaction: callback.transaction ?? null,
		unconfirmed: [],
	};
	if (confirm) {
		const outcome = await confirmWithService(
			service,
			hintFirst(verifiedBy, callback.shapeHint),
			callback,
		);
		if (!outcome.ok) {
			log.refused(outcome.code, outcome.reason);
			return reply(
				this,
				outcome.code,
				outcome.code === 401 ? 'Unauthorized' : 'Service unavailable, try again later',
			);
		}
		const { api, status, amount, totalAmount, channel, record: transaction, unconfirmed } = outcome;
		facts = { api, status, amount, totalAmount, channel, transaction, unconfirmed };
		keyInterface = api;
	}

	// 7. The claim: in the ledger first when the node has one (one execution across webhook
	// processes), then in this process's record.
	const key = deliveryKey(keyInterface ?? facts.api, callback.referenceNo, facts.status);
	if (record && claimsInLedger(this) && !record.has(key)) {
		const claimed = await outcomeOf(claimDelivery(this, claimScope(this), key));
		if ('failure' in claimed) {
			if (!(claimed.failure instanceof LedgerProblem)) throw claimed.failure;
			log.refused(503, `the delivery could not be claimed: ${claimed.failure.message}`);
			return reply(this, 503, 'Service unavailable, try again later');
		}
		if (claimed.answer === 'undecided') {
			log.refused(503, 'another request is claiming the same delivery in the ledger');
			return reply(this, 503, 'Service unavailable, try again later');
		}
		if (claimed.answer === 'duplicate') {
			log.ignored('duplicate delivery (claimed in the ledger)');
			return reply(this, 200, 'Duplicate ignored');
		}
	}
	if (record && !record.claim(key)) {
		log.ignored('duplicate delivery');
		return reply(this, 200, 'Duplicate ignored');
	}

	const item: IDataObject = {
		interface: facts.api,
		reference_no: callback.referenceNo,
		status: facts.status,
		statusConfirmed: confirm,
		amount: facts.amount,
		total_amount: facts.totalAmount,
		channel: facts.channel,
		verified: {
			signature: signature.verified === true ? true : null,
			sourceAddress: addressChecked,
			confirmedWithService: confirm ? true : null,
		} satisfies Verified,
		sourceAddress: sourceAddress ?? null,
		receivedAt: new Date().toISOString(),
		transaction: facts.transaction,
		...(facts.unconfirmed.length > 0 ? { unconfirmed: facts.unconfirmed } : {}),
		raw: callback.raw,
	};
	log.accepted(facts.api, facts.status);
	return accept(this, hideDeep(item, hidden));
}

/** The interface whose secret verified the callback, its shape breaking a tie. */
function pickInterface(
	verifiedBy: ApiInterface[],
	hint: ApiInterface | undefined,
): ApiInterface | 'unknown' {
	if (hint && verifiedBy.includes(hint)) return hint;
	if (verifiedBy.length === 1) return verifiedBy[0];
	return 'unknown';
}

/** The verified interfaces, the one the shape points to first (it only saves a look-up). */
function hintFirst(verifiedBy: ApiInterface[], hint: ApiInterface | undefined): ApiInterface[] {
	return hint && verifiedBy.includes(hint)
		? [hint, ...verifiedBy.filter((api) => api !== hint)]
		: verifiedBy;
}

function nodeKey(ctx: IWebhookFunctions): string {
	const node = ctx.getNode();
	return `${ctx.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
}
