/**
 * Confirm With Service, once per node version. n8n stores only parameters that differ from their
 * default, so changing version 1's default would silently switch every existing workflow: version 2
 * gets its own property of the same stored name with the safe default, each shown by `@version`.
 */
import type { INodeProperties } from 'n8n-workflow';

import { FROM_VERSION_2, IN_VERSION_1 } from '../shared/descriptions/versions';

const WHAT_IT_DOES =
	"Whether to look each callback up with the service before starting the workflow (one look-up per callback, with the chosen credential; HTTP 503 when the service cannot be asked). The signature covers only the amount and reference, never the status: with this on, the status and amount come from the service's own record (statusConfirmed is true), and a callback the record contradicts (status, amount, total amount, channel or recipient) is refused with HTTP 401. A channel or recipient the record does not state is listed in unconfirmed, never taken from the callback. With it off, the status is as the callback states it (statusConfirmed is false).";

export const confirmProperties: INodeProperties[] = [
	{
		displayName: 'Confirm With Service',
		name: 'confirmWithService',
		type: 'boolean',
		default: false,
		description: WHAT_IT_DOES,
		displayOptions: { show: IN_VERSION_1 },
	},
	{
		displayName: 'Confirm With Service',
		name: 'confirmWithService',
		type: 'boolean',
		default: true,
		description: WHAT_IT_DOES,
		displayOptions: { show: FROM_VERSION_2 },
	},
	{
		displayName:
			'Confirm With Service is off: the signature does not cover the status, so anyone holding one signed callback (of a cancelled payment, say) can send it again as "completed". Check statusConfirmed before acting on a status, or switch Confirm With Service on.',
		name: 'unconfirmedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...FROM_VERSION_2, confirmWithService: [false] } },
	},
];
