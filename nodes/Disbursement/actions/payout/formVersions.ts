/**
 * Payout > Create per node version (n8n's light versioning). n8n stores only the values that
 * differ from their default, so version 1 keeps every parameter name and default exactly; version 2
 * shows the same stored names tidied: Mode (Pay or Check Only) at the top, optional bank-transfer
 * fields under Additional Fields, limits with no default, and input columns mapped automatically.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { FROM_VERSION_2, IN_VERSION_1 } from '../../../shared/descriptions/versions';
import type { DryRunSetting } from '../../../shared/runner/operation';
import { DRY_RUN_OPTION } from '../../../shared/runner/operation';
import type { RunContext } from '../../../shared/runner/runContext';
import { quoted, stopRun } from '../../../shared/runner/runStop';

/** The property, shown only on nodes of version 1 (stored workflows). */
export function version1Only(property: INodeProperties): INodeProperties {
	const displayOptions = property.displayOptions ?? {};
	return {
		...property,
		displayOptions: { ...displayOptions, show: { ...displayOptions.show, ...IN_VERSION_1 } },
	};
}

/** The property, shown on nodes of version 2 and later. */
export function fromVersion2(property: INodeProperties): INodeProperties {
	const displayOptions = property.displayOptions ?? {};
	return {
		...property,
		displayOptions: { ...displayOptions, show: { ...displayOptions.show, ...FROM_VERSION_2 } },
	};
}

/**
 * The node's version, which decides the form: read once where the run starts and kept in the run's
 * context (n8n copies the whole node on every getNode()).
 */
export function nodeVersion(run: RunContext): number {
	return run.nodeVersion;
}

/** Version 2's Mode: Dry Run as a visible choice, stored under its own name. */
export const RUN_MODE = 'runMode';

export const runModeProperty: INodeProperties = fromVersion2({
	displayName: 'Mode',
	name: RUN_MODE,
	type: 'options',
	options: [
		{
			name: 'Pay',
			value: 'pay',
			description: 'Send the payouts: money moves, each reference_no is paid once',
		},
		{
			name: 'Check Only (Dry Run)',
			value: 'dryRun',
			description:
				'Check every row and show what would be sent (output Rows), and a summary (output Summary: rows, total per channel, rows that would fail and why). Nothing is paid.',
		},
	],
	default: 'pay',
	description:
		'Whether to pay or only check. An expression must give pay or dryRun (true and false are read as Check Only and Pay); anything else stops the node before any payout is sent.',
});

/** What version 2's notice says in each Mode, for a workflow (the AI-agent notice covers the tool). */
export const runModeNotices: INodeProperties[] = [
	{
		displayName:
			'Money moves when this node runs: each reference_no is paid once. Set Mode to "Check Only (Dry Run)" to check a sheet without paying.',
		name: 'moneyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...FROM_VERSION_2, [RUN_MODE]: ['pay'] }, hide: { '@tool': [true] } },
	},
	{
		displayName:
			'Check Only (Dry Run): every row is checked and shown with what would be sent, and nothing is paid. Set Mode to "Pay" to send the payouts.',
		name: 'dryRunNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...FROM_VERSION_2, [RUN_MODE]: ['dryRun'] } },
	},
];

/** Where this node's Dry Run is set: Mode from version 2, the Options collection in version 1. */
export function dryRunSetting(run: RunContext): DryRunSetting {
	if (nodeVersion(run) < 2) return DRY_RUN_OPTION;
	return {
		path: RUN_MODE,
		fallback: 'pay',
		choice: { label: 'Mode', dryRun: 'dryRun', pay: 'pay' },
	};
}

/**
 * Version 1's Options > Dry Run where it is not read (Create from version 2, Confirm): shown only
 * while it is on, so n8n keeps a value an imported or hand-edited workflow holds (it drops an option
 * its node does not declare) and `refuseUnreadDryRun` can stop the run; nobody can add it anew.
 */
export const storedDryRunOption: INodeProperties = {
	displayName: 'Dry Run (Version 1 Option)',
	name: 'dryRun',
	type: 'boolean',
	default: false,
	displayOptions: { show: { dryRun: [true] } },
	description:
		'Whether the workflow still holds the Dry Run option of version 1. This node does not read it and stops rather than pay while it is on: remove it, and set Mode to "Check Only (Dry Run)" to only check the rows.',
};

/**
 * A node about to pay that stores an Options > Dry Run it does not read (version 1's option kept in
 * a version-2 node, or set on Confirm, as an imported or hand-edited workflow may): the run stops
 * naming it, never pays. `dryRunRead` says whether the node reads that option (Create version 1).
 */
export function refuseUnreadDryRun(ctx: IExecuteFunctions, dryRunRead: boolean): void {
	const node = ctx.getNode();
	const stored = (node.parameters.options as IDataObject | undefined)?.dryRun;
	if (dryRunRead || stored === undefined || stored === false) return;
	throw stopRun(
		new NodeOperationError(
			node,
			`Options hold Dry Run (${quoted(stored)}), which this node does not read: nothing was sent`,
			{
				description:
					'Dry Run in Options belongs to version 1 of Payout > Create. To only check the rows, set Mode to "Check Only (Dry Run)"; to pay, remove "dryRun" from the node\'s options in the workflow JSON.',
			},
		),
	);
}
