/** Picks the operation's per-item handler; the shared item runner owns the loop. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readExecutionOptions } from '../../shared/executionOptions';
import { runItems, type ItemHandler } from '../../shared/itemRunner';
import * as channel from './channel/Channel.resource';
import * as transaction from './transaction/Transaction.resource';

type ItemOperation = (this: IExecuteFunctions, itemIndex: number) => ReturnType<ItemHandler>;

const operations: Record<string, Record<string, ItemOperation>> = {
	transaction: {
		generate: transaction.generate.execute,
		get: transaction.get.execute,
	},
	channel: {
		getMany: channel.getMany.execute,
	},
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const execute = operations[resource]?.[operation];
	if (!execute) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not supported for the resource "${resource}"`,
		);
	}
	const { concurrency } = readExecutionOptions(this, 0);
	return await runItems(this, async (ctx, itemIndex) => await execute.call(ctx, itemIndex), concurrency);
}
