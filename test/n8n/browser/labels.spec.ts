// Labels that fit the panel: one node per resource and operation that has a collection (Options,
// Additional Fields), each with every option of it added, on the version new nodes get. The panel
// must show each label whole, never cut with an ellipsis ("Maximum Amount per Pay…" once was).
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { test, expect } from './fixtures';
import { PACKAGE_NAME } from '../../../scripts/n8n/paths';
import { Disbursement } from '../../../nodes/Disbursement/Disbursement.node';
import { PaymentCollection } from '../../../nodes/PaymentCollection/PaymentCollection.node';
import { PaymentGatewayTrigger } from '../../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';

interface FormNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}

/** The options shown on a collection are those in its value: every option at its default. */
function everyOption(collection: INodeProperties): Record<string, unknown> {
	const options = (collection.options ?? []) as INodeProperties[];
	return Object.fromEntries(options.map((option) => [option.name, option.default]));
}

/** One node per resource and operation a collection of `node` is shown for. */
function formNodes(label: string, node: INodeType): FormNode[] {
	const { description } = node;
	const typeVersion = description.defaultVersion ?? [description.version].flat().at(-1) ?? 1;
	const byForm = new Map<string, FormNode>();
	for (const collection of description.properties.filter(({ type }) => type === 'collection')) {
		const show = collection.displayOptions?.show ?? {};
		for (const resource of show.resource ?? [undefined])
			for (const operation of show.operation ?? [undefined]) {
				const name = [label, resource, operation].filter(Boolean).join(' ');
				const form = byForm.get(name) ?? {
					name,
					type: `${PACKAGE_NAME}.${description.name}`,
					typeVersion,
					parameters: { ...(resource && { resource }), ...(operation && { operation }) },
				};
				const current = (form.parameters[collection.name] ?? {}) as Record<string, unknown>;
				form.parameters[collection.name] = { ...current, ...everyOption(collection) };
				byForm.set(name, form);
			}
	}
	return [...byForm.values()];
}

const FORMS = [
	...formNodes('Disbursement', new Disbursement()),
	...formNodes('Collection', new PaymentCollection()),
	...formNodes('Trigger', new PaymentGatewayTrigger()),
];

test.describe.configure({ mode: 'serial' });

let workflowId: string;
test.beforeAll(async ({ demo }) => {
	const created = await demo.rest.expectOk<{ id: string }>('POST', '/workflows', {
		name: 'Every option of every form',
		active: false,
		settings: {},
		connections: {},
		nodes: FORMS.map((form, index) => ({
			...form,
			id: `c0ffee00-0000-4000-8000-${String(index).padStart(12, '0')}`,
			position: [(index % 6) * 240, Math.floor(index / 6) * 200],
		})),
	});
	workflowId = created.id;
});

test('every option label of every form is shown whole', async ({ editor }) => {
	await editor.openWorkflow(workflowId);
	const measured: string[] = [];
	const cut: string[] = [];
	for (const form of FORMS) {
		await editor.openNode(form.name);
		// The panel renders progressively: wait until it shows some of the options added.
		await expect
			.poll(async () => (await editor.parameterLabels()).shown.length, {
				message: `${form.name} shows its labels`,
			})
			.toBeGreaterThan(Object.keys(form.parameters).length);
		const labels = await editor.parameterLabels();
		measured.push(...labels.shown);
		cut.push(...labels.cut.map((label) => `${form.name}: ${label}`));
		await editor.closeNode();
	}
	expect(cut, 'labels cut with an ellipsis').toEqual([]);
	// The long ones were measured, not skipped.
	expect(measured).toEqual(
		expect.arrayContaining([
			'Maximum per Payout',
			'Maximum Total per Day',
			'Valid For (Minutes)',
			'First Pause (Seconds)',
			'Longest Pause (Seconds)',
		]),
	);
});
