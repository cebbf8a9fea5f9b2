/**
 * Collects every problem of one item before failing, so a spreadsheet row with three bad cells
 * is fixed in one go instead of three runs. Every operation reads its items through it.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

interface Problem {
	text: string;
	hint?: string;
}

export class ItemProblems {
	private readonly problems: Problem[] = [];

	constructor(
		private readonly node: INode,
		private readonly itemIndex: number,
	) {}

	/** Runs a shared parser (they throw NodeOperationError); its error becomes a collected problem. */
	check<T>(parse: () => T): T | undefined {
		try {
			return parse();
		} catch (error) {
			if (!(error instanceof NodeOperationError)) {
				throw new NodeOperationError(this.node, error as Error, { itemIndex: this.itemIndex });
			}
			this.problems.push({
				text: error.message,
				hint: error.description ?? undefined,
			});
			return undefined;
		}
	}

	add(text: string, hint?: string): void {
		this.problems.push({ text, hint });
	}

	/** One error listing every problem of the item, or nothing when the item is valid. */
	throwIfAny(): void {
		if (this.problems.length === 0) return;
		if (this.problems.length === 1) {
			const [only] = this.problems;
			throw new NodeOperationError(this.node, only.text, {
				itemIndex: this.itemIndex,
				description: only.hint,
			});
		}
		throw new NodeOperationError(
			this.node,
			`${this.problems.length} fields to fix: ${this.problems.map((p) => p.text).join('; ')}`,
			{
				itemIndex: this.itemIndex,
				description: this.problems
					.map((p) => `- ${p.text}${p.hint ? ` (${p.hint})` : ''}`)
					.join('\n'),
			},
		);
	}
}
