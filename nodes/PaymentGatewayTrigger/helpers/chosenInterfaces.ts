/**
 * Which interfaces the trigger listens to, and the check that each has its credential.
 *
 * The node shows each credential only for the Interface that uses it (Collection's for Collection
 * and Both, Disbursement's for Disbursement and Both), with displayOptions.hide on purpose: when
 * credentials' displayOptions.show name every value of a parameter, n8n's editor takes that
 * parameter for an authentication selector and hides it from the node's panel (its
 * getMainAuthField reads `show` only), so users could not choose the interface. The credentials
 * are declared optional for the same reason; the check below keeps them required in practice,
 * with a message that says which.
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiInterface } from '../../shared/transport/endpoints';
import { CREDENTIAL_TYPE } from '../../shared/transport/transport';
import { optionSetting } from './settings';

const CREDENTIAL_LABEL: Record<ApiInterface, string> = {
	collection: 'Payment Gateway Collection API',
	disbursement: 'Payment Gateway Disbursement API',
};

export function chosenInterfaces(ctx: IWebhookFunctions | IHookFunctions): ApiInterface[] {
	const choice = optionSetting(
		ctx,
		'interface',
		'Interface',
		['collection', 'disbursement', 'both'],
		'collection',
	);
	const chosen: ApiInterface[] = choice === 'both' ? ['collection', 'disbursement'] : [choice];
	const node = ctx.getNode();
	for (const api of chosen) {
		if (!node.credentials?.[CREDENTIAL_TYPE[api]]) {
			throw new NodeOperationError(
				node,
				`Select a ${CREDENTIAL_LABEL[api]} credential: this trigger listens to ${api} callbacks and verifies them with it`,
			);
		}
	}
	return chosen;
}
