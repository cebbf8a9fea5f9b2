/**
 * Send and Wait for Final Status: Transaction > Generate and Payout > Create send, then park the
 * execution until the service's callback for that reference arrives at this execution's resume URL
 * (docs/waiting.md). The parameters, and the restart webhook n8n resumes the execution through,
 * as n8n's own send-and-wait operations declare it: a path of the node's id under the execution's
 * resume URL.
 */
import type { INodeProperties, IWebhookDescription } from 'n8n-workflow';

export const SEND_AND_WAIT = 'sendAndWait';

/** How long a payout waits unless told otherwise: a payout usually completes within minutes. */
export const DEFAULT_PAYOUT_WAIT_MINUTES = 1440;
/** Added to a payment link's expires_at: a payment made just before it expires still reports in. */
export const LINK_EXPIRY_MARGIN_MINUTES = 15;
/** The longest wait offered: 30 days. */
export const MAX_WAIT_MINUTES = 43200;

export const sendAndWaitWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	},
];

const timeLimit: INodeProperties = {
	displayName: 'Time Limit (Minutes)',
	name: 'waitTimeLimitMinutes',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_WAIT_MINUTES },
	default: 0,
	description: `How long to wait for the final status. 0: until the link expires (its expires_at) plus ${LINK_EXPIRY_MARGIN_MINUTES} minutes. After it the execution goes on with the transaction still pending (finalStatus false).`,
	displayOptions: { show: { [SEND_AND_WAIT]: [true] }, hide: { '@tool': [true] } },
};

const linkTimeLimit: INodeProperties = {
	...timeLimit,
	// Shown under the field: a bare 0 would read as "no waiting".
	hint: `0 waits until the link expires, plus ${LINK_EXPIRY_MARGIN_MINUTES} minutes`,
};

const payoutTimeLimit: INodeProperties = {
	...timeLimit,
	default: DEFAULT_PAYOUT_WAIT_MINUTES,
	description:
		'How long to wait for the final status; after it the execution goes on with the payout still pending (finalStatus false), so Payout > Get or Reconcile can follow',
};

/** The toggle and its settings; `kind` decides the default time limit. */
export function sendAndWaitProperties(kind: 'payment link' | 'payout'): INodeProperties[] {
	const whenWaiting = { show: { [SEND_AND_WAIT]: [true] } };
	return [
		{
			displayName: 'Send and Wait for Final Status',
			name: SEND_AND_WAIT,
			type: 'boolean',
			noDataExpression: true,
			default: false,
			description: `Whether to wait in this execution until the service reports the ${kind} completed or cancelled. The callback goes to this execution's resume URL; the execution holds no worker while it waits. One ${kind} per execution.`,
			// An agent's tool call cannot wait for a callback: the option is not offered to it.
			displayOptions: { hide: { '@tool': [true] } },
		},
		{
			displayName: `Waiting holds this execution until the callback arrives: the service must reach this n8n's URL (WEBHOOK_URL), the credential must have its Signing Secret, and the node takes one item per execution (use Loop Over Items, or the Payment Gateway Trigger for a sheet).`,
			name: 'sendAndWaitNotice',
			type: 'notice',
			default: '',
			displayOptions: { ...whenWaiting, hide: { '@tool': [true] } },
		},
		kind === 'payout' ? payoutTimeLimit : linkTimeLimit,
		{
			displayName: 'Confirm With Service',
			name: 'waitConfirmWithService',
			type: 'boolean',
			default: true,
			description:
				"Whether to look the reference up before resuming and take the status and amounts from the service's record: the signature covers the amount and reference only, not the status",
			displayOptions: { ...whenWaiting, hide: { '@tool': [true] } },
		},
	];
}

/** A parameter shown only while the node does not wait (the callback URL is then the resume URL). */
export function unlessWaiting(property: INodeProperties): INodeProperties {
	const hide = { ...property.displayOptions?.hide, [SEND_AND_WAIT]: [true] };
	return { ...property, displayOptions: { ...property.displayOptions, hide } };
}
