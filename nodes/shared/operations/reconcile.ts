/**
 * "Reconcile", offered by both action nodes: each row (reference_no; optionally amount, channel and
 * a payout's recipient) is checked against the record the service holds, with one look-up per row
 * and nothing else sent, whatever the input. One item per row tells its status and what does not
 * match; one summary item follows, on an output of its own from the node versions that declare it
 * (runner/recordLookUps.ts, descriptions/versions.ts).
 */
import type { INode, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	columnsNotice,
	executionOptionsProperty,
	manualOnly,
	mappingModeProperty,
	referenceNoProperty,
} from '../descriptions/properties';
import type { ColumnField } from '../descriptions/columns';
import { itemValues } from '../runner/itemValues';
import { readExecutionOptions, type Operation, type ReconcilePlan } from '../runner/operation';
import { reconcileSummary } from '../runner/recordLookUps';
import { ItemProblems } from '../validation/problems';
import { comparableAccount, comparableCode, comparableMobile } from '../validation/recipient';
import type { RecipientFacts, RecordKind } from '../validation/records';
import {
	parseAccountNumber,
	parseAmount,
	parsePhilippineMobile,
	requireText,
} from '../validation/validation';

export interface ReconcileSpec {
	show: Record<string, string[]>;
	kind: RecordKind;
	placeholder: string;
	parseReference(node: INode, itemIndex: number, value: unknown): string;
	/** The parameter (and column) of the channel code: as the operation that creates the record names it. */
	channelParam: string;
}

/** A payout's recipient, under the column names Payout > Create reads. */
const RECIPIENT_COLUMNS: ColumnField[] = [
	{ param: 'mobileNumber', label: 'Mobile Number' },
	{ param: 'bankCode', label: 'Bank Code' },
	{ param: 'receiverAccountNumber', label: 'Receiver Account Number' },
];

const optionalText = (name: string, displayName: string, description: string): INodeProperties =>
	manualOnly({ displayName, name, type: 'string', default: '', description });

const isEmpty = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export function reconcileOperation(spec: ReconcileSpec): Operation {
	const { kind } = spec;
	const columns: ColumnField[] = [
		{ param: 'referenceNo', label: 'Reference No', required: true },
		{ param: 'amount', label: 'Amount' },
		{ param: spec.channelParam, label: 'Channel' },
		...(kind === 'payout' ? RECIPIENT_COLUMNS : []),
	];
	const compared = (what: string) =>
		`${what} the ${kind} should have; left empty, it is not compared`;
	const description: INodeProperties[] = [
		{
			displayName: `Only looks each ${kind} up: nothing that creates or moves money is sent. Each row comes out with the service's status and what does not match; the summary comes out on its own output (Summary).`,
			name: 'reconcileNotice',
			type: 'notice',
			default: '',
		},
		mappingModeProperty(`row to check`),
		columnsNotice(columns, {}, kind === 'payout' ? 'PayoutReconcile' : 'TransactionReconcile'),
		manualOnly(
			referenceNoProperty(spec.placeholder, `The reference_no the ${kind} was created with`),
		),
		optionalText('amount', 'Amount', compared('The amount (to the centavo)')),
		optionalText(spec.channelParam, 'Channel', compared('The channel code (e.g. GCASH)')),
		...(kind === 'payout'
			? [
					optionalText('mobileNumber', 'Mobile Number', compared('The e-wallet mobile number')),
					optionalText('bankCode', 'Bank Code', compared('The receiving bank code')),
					optionalText(
						'receiverAccountNumber',
						'Receiver Account Number',
						compared('The receiving account number'),
					),
				]
			: []),
		executionOptionsProperty(),
	];

	return {
		description: updateDisplayOptions({ show: spec.show }, description),
		prepare(run, itemIndex): ReconcilePlan {
			const { ctx } = run;
			const node = ctx.getNode();
			const problems = new ItemProblems(node, itemIndex);
			const param = itemValues(run, itemIndex, columns);
			// A value given must be valid: "abc" as an amount is an error, not "nothing to compare".
			const given = <T>(name: string, parse: (value: unknown) => T): T | undefined => {
				const value = param(name);
				return isEmpty(value) ? undefined : problems.check(() => parse(value));
			};
			const referenceNo = problems.check(() =>
				spec.parseReference(node, itemIndex, param('referenceNo')),
			);
			const amount = given('amount', (value) => parseAmount(node, itemIndex, value));
			const channel = given(spec.channelParam, (value) =>
				requireText(node, itemIndex, 'Channel', value),
			);
			const recipient = kind === 'payout' ? readRecipient(node, itemIndex, given) : undefined;
			problems.throwIfAny();
			const { timeoutMs } = readExecutionOptions(run, itemIndex);
			return {
				reconcile: {
					kind,
					referenceNo: referenceNo!,
					timeoutMs,
					expect: { amount, channel, recipient },
				},
			};
		},
		summarize: reconcileSummary,
	};
}

type Given = <T>(name: string, parse: (value: unknown) => T) => T | undefined;

/** The recipient facts a row gives, each checked as Payout > Create checks it. */
function readRecipient(node: INode, itemIndex: number, given: Given): RecipientFacts | undefined {
	const mobile = given('mobileNumber', (value) =>
		parsePhilippineMobile(node, itemIndex, 'Mobile Number', value),
	);
	const bankCode = given('bankCode', (value) => requireText(node, itemIndex, 'Bank Code', value));
	const account = given('receiverAccountNumber', (value) =>
		parseAccountNumber(node, itemIndex, 'Receiver Account Number', value),
	);
	// In the comparable forms of recipient.ts, as the record's are read.
	const recipient: RecipientFacts = {
		'mobile number': comparableMobile(mobile),
		'bank code': comparableCode(bankCode),
		'account number': comparableAccount(account),
	};
	return Object.values(recipient).some((value) => value !== undefined) ? recipient : undefined;
}
