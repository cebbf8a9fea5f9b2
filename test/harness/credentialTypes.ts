/**
 * The credential types the harness knows, by name: ours from /credentials, plus any a test
 * registers. n8n's server keeps the same registry (CredentialTypes) filled from loaded packages.
 */
import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { DisbursementApi } from '../../credentials/DisbursementApi.credentials';
import { PaymentCollectionApi } from '../../credentials/PaymentCollectionApi.credentials';
import { PaymentGatewayLedgerApi } from '../../credentials/PaymentGatewayLedgerApi.credentials';

const registry = new Map<string, ICredentialType>();

export function registerCredentialType(type: ICredentialType): void {
	registry.set(type.name, type);
}

registerCredentialType(new PaymentCollectionApi());
registerCredentialType(new DisbursementApi());
registerCredentialType(new PaymentGatewayLedgerApi());

export function getCredentialType(name: string): ICredentialType {
	const type = registry.get(name);
	if (!type)
		throw new Error(`Unknown credential type "${name}" (register it with registerCredentialType)`);
	return type;
}

/** `extends` chain, nearest parent first, as n8n's CredentialTypes.getParentTypes returns it. */
export function getParentTypes(name: string): string[] {
	const parents = registry.get(name)?.extends ?? [];
	return parents.flatMap((parent) => [parent, ...getParentTypes(parent)]);
}

/** The hidden field n8n refreshes through preAuthentication (`typeOptions.expirable`). */
export function expirablePropertyOf(name: string): INodeProperties | undefined {
	return getCredentialType(name).properties.find(
		(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
	);
}
