/**
 * Stopping a run: an error marked here means nothing more is sent, whatever the node's error
 * setting. The run-wide guards (Dry Run, Maximum Total per Run) raise such errors when they cannot
 * be read, or read differently for different rows: they fail closed, never "off" or "no limit".
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** An item whose error stopped the run. */
export interface Failed {
	itemIndex: number;
	error: Error;
}

/** Errors after which nothing more is sent (invalid safety limits). */
const runStoppers = new WeakSet<Error>();

/** Marks an error as one that stops the run: no item is sent after it, even with continue-on-fail. */
export function stopRun<T extends Error>(error: T): T {
	runStoppers.add(error);
	return error;
}

export function isRunStopper(error: unknown): boolean {
	return error instanceof Error && runStoppers.has(error);
}

/** An option's value as an error quotes it: its text (at most 40 characters), or "empty". */
export function quoted(raw: unknown): string {
	const given = ['string', 'number', 'boolean'].includes(typeof raw)
		? String(raw).slice(0, 40)
		: '';
	return given.trim() === '' ? 'empty' : `"${given}"`;
}

/**
 * A safety limit typed into an option (a cap): only a clean positive number counts. Anything else
 * ("20,000", "₱20,000", "abc", -1, 0, an expression that came out empty) is refused, never read as
 * "no limit": a guard that cannot be read must not let money through.
 */
export function readLimit(value: unknown): number | undefined {
	const text =
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
	const limit = Number(text);
	return Number.isFinite(limit) && limit > 0 ? limit : undefined;
}

/** A choice that stands for Dry Run (Payout > Create version 2's Mode): its name and its two values. */
export interface DryRunChoice {
	label: string;
	dryRun: string;
	pay: string;
}

/**
 * Dry Run as the node reads it: true or false, also as text ("TRUE" from a spreadsheet column), or
 * one of the two values of a choice that stands for it. Anything else stops the run: an
 * unreadable Dry Run must never become a live run.
 */
export function parseDryRun(
	node: INode,
	itemIndex: number,
	raw: unknown,
	choice?: DryRunChoice,
): boolean {
	const value = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
	if (value === true || value === 'true') return true;
	if (value === false || value === 'false') return false;
	if (choice && value === choice.dryRun.toLowerCase()) return true;
	if (choice && value === choice.pay.toLowerCase()) return false;
	const [label, wanted, fix] = choice
		? [
				choice.label,
				`${choice.pay} or ${choice.dryRun}`,
				`Choose ${choice.label} from the list, or map a value that is ${choice.pay} or ${choice.dryRun}.`,
			]
		: [
				'Dry Run',
				'true or false',
				'Switch Dry Run on or off, or map a value that is true or false (such as a column holding TRUE or FALSE).',
			];
	throw stopRun(
		new NodeOperationError(node, `${label} is ${quoted(raw)}, not ${wanted}: nothing was sent`, {
			itemIndex,
			description: fix,
		}),
	);
}

/**
 * A run-wide option set by an expression is read for every row: one value holds for the whole
 * run, so rows that disagree (a Dry Run column true on one row only) stop it with nothing sent.
 */
export function sameForEveryRow<T>(
	node: INode,
	itemCount: number,
	label: string,
	read: (itemIndex: number) => T,
): T {
	const first = read(0);
	for (let itemIndex = 1; itemIndex < itemCount; itemIndex++) {
		const value = read(itemIndex);
		if (value === first) continue;
		throw stopRun(
			new NodeOperationError(
				node,
				`${label} is ${quoted(first)} for row 1 but ${quoted(value)} for row ${itemIndex + 1}: it holds for the whole run, so nothing was sent`,
				{
					itemIndex,
					description:
						'Map a value that is the same for every row, or send the rows in separate runs.',
				},
			),
		);
	}
	return first;
}
