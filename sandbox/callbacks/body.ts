/**
 * What a callback carries and where it may go. Body as docs/endpoints.md (Callbacks) says:
 * {"data": {reference_no, amount, status, signature, total_amount, transaction}}.
 */
import { signCallback } from './signature';

export interface CallbackEvent {
	url: string | undefined;
	referenceNo: string;
	amount: number;
	totalAmount: number;
	status: string;
	transaction: Record<string, unknown>;
}

export function buildCallbackBody(
	secret: string,
	event: CallbackEvent,
): { data: Record<string, unknown> } {
	return {
		data: {
			reference_no: event.referenceNo,
			amount: event.amount,
			status: event.status,
			// Same value as the `amount` field above, so the JSON text and the signed text agree.
			signature: signCallback(secret, event.amount, event.referenceNo),
			total_amount: event.totalAmount,
			transaction: event.transaction,
		},
	};
}

/** Only these hosts are ever contacted, so a test or demo can never post to a real system. */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
	if (host === 'localhost' || host === '::1') return true;
	const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	return m !== null && m.slice(1).every((octet) => Number(octet) <= 255);
}
