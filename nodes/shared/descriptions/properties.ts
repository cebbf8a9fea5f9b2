/**
 * Parameters both action nodes show with the same name and meaning (DESIGN.md section 3): one
 * definition each, so the editor explains them the same way wherever they appear.
 */
import type { INodeProperties } from 'n8n-workflow';

type Show = Record<string, string[]>;

/**
 * Text, not a number field: n8n's number input shows its minimum (0.01) when empty, which invites
 * an accidental payout, and spreadsheet text such as "1,250.50" is accepted anyway.
 */
export function amountProperty(show: Show): INodeProperties {
	return {
		displayName: 'Amount',
		name: 'amount',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1250.50',
		description:
			'Amount in Philippine pesos, from 0.01 to 50,000. Spreadsheet text such as "1,250.50" is accepted.',
		displayOptions: { show },
	};
}

/** The reference_no of a record, with what it is for in this operation. */
export function referenceNoProperty(show: Show, placeholder: string, description: string): INodeProperties {
	return {
		displayName: 'Reference No',
		name: 'referenceNo',
		type: 'string',
		required: true,
		default: '',
		placeholder,
		description,
		displayOptions: { show },
	};
}

/** The reference_no of a record the operation creates: it is what makes a re-run safe. */
export function newReferenceNoProperty(show: Show, noun: string, placeholder: string): INodeProperties {
	return referenceNoProperty(
		show,
		placeholder,
		`Your own unique reference for this ${noun}, sent as reference_no. It is the idempotency key: map a stable value such as an invoice number (never a random or time-based value), so running the workflow again returns the same ${noun} instead of making a second one. Letters, digits, "-" and "_", at most 64 characters.`,
	);
}

export function callbackWebhookUrlProperty(show: Show, noun: string): INodeProperties {
	return {
		displayName: 'Callback Webhook URL',
		name: 'callbackWebhookUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://your-n8n.example.com/webhook/...',
		description: `Strongly recommended. Paste the Production URL of a Payment Gateway Trigger node here: the service calls it with the final status of the ${noun} (completed or cancelled).`,
		displayOptions: { show },
	};
}

/** Shown while Callback Webhook URL is empty: without it the final status never arrives. */
export function callbackMissingNotice(show: Show, noun: string): INodeProperties {
	return {
		displayName: `Callback Webhook URL is empty: the service sends the final status of the ${noun} (completed or cancelled) only to that URL, so it will never arrive. Paste the Production URL of a Payment Gateway Trigger node above.`,
		name: 'callbackMissingNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, callbackWebhookUrl: [''] } },
	};
}
